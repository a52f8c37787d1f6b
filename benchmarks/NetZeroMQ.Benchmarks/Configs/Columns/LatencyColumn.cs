namespace NetZeroMQ.Benchmarks.Configs.Columns;

/// <summary>
/// Mean time per operation in ns: while streaming, the inverse of throughput, not a one-way or round-trip latency (in
/// RoundTripBenchmarks an operation is a round trip). Named "Latency" until the round-trip benchmarks existed; the class keeps
/// its name, the column says what it is.
/// </summary>
public sealed class LatencyColumn : PerMessageColumn
{
    public override string Id => "NetZeroMQ.Latency";

    public override string ColumnName => "Time/op";

    public override string Legend => "Mean time per operation (= Mean): per message while streaming, i.e. 1 / throughput, not a latency; per round trip in RoundTripBenchmarks";

    protected override string? Format(double meanNanosecondsPerMessage, int? messageSize) =>
        Number(meanNanosecondsPerMessage, "N1") + " ns";
}
