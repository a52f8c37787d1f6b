namespace NetZeroMQ.Benchmarks.Configs.Columns;

/// <summary>Payload megabytes per second (decimal MB, payload bytes only, routing-id frames not counted), like the native program.</summary>
public sealed class MegabytesPerSecondColumn : PerMessageColumn
{
    public override string Id => "NetZeroMQ.MegabytesPerSecond";

    public override string ColumnName => "MB/s";

    public override string Legend => "Payload MB per second (10^6 bytes; routing-id frames not counted), msg/s * MessageSize / 1e6";

    protected override string? Format(double meanNanosecondsPerMessage, int? messageSize) =>
        messageSize is int size ? Number(1e9 / meanNanosecondsPerMessage * size / 1e6, "N1") : null;
}
