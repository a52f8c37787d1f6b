using System;
using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;

// Benchmark classes live in the root namespace so that their published names stay short: NetZeroMQ.Benchmarks.<Class>.<Method>.
namespace NetZeroMQ.Benchmarks;

/// <summary>
/// What the binding adds to every native call, measured in isolation (per call, 1,000 calls per invocation): the P/Invoke
/// transition itself (a trivial libzmq function), NetZeroMQ's per-call guard (one compare-exchange in, one store out), and
/// the SafeHandle reference count it replaces (DangerousAddRef + DangerousRelease, two compare-exchange loops).
/// </summary>
[BenchmarkCategory(Categories.Overhead)]
public class CallOverheadBenchmarks
{
    private const int Calls = 1000;

    private readonly object _owner = new();
    private UsageGuard _guard;
    private SafeHandle _handle = null!;

    [GlobalSetup]
    public void Setup()
    {
        Libzmq.EnsureUsable();
        _handle = new Microsoft.Win32.SafeHandles.SafeFileHandle((IntPtr)1, ownsHandle: false);
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

    /// <summary>UsageGuard.Enter + Exit: what every Socket and Message call pays for race-free Dispose and misuse detection.</summary>
    [Benchmark(OperationsPerInvoke = Calls)]
    public bool UsageGuardEnterExit()
    {
        bool release = false;
        for (int i = 0; i < Calls; i++)
        {
            _guard.Enter(_owner);
            release |= _guard.Exit();
        }

        return release;
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
}
