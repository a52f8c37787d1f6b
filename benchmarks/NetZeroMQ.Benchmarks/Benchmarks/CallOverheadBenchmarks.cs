using System;
using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;
using NetZeroMQ.Tests.TestUtilities;

// Benchmark classes live in the root namespace so that their published names stay short: NetZeroMQ.Benchmarks.<Class>.<Method>.
namespace NetZeroMQ.Benchmarks;

/// <summary>
/// What the binding adds to every native call, measured in isolation (per call, 1,000 calls per invocation): the P/Invoke
/// transition itself (a trivial libzmq function), NetZeroMQ's per-call guard in its two modes (biased to the one thread that
/// uses it: plain stores; checked: one compare-exchange in, one store out), the process-wide barrier that ends a guard's
/// bias, and the SafeHandle reference count the guard replaces (DangerousAddRef + DangerousRelease, two compare-exchange
/// loops).
/// </summary>
[BenchmarkCategory(Categories.Overhead)]
public class CallOverheadBenchmarks
{
    private const int Calls = 1000;
    private const int Barriers = 10;

    private readonly object _owner = new();
    private UsageGuard _guard;
    private UsageGuard _checkedGuard;
    private SafeHandle _handle = null!;

    [GlobalSetup]
    public void Setup()
    {
        Libzmq.EnsureUsable();
        _handle = new Microsoft.Win32.SafeHandles.SafeFileHandle((IntPtr)1, ownsHandle: false);

        // Each guard in the mode its row names, checked here so that no row measures the other mode: the biased one after
        // the calls in a row that bias it (BenchmarkDotNet calls setup and benchmark on the same thread), the checked one
        // switched for good as async machinery does.
        UsageGuardEnterExit();
        _checkedGuard.Enter(_owner);
        _checkedGuard.RequireChecks();
        _checkedGuard.Exit();
        if (!_guard.IsBiased() || !_checkedGuard.IsCheckedForGood())
        {
            throw new InvalidOperationException(
                $"The guards are not in the modes the rows measure: biased {_guard.IsBiased()}, checked {_checkedGuard.IsCheckedForGood()}.");
        }
    }

    [GlobalCleanup]
    public void Cleanup() => _handle.Dispose();

    /// <summary>A call to zmq_errno: the fixed cost of crossing into libzmq and back.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Calls)]
    public int PInvokeTransition()
    {
        int sum = 0;
        for (int i = 0; i < Calls; i++)
        {
            sum += Interop.Zmq.zmq_errno();
        }

        return sum;
    }

    /// <summary>UsageGuard.Enter + Exit on a guard biased to this thread: what every Socket and Message call pays for
    /// race-free Dispose and misuse detection while one thread keeps using the object.</summary>
    [Benchmark(OperationsPerInvoke = Calls)]
    public bool UsageGuardEnterExit() => EnterExit(ref _guard);

    /// <summary>UsageGuard.Enter + Exit on a guard checked for good: what a call pays on an object that threads take turns
    /// on, or that has async machinery attached.</summary>
    [Benchmark(OperationsPerInvoke = Calls)]
    public bool UsageGuardEnterExitChecked() => EnterExit(ref _checkedGuard);

    /// <summary>Interlocked.MemoryBarrierProcessWide: what ending a guard's bias adds, paid once per object when a second
    /// thread uses it, and by Dispose from a thread other than the one the object is biased to.</summary>
    [Benchmark(OperationsPerInvoke = Barriers)]
    public void ProcessWideBarrier()
    {
        for (int i = 0; i < Barriers; i++)
        {
            System.Threading.Interlocked.MemoryBarrierProcessWide();
        }
    }

    /// <summary>SafeHandle.DangerousAddRef + DangerousRelease: the per-call protection a SafeHandle parameter would add.</summary>
    [Benchmark(OperationsPerInvoke = Calls)]
    public bool SafeHandleAddRefRelease()
    {
        bool added = false;
        for (int i = 0; i < Calls; i++)
        {
            added = false;
            _handle.DangerousAddRef(ref added);
            _handle.DangerousRelease();
        }

        return added;
    }

    private bool EnterExit(ref UsageGuard guard)
    {
        bool release = false;
        for (int i = 0; i < Calls; i++)
        {
            guard.Enter(_owner);
            release |= guard.Exit();
        }

        return release;
    }
}
