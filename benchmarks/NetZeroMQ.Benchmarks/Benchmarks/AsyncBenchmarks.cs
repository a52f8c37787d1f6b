using BenchmarkDotNet.Attributes;
using NetZeroMQ.Benchmarks.Transfer;

// Benchmark classes live in the root namespace so that their published names stay short: NetZeroMQ.Benchmarks.<Class>.<Method>.
namespace NetZeroMQ.Benchmarks;

/// <summary>
/// The async receive loop against the blocking one, PushPull 64 B with a reused Message, over inproc and tcp: 2 methods x 2
/// transports = 4 cases. The async loop awaits RecvAsync for every frame; waits go through the reactor (epoll on Linux;
/// the portable zmq_poll one with NETZEROMQ_BENCH_PORTABLE_REACTOR=1).
/// </summary>
[BenchmarkCategory(Categories.Async, Categories.PushPull)]
public class AsyncBenchmarks : RigBenchmark
{
    [Params(Transport.Inproc, Transport.Tcp)]
    public Transport Transport { get; set; }

    [GlobalSetup(Target = nameof(BlockingLoop))]
    public void SetupBlocking() => Setup(new RigOptions(Pattern.PushPull, Transport, 64, ReceiveMode.Blocking, BufferStrategy.Message));

    [GlobalSetup(Target = nameof(AsyncLoop))]
    public void SetupAsync() => Setup(new RigOptions(Pattern.PushPull, Transport, 64, ReceiveMode.Async, BufferStrategy.Message));

    /// <summary>Recv(Message) blocking, for every frame.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = MessagesPerInvoke)]
    public long BlockingLoop() => RunBatch();

    /// <summary>await RecvAsync(Message), for every frame.</summary>
    [Benchmark(OperationsPerInvoke = MessagesPerInvoke)]
    public long AsyncLoop() => RunBatch();
}
