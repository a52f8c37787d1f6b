namespace NetZeroMQ.Benchmarks.Configs.Columns;

/// <summary>Mean time per message under load, in ns: the inverse of throughput, not a one-way or round-trip latency.</summary>
public sealed class LatencyColumn : PerMessageColumn
{
    public override string Id => "NetZeroMQ.Latency";

    public override string ColumnName => "Latency";

    public override string Legend => "Mean time per message while streaming (= Mean; 1 / throughput), not a round-trip time";

    protected override string? Format(double meanNanosecondsPerMessage, int? messageSize) =>
        Number(meanNanosecondsPerMessage, "N1") + " ns";
}
