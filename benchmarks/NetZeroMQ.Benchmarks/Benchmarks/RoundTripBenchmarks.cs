using System;
using BenchmarkDotNet.Attributes;
using NetZeroMQ.Benchmarks.Transfer;
using NetZeroMQ.Benchmarks.Transfer.RoundTrip;

// Benchmark classes live in the root namespace so that their published names stay short: NetZeroMQ.Benchmarks.<Class>.<Method>.
namespace NetZeroMQ.Benchmarks;

/// <summary>
/// Round trips (ping-pong) of 64 B: REQ/REP and DEALER/ROUTER over each transport, 2 methods x 3 transports = 6 cases. One
/// operation is one round trip (1,000 per invocation), so Mean is the mean round-trip time; the server echoes on its own
/// thread over the span path. BenchmarkDotNet times invocations, not single round trips: the p50 and p99 of single round
/// trips come from --native --latency and --netmq --latency.
/// </summary>
[BenchmarkCategory(Categories.RoundTrip)]
public class RoundTripBenchmarks
{
    public const int RoundTripsPerInvoke = 1_000;

    private RoundTripRig? _rig;

    [Params(Transport.Inproc, Transport.Ipc, Transport.Tcp)]
    public Transport Transport { get; set; }

    [GlobalSetup(Target = nameof(ReqRep))]
    public void SetupReqRep() => Setup(RoundTripPattern.ReqRep);

    [GlobalSetup(Target = nameof(DealerRouter))]
    public void SetupDealerRouter() => Setup(RoundTripPattern.DealerRouter);

    [GlobalCleanup]
    public void Cleanup()
    {
        _rig?.Stop(TransferRig.DefaultTimeout);
        _rig?.Dispose();
        _rig = null;
    }

    [Benchmark(OperationsPerInvoke = RoundTripsPerInvoke)]
    [BenchmarkCategory(Categories.ReqRep)]
    public void ReqRep() => _rig!.Run(RoundTripsPerInvoke);

    [Benchmark(OperationsPerInvoke = RoundTripsPerInvoke)]
    [BenchmarkCategory(Categories.DealerRouter)]
    public void DealerRouter() => _rig!.Run(RoundTripsPerInvoke);

    private void Setup(RoundTripPattern pattern)
    {
        _rig = new NetZeroMqRoundTrip(pattern, Transport, 64, TransferRig.DefaultTimeout);
        _rig.Run(1); // the connection is up before the first measured invocation
    }
}
