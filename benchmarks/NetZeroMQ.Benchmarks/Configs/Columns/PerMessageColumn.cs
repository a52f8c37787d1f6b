using System.Globalization;
using System.Linq;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace NetZeroMQ.Benchmarks.Configs.Columns;

/// <summary>
/// A column computed from the mean time per operation. Every throughput benchmark sets OperationsPerInvoke to its batch size,
/// so one operation is one message and BenchmarkDotNet's mean is already the mean time per message.
/// </summary>
public abstract class PerMessageColumn : IColumn
{
    public abstract string Id { get; }

    public abstract string ColumnName { get; }

    public abstract string Legend { get; }

    public bool AlwaysShow => true;

    public ColumnCategory Category => ColumnCategory.Custom;

    public int PriorityInCategory => 0;

    public bool IsNumeric => true;

    public UnitType UnitType => UnitType.Dimensionless;

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, summary.Style);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style)
    {
        double? meanNs = summary[benchmarkCase]?.ResultStatistics?.Mean;
        if (meanNs is not > 0)
        {
            return "NA";
        }

        return Format(meanNs.Value, MessageSize(benchmarkCase)) ?? "-";
    }

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    public bool IsAvailable(Summary summary) => true;

    public override string ToString() => ColumnName;

    /// <summary>The value to show, or null where it does not apply.</summary>
    protected abstract string? Format(double meanNanosecondsPerMessage, int? messageSize);

    protected static string Number(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);

    private static int? MessageSize(BenchmarkCase benchmarkCase) =>
        benchmarkCase.Parameters.Items.FirstOrDefault(p => p.Name == "MessageSize")?.Value is int size ? size : null;
}
