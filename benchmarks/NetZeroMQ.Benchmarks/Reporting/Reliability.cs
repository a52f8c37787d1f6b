using System.Collections.Generic;
using System.Globalization;

namespace NetZeroMQ.Benchmarks.Reporting;

/// <summary>
/// When a measured ratio can be trusted. A ratio is unreliable when
/// 1. the machine was busy: the 1-minute load average per CPU, the highest seen before, during or after the measurement,
///    above <see cref="MaxLoadPerCpu"/> (more runnable threads than CPUs: the two sides competed with other work, unevenly);
/// 2. the rounds disagree: the coefficient of variation of the per-round ratios above <see cref="MaxVariation"/>;
/// 3. or its spread is unknown: fewer than two rounds measured both sides.
/// Means and the list of cells below the bar count reliable ratios only, and say how many were left out.
/// The thresholds are documented in the benchmark README ("Reading a run").
/// </summary>
public static class Reliability
{
    /// <summary>1-minute load average per CPU above which a measurement is unreliable.</summary>
    public const double MaxLoadPerCpu = 1.0;

    /// <summary>Coefficient of variation of the per-round ratios above which a ratio is unreliable.</summary>
    public const double MaxVariation = 0.10;

    private static readonly CultureInfo s_invariant = CultureInfo.InvariantCulture;

    /// <summary>Why a ratio is unreliable ("load 8.5/CPU > 1.0, cv 14% > 10%"), or null when it is reliable.</summary>
    /// <param name="variation">Coefficient of variation of the per-round ratios; null when fewer than two rounds.</param>
    /// <param name="loadPerCpu">The highest 1-minute load average per CPU seen; null when unknown (not Linux).</param>
    public static string? Problem(double? variation, double? loadPerCpu)
    {
        var reasons = new List<string>();
        if (loadPerCpu > MaxLoadPerCpu)
        {
            reasons.Add($"load {loadPerCpu.Value.ToString("F1", s_invariant)}/CPU > {MaxLoadPerCpu.ToString("F1", s_invariant)}");
        }

        if (variation is null)
        {
            reasons.Add("under 2 rounds: spread unknown");
        }
        else if (variation > MaxVariation)
        {
            reasons.Add($"cv {Percent(variation.Value)} > {Percent(MaxVariation)}");
        }

        return reasons.Count == 0 ? null : string.Join(", ", reasons);
    }

    /// <summary>The rule in one line, for headers and summaries.</summary>
    public static string Rule =>
        $"a ratio is unreliable when the load average per CPU exceeds {MaxLoadPerCpu.ToString("F1", s_invariant)} or the rounds' coefficient of variation exceeds {Percent(MaxVariation)}";

    public static string Percent(double value) => (value * 100).ToString("F0", s_invariant) + "%";
}
