using BenchmarkDotNet.Attributes;
using NetZeroMQ.Benchmarks.Transfer;

// Benchmark classes live in the root namespace so that their published names stay short: NetZeroMQ.Benchmarks.<Class>.<Method>.
namespace NetZeroMQ.Benchmarks;

/// <summary>
/// PushPull over each transport, blocking receive: 3 transports x 3 sizes = 9 cases. Kept apart from
/// <see cref="ThroughputBenchmarks"/> so that its 27 names stay stable and the suite does not grow to 81 cases; the tcp row here
/// is the same measurement as ThroughputBenchmarks.PushPull(Blocking) and doubles as a run-to-run consistency check.
/// </summary>
[BenchmarkCategory(Categories.Transport, Categories.PushPull)]
public class PushPullTransportBenchmarks : RigBenchmark
{
    [Params(Transport.Inproc, Transport.Ipc, Transport.Tcp)]
    public Transport Transport { get; set; }

    [Params(64, 1024, 65536)]
    public int MessageSize { get; set; }

    [GlobalSetup]
    public void SetupPushPull() => Setup(new RigOptions(Pattern.PushPull, Transport, MessageSize, ReceiveMode.Blocking));

    [Benchmark(OperationsPerInvoke = MessagesPerInvoke)]
    public long PushPull() => RunBatch();
}
