namespace NetZeroMQ.Benchmarks.Configs.Columns;

/// <summary>Messages per second: 10^9 / mean ns per message.</summary>
public sealed class MessagesPerSecondColumn : PerMessageColumn
{
    public override string Id => "NetZeroMQ.MessagesPerSecond";

    public override string ColumnName => "msg/s";

    public override string Legend => "Messages per second, 1e9 / Mean (ns per message)";

    protected override string? Format(double meanNanosecondsPerMessage, int? messageSize) =>
        Number(1e9 / meanNanosecondsPerMessage, "N0");
}
