using BenchmarkDotNet.Attributes;
using NetZeroMQ.Benchmarks.Transfer;

// Benchmark classes live in the root namespace so that their published names stay short: NetZeroMQ.Benchmarks.<Class>.<Method>.
namespace NetZeroMQ.Benchmarks;

/// <summary>
/// Where zero-copy starts to pay: a copying span send (libzmq copies the payload into its message) against a zero-copy send
/// of the same prepared payload (pinned, handed to libzmq, released through the pooled slot table), PushPull with a reused
/// Message on the receiving side, over inproc and tcp: 2 methods x 5 sizes x 2 transports = 20 cases.
/// </summary>
[BenchmarkCategory(Categories.ZeroCopy, Categories.PushPull)]
public class ZeroCopyBenchmarks : RigBenchmark
{
    [Params(Transport.Inproc, Transport.Tcp)]
    public Transport Transport { get; set; }

    [Params(64, 1024, 8192, 65536, 262144)]
    public int MessageSize { get; set; }

    [GlobalSetup(Target = nameof(Copy))]
    public void SetupCopy() => Setup(new RigOptions(Pattern.PushPull, Transport, MessageSize, ReceiveMode.Blocking, BufferStrategy.Message));

    [GlobalSetup(Target = nameof(ZeroCopy))]
    public void SetupZeroCopy() =>
        Setup(new RigOptions(Pattern.PushPull, Transport, MessageSize, ReceiveMode.Blocking, BufferStrategy.MessageZeroCopy));

    /// <summary>Rebuild(payload) + Send(Message): one copy into libzmq's message, as a binding must for memory it does not own.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = MessagesPerInvoke)]
    public long Copy() => RunBatch();

    /// <summary>SendZeroCopy(ReadOnlyMemory): no copy; pin, slot, release callback.</summary>
    [Benchmark(OperationsPerInvoke = MessagesPerInvoke)]
    public long ZeroCopy() => RunBatch();
}
