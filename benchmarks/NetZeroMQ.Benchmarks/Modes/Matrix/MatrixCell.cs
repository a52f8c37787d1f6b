using System;
using System.Collections.Generic;
using System.Linq;

namespace NetZeroMQ.Benchmarks.Modes.Matrix;

/// <summary>
/// One cell of the matrix (pattern, transport, size) as measured: each side's msg/s per round (null where that run failed), the
/// managed bytes per message of the .NET and NetMQ sides, or why the cell or its NetMQ side did not run. Everything shown
/// or drawn is computed from these fields, so nothing appears that the run did not measure. Serialised as the results file.
/// </summary>
public sealed class MatrixCell
{
    public string Pattern { get; set; } = "";

    public string Transport { get; set; } = "";

    public int Size { get; set; }

    /// <summary>Messages per run, the same for every side (from a native pilot run, or --count).</summary>
    public int Count { get; set; }

    /// <summary>Why the whole cell did not run (pilot failed, not selected); null when it ran.</summary>
    public string? NotRun { get; set; }

    public List<double?> Native { get; set; } = new();

    public List<double?> Dotnet { get; set; } = new();

    /// <summary>NetMQ msg/s per round; empty when NetMQ did not run (see <see cref="NetMqNotRun"/>).</summary>
    public List<double?> NetMq { get; set; } = new();

    /// <summary>Why NetMQ has no number in this cell (it has no such pattern or transport, or it was not asked for).</summary>
    public string? NetMqNotRun { get; set; }

    public List<double?> DotnetBytesPerMessage { get; set; } = new();

    public List<double?> NetMqBytesPerMessage { get; set; } = new();

    /// <summary>How long the cell took (pilot and rounds), in seconds; null in results files from before it was recorded.</summary>
    public double? Seconds { get; set; }

    /// <summary>The CPUs other work kept busy on average while the cell ran (<see cref="Reporting.OtherWork"/>); null when unknown.</summary>
    public double? OtherCpus { get; set; }

    /// <summary>Why the cell's ratio is unreliable (<see cref="Reporting.Reliability"/>), or null when it is reliable or was not measured.</summary>
    /// <param name="results">The run, whose other work over the whole run stands in when the cell has no figure of its own.</param>
    public string? Unreliable(MatrixResults results) =>
        Achievement() is null ? null : Reporting.Reliability.Problem(Variation(), OtherCpus ?? results.OtherCpus);

    /// <summary>.NET / native of each round where both ran.</summary>
    public IReadOnlyList<double> Ratios() => Paired(Dotnet, Native);

    /// <summary>.NET / NetMQ of each round where both ran.</summary>
    public IReadOnlyList<double> NetMqRatios() => Paired(Dotnet, NetMq);

    /// <summary>The median achievement ratio, or null when no round has both sides.</summary>
    public double? Achievement() => Median(Ratios());

    /// <summary>Coefficient of variation of the per-round ratios (sample standard deviation / mean); null under two rounds.</summary>
    public double? Variation() => CoefficientOfVariation(Ratios());

    /// <summary>Why there is no ratio: the cell's own reason, or that every round failed on a side.</summary>
    public string? Missing() => NotRun ?? (Ratios().Count == 0 ? "every round failed on a side (messages above)" : null);

    public static double? Median(IEnumerable<double?> values) => Median(values.Where(v => v is not null).Select(v => v!.Value).ToList());

    public static double? Median(IReadOnlyCollection<double> values) => values.Count == 0 ? null : Stats.Of(values).Median;

    public static double? CoefficientOfVariation(IReadOnlyList<double> values)
    {
        if (values.Count < 2)
        {
            return null;
        }

        double mean = values.Average();
        double variance = values.Sum(v => (v - mean) * (v - mean)) / (values.Count - 1);
        return mean > 0 ? Math.Sqrt(variance) / mean : null;
    }

    private static List<double> Paired(List<double?> numerator, List<double?> denominator) =>
        numerator.Zip(denominator, (a, b) => a is > 0 && b is > 0 ? a.Value / b.Value : (double?)null)
            .Where(r => r is not null).Select(r => r!.Value).ToList();
}

/// <summary>The results file: how the matrix was run and every cell.</summary>
public sealed class MatrixResults
{
    public string Started { get; set; } = "";

    public string Finished { get; set; } = "";

    /// <summary>The tool's command line that produced this file.</summary>
    public string Command { get; set; } = "";

    public string Api { get; set; } = "";

    public int Rounds { get; set; }

    public double Seconds { get; set; }

    public double WarmupSeconds { get; set; }

    public bool Pinned { get; set; }

    public int Cpus { get; set; }

    public string LoadAtStart { get; set; } = "";

    public string LoadAtEnd { get; set; } = "";

    public List<MatrixCell> Cells { get; set; } = new();

    /// <summary>The CPUs other work kept busy on average over the whole run (<see cref="Reporting.OtherWork"/>); null when unknown.</summary>
    public double? OtherCpus { get; set; }
}
