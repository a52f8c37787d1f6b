using BenchmarkDotNet.Attributes;
using NetZeroMQ.Benchmarks.Transfer;

// Benchmark classes live in the root namespace so that their published names stay short: NetZeroMQ.Benchmarks.<Class>.<Method>.
namespace NetZeroMQ.Benchmarks;

/// <summary>
/// Streaming throughput of each pattern over tcp (loopback): 3 patterns x 3 sizes x 3 receive modes = 27 cases. Sends block;
/// the receiver reads into a reused array larger than the message (truncation and sizes checked). The other transports are
/// measured for PushPull in <see cref="PushPullTransportBenchmarks"/>.
/// </summary>
[BenchmarkCategory(Categories.Throughput)]
public class ThroughputBenchmarks : RigBenchmark
{
    public const Transport MeasuredTransport = Transport.Tcp;

    [Params(64, 1024, 65536)]
    public int MessageSize { get; set; }

    [Params(ReceiveMode.Blocking, ReceiveMode.NonBlocking, ReceiveMode.Poller)]
    public ReceiveMode Mode { get; set; }

    [GlobalSetup(Target = nameof(PushPull))]
    public void SetupPushPull() => Setup(new RigOptions(Pattern.PushPull, MeasuredTransport, MessageSize, Mode));

    [GlobalSetup(Target = nameof(PubSub))]
    public void SetupPubSub() => Setup(new RigOptions(Pattern.PubSub, MeasuredTransport, MessageSize, Mode));

    [GlobalSetup(Target = nameof(RouterRouter))]
    public void SetupRouterRouter() => Setup(new RigOptions(Pattern.RouterRouter, MeasuredTransport, MessageSize, Mode));

    [Benchmark(OperationsPerInvoke = MessagesPerInvoke)]
    [BenchmarkCategory(Categories.PushPull)]
    public long PushPull() => RunBatch();

    [Benchmark(OperationsPerInvoke = MessagesPerInvoke)]
    [BenchmarkCategory(Categories.PubSub)]
    public long PubSub() => RunBatch();

    [Benchmark(OperationsPerInvoke = MessagesPerInvoke)]
    [BenchmarkCategory(Categories.RouterRouter)]
    public long RouterRouter() => RunBatch();
}
