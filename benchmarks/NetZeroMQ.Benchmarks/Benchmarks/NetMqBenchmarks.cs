using BenchmarkDotNet.Attributes;
using NetZeroMQ.Benchmarks.Transfer;
using NetZeroMQ.Benchmarks.Transfer.NetMq;

// Benchmark classes live in the root namespace so that their published names stay short: NetZeroMQ.Benchmarks.<Class>.<Method>.
namespace NetZeroMQ.Benchmarks;

/// <summary>
/// NetMQ 4.0.4.5 (pure managed, in this process) with the suite's method, as the reference the NetZeroMQ rows are read
/// against: 4 methods (PushPull, PubSub x NetMQ's two fast paths) x 2 transports x 3 sizes = 24 cases. Frame:
/// SendFrame(byte[]) and ReceiveFrameBytes(); Msg: a pooled Msg per send (InitPool + copy, buffer-manager pool), receive
/// into one reused Msg. NetMQ has no XPUB_NODROP: its PubSub runs with both high-water marks at 0 so that nothing is dropped.
/// For ratios measured side by side with NetZeroMQ, use --netmq.
/// </summary>
[BenchmarkCategory(Categories.NetMQ)]
public class NetMqBenchmarks
{
    private NetMqStreamRig? _rig;

    [Params(Transport.Inproc, Transport.Tcp)]
    public Transport Transport { get; set; }

    [Params(64, 1024, 65536)]
    public int MessageSize { get; set; }

    [GlobalSetup(Target = nameof(PushPullFrame))]
    public void SetupPushPullFrame() => Setup(Pattern.PushPull, NetMqApi.Frame);

    [GlobalSetup(Target = nameof(PushPullMsg))]
    public void SetupPushPullMsg() => Setup(Pattern.PushPull, NetMqApi.Msg);

    [GlobalSetup(Target = nameof(PubSubFrame))]
    public void SetupPubSubFrame() => Setup(Pattern.PubSub, NetMqApi.Frame);

    [GlobalSetup(Target = nameof(PubSubMsg))]
    public void SetupPubSubMsg() => Setup(Pattern.PubSub, NetMqApi.Msg);

    [GlobalCleanup]
    public void Cleanup()
    {
        _rig?.Dispose();
        _rig = null;
    }

    [Benchmark(OperationsPerInvoke = RigBenchmark.MessagesPerInvoke)]
    [BenchmarkCategory(Categories.PushPull)]
    public double PushPullFrame() => _rig!.RunTimedBatch(RigBenchmark.MessagesPerInvoke);

    [Benchmark(OperationsPerInvoke = RigBenchmark.MessagesPerInvoke)]
    [BenchmarkCategory(Categories.PushPull)]
    public double PushPullMsg() => _rig!.RunTimedBatch(RigBenchmark.MessagesPerInvoke);

    [Benchmark(OperationsPerInvoke = RigBenchmark.MessagesPerInvoke)]
    [BenchmarkCategory(Categories.PubSub)]
    public double PubSubFrame() => _rig!.RunTimedBatch(RigBenchmark.MessagesPerInvoke);

    [Benchmark(OperationsPerInvoke = RigBenchmark.MessagesPerInvoke)]
    [BenchmarkCategory(Categories.PubSub)]
    public double PubSubMsg() => _rig!.RunTimedBatch(RigBenchmark.MessagesPerInvoke);

    private void Setup(Pattern pattern, NetMqApi api)
    {
        _rig = new NetMqStreamRig(pattern, Transport, MessageSize, api, TransferRig.DefaultTimeout);
        _rig.WarmUp();
    }
}
