using BenchmarkDotNet.Attributes;
using NetZeroMQ.Benchmarks.Transfer;

// Benchmark classes live in the root namespace so that their published names stay short: NetZeroMQ.Benchmarks.<Class>.<Method>.
namespace NetZeroMQ.Benchmarks;

/// <summary>
/// What the way payload bytes are held costs, PushPull over inproc (no network, so the binding's own cost is what differs),
/// blocking receive: 3 strategies x 6 sizes = 18 cases. Each strategy copies the same prepared payload into its buffer before
/// sending, so the strategies differ only in how the buffer is obtained and received into.
/// </summary>
/// <remarks>
/// TODO(zero-copy issue #3): add a MessageZeroCopy case once Message gains its zero-copy constructor. It is left out on purpose
/// until then: there is no API to measure, and a stand-in would publish a number for something that does not exist.
/// </remarks>
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

    /// <summary>new byte[] per message sent, RecvBytes (a new array) per message received.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = MessagesPerInvoke)]
    public long ByteArray() => RunBatch();

    /// <summary>ArrayPool rent/copy/send(span)/return; receive into a rented buffer, then return it.</summary>
    [Benchmark(OperationsPerInvoke = MessagesPerInvoke)]
    public long ArrayPool() => RunBatch();

    /// <summary>One reused Message per side: Rebuild(payload) + Send(Message); Recv(Message).</summary>
    [Benchmark(OperationsPerInvoke = MessagesPerInvoke)]
    public long Message() => RunBatch();

    private RigOptions Options(BufferStrategy strategy) =>
        new(Pattern.PushPull, MeasuredTransport, MessageSize, ReceiveMode.Blocking, strategy);
}
