using BenchmarkDotNet.Attributes;
using NetZeroMQ.Benchmarks.Transfer;

// Benchmark classes live in the root namespace so that their published names stay short: NetZeroMQ.Benchmarks.<Class>.<Method>.
namespace NetZeroMQ.Benchmarks;

/// <summary>
/// How the receiving thread waits, PushPull 64 B over inproc and tcp: 5 modes x 2 transports = 10 cases, PureBlocking the
/// baseline. NonBlocking yields (sched_yield) when empty; NonBlockingSpin never yields and is here to show what that costs on
/// 2 cores, where a spinning receiver competes with the sender and libzmq's I/O thread.
/// </summary>
[BenchmarkCategory(Categories.ReceiveMode, Categories.PushPull)]
public class ReceiveModeBenchmarks : RigBenchmark
{
    [Params(Transport.Inproc, Transport.Tcp)]
    public Transport Transport { get; set; }

    [Params(64)]
    public int MessageSize { get; set; }

    [GlobalSetup(Target = nameof(PureBlocking))]
    public void SetupPureBlocking() => Setup(Options(ReceiveMode.Blocking));

    [GlobalSetup(Target = nameof(BlockingBatch))]
    public void SetupBlockingBatch() => Setup(Options(ReceiveMode.BlockingBatch));

    [GlobalSetup(Target = nameof(NonBlocking))]
    public void SetupNonBlocking() => Setup(Options(ReceiveMode.NonBlocking));

    [GlobalSetup(Target = nameof(NonBlockingSpin))]
    public void SetupNonBlockingSpin() => Setup(Options(ReceiveMode.NonBlockingSpin));

    [GlobalSetup(Target = nameof(Poller))]
    public void SetupPoller() => Setup(Options(ReceiveMode.Poller));

    [Benchmark(Baseline = true, OperationsPerInvoke = MessagesPerInvoke)]
    public long PureBlocking() => RunBatch();

    [Benchmark(OperationsPerInvoke = MessagesPerInvoke)]
    public long BlockingBatch() => RunBatch();

    [Benchmark(OperationsPerInvoke = MessagesPerInvoke)]
    public long NonBlocking() => RunBatch();

    [Benchmark(OperationsPerInvoke = MessagesPerInvoke)]
    public long NonBlockingSpin() => RunBatch();

    [Benchmark(OperationsPerInvoke = MessagesPerInvoke)]
    public long Poller() => RunBatch();

    private RigOptions Options(ReceiveMode mode) => new(Pattern.PushPull, Transport, MessageSize, mode);
}
