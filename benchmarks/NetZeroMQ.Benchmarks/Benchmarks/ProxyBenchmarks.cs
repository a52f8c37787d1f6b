using BenchmarkDotNet.Attributes;
using NetZeroMQ.Benchmarks.Transfer;

// Benchmark classes live in the root namespace so that their published names stay short: NetZeroMQ.Benchmarks.<Class>.<Method>.
namespace NetZeroMQ.Benchmarks;

/// <summary>
/// PUSH -> proxy -> PULL over inproc, one message per operation: libzmq's <c>zmq_proxy</c> (the baseline, <see cref="Proxy"/>),
/// libzmq's <c>zmq_proxy_steerable</c>, and <see cref="SteerableProxy"/>'s own loop, at 64 B and 64 KiB. The proxy thread is a
/// third busy thread beside the sender and the receiver, so on 2 CPUs the numbers move with the load: compare the methods of one
/// run (the Ratio column), never across runs.
/// </summary>
[BenchmarkCategory(Categories.Proxy, Categories.PushPull)]
public class ProxyBenchmarks
{
    private ProxyRig? _rig;

    [Params(64, 65536)]
    public int MessageSize { get; set; }

    [GlobalSetup(Target = nameof(LibzmqProxy))]
    public void SetupLibzmqProxy() => _rig = new ProxyRig(ProxyKind.Libzmq, MessageSize, TransferRig.DefaultTimeout);

    [GlobalSetup(Target = nameof(LibzmqSteerable))]
    public void SetupLibzmqSteerable() => _rig = new ProxyRig(ProxyKind.LibzmqSteerable, MessageSize, TransferRig.DefaultTimeout);

    [GlobalSetup(Target = nameof(SteerableProxy))]
    public void SetupSteerableProxy() => _rig = new ProxyRig(ProxyKind.Steerable, MessageSize, TransferRig.DefaultTimeout);

    [GlobalCleanup]
    public void Cleanup()
    {
        _rig?.Dispose();
        _rig = null;
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = RigBenchmark.MessagesPerInvoke)]
    public long LibzmqProxy() => _rig!.RunBatch(RigBenchmark.MessagesPerInvoke);

    [Benchmark(OperationsPerInvoke = RigBenchmark.MessagesPerInvoke)]
    public long LibzmqSteerable() => _rig!.RunBatch(RigBenchmark.MessagesPerInvoke);

    [Benchmark(OperationsPerInvoke = RigBenchmark.MessagesPerInvoke)]
    public long SteerableProxy() => _rig!.RunBatch(RigBenchmark.MessagesPerInvoke);
}
