using BenchmarkDotNet.Attributes;
using NetZeroMQ.Benchmarks.Transfer;

// Benchmark classes live in the root namespace so that their published names stay short: NetZeroMQ.Benchmarks.<Class>.<Method>.
namespace NetZeroMQ.Benchmarks;

/// <summary>
/// What the way payload bytes are held costs, PushPull over inproc (no network, so the binding's own cost is what differs),
/// blocking receive: 4 strategies x 6 sizes = 24 cases. The copying strategies copy the same prepared payload into their
/// buffer before sending; MessageZeroCopy sends the prepared payload itself, which is the point of zero-copy.
/// </summary>
[BenchmarkCategory(Categories.BufferStrategy, Categories.PushPull)]
public class MessageBufferStrategyBenchmarks : RigBenchmark
{
    public const Transport MeasuredTransport = Transport.Inproc;

    [Params(64, 512, 1024, 65536, 131072, 262144)]
    public int MessageSize { get; set; }

    [GlobalSetup(Target = nameof(ByteArray))]
    public void SetupByteArray() => Setup(Options(BufferStrategy.ByteArray));

    [GlobalSetup(Target = nameof(ArrayPool))]
    public void SetupArrayPool() => Setup(Options(BufferStrategy.ArrayPool));

    [GlobalSetup(Target = nameof(Message))]
    public void SetupMessage() => Setup(Options(BufferStrategy.Message));

    [GlobalSetup(Target = nameof(MessageZeroCopy))]
    public void SetupMessageZeroCopy() => Setup(Options(BufferStrategy.MessageZeroCopy));

    /// <summary>new byte[] per message sent, RecvBytes (a new array) per message received.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = MessagesPerInvoke)]
    public long ByteArray() => RunBatch();

    /// <summary>ArrayPool rent/copy/send(span)/return; receive into a rented buffer, then return it.</summary>
    [Benchmark(OperationsPerInvoke = MessagesPerInvoke)]
    public long ArrayPool() => RunBatch();

    /// <summary>One reused Message per side: Rebuild(payload) + Send(Message); Recv(Message).</summary>
    [Benchmark(OperationsPerInvoke = MessagesPerInvoke)]
    public long Message() => RunBatch();

    /// <summary>SendZeroCopy(ReadOnlyMemory) of the prepared payload (pinned, no copy); Recv(Message).</summary>
    [Benchmark(OperationsPerInvoke = MessagesPerInvoke)]
    public long MessageZeroCopy() => RunBatch();

    private RigOptions Options(BufferStrategy strategy) =>
        new(Pattern.PushPull, MeasuredTransport, MessageSize, ReceiveMode.Blocking, strategy);
}
