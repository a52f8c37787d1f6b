using BenchmarkDotNet.Attributes;
using NetZeroMQ.Benchmarks.Transfer;

// Benchmark classes live in the root namespace so that their published names stay short: NetZeroMQ.Benchmarks.<Class>.<Method>.
namespace NetZeroMQ.Benchmarks;

/// <summary>
/// Base of every streaming benchmark: sockets and the long-lived sender thread are made once per case in [GlobalSetup] (the
/// derived class's targeted setups call <see cref="Setup"/>); one operation is one message, 10,000 per invocation.
/// </summary>
public abstract class RigBenchmark
{
    /// <summary>Messages per benchmark invocation (OperationsPerInvoke), so every time and allocation reads per message.</summary>
    public const int MessagesPerInvoke = 10_000;

    private TransferRig? _rig;

    [GlobalCleanup]
    public void Cleanup()
    {
        _rig?.Dispose();
        _rig = null;
    }

    protected void Setup(RigOptions options)
    {
        _rig = new TransferRig(options);
        _rig.WarmUp();
    }

    /// <summary>One invocation: the sender thread sends the batch, this thread receives and checks it; returns payload bytes.</summary>
    protected long RunBatch() => _rig!.RunBatch(MessagesPerInvoke);
}
