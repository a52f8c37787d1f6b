using BenchmarkDotNet.Attributes;
using NetZeroMQ.Benchmarks.Transfer;

// Benchmark classes live in the root namespace so that their published names stay short: NetZeroMQ.Benchmarks.<Class>.<Method>.
namespace NetZeroMQ.Benchmarks;

/// <summary>
/// NetZeroMQ.Hosting's traced send with no listener on the <c>NetZeroMQ</c> activity source against the untraced send it wraps:
/// PUSH to PULL over inproc, 64 B one-frame multipart messages, sent and received on the benchmark thread (see
/// <see cref="TracedSendRig"/>). The two methods should not differ (one listener check; no frame, no allocation).
/// </summary>
[BenchmarkCategory(Categories.Tracing, Categories.PushPull)]
public class TracingBenchmarks
{
    private const int MessagesPerInvoke = 10_000;

    private TracedSendRig? _rig;

    [GlobalSetup]
    public void Setup() => _rig = new TracedSendRig();

    [GlobalCleanup]
    public void Cleanup() => _rig?.Dispose();

    /// <summary>SendMultipartAsync, then RecvMultipart.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = MessagesPerInvoke)]
    public long UntracedSend() => _rig!.Run(MessagesPerInvoke, traced: false);

    /// <summary>SendTracedAsync with no listener, then RecvMultipart.</summary>
    [Benchmark(OperationsPerInvoke = MessagesPerInvoke)]
    public long TracedSendNoListener() => _rig!.Run(MessagesPerInvoke, traced: true);
}
