using System.Collections.Generic;
using System.Globalization;

namespace NetZeroMQ.Benchmarks.Reporting;

/// <summary>
/// When a measured ratio can be trusted. A ratio is unreliable when
/// 1. other work was busy: it kept more than <see cref="MaxOtherCpus"/> CPUs busy on average while the ratio was measured
///    (<see cref="OtherWork"/>; the two sides then competed with it, unevenly). The load average is not the measure: it
///    counts the run's own threads;
/// 2. the rounds disagree: the coefficient of variation of the per-round ratios above <see cref="MaxVariation"/>;
/// 3. or its spread is unknown: fewer than two rounds measured both sides.
/// Means and the list of cells below the bar count reliable ratios only, and say how many were left out.
/// The thresholds are documented in the benchmark README ("Reading a run").
/// </summary>
public static class Reliability
{
    /// <summary>
    /// CPUs of other work (on average over the measurement) above which a measurement is unreliable: a fifth of a CPU, which on
    /// two CPUs takes a tenth of the machine, about the spread that <see cref="MaxVariation"/> allows.
    /// </summary>
    public const double MaxOtherCpus = 0.2;

    /// <summary>Coefficient of variation of the per-round ratios above which a ratio is unreliable.</summary>
    public const double MaxVariation = 0.10;

    private static readonly CultureInfo s_invariant = CultureInfo.InvariantCulture;

    /// <summary>Why a ratio is unreliable ("other work 1.70 CPUs > 0.20, cv 14% > 10%"), or null when it is reliable.</summary>
    /// <param name="variation">Coefficient of variation of the per-round ratios; null when fewer than two rounds.</param>
    /// <param name="otherCpus">CPUs other work kept busy while it was measured (<see cref="OtherWork"/>); null when unknown (not Linux).</param>
    public static string? Problem(double? variation, double? otherCpus)
    {
        var reasons = new List<string>();
        if (otherCpus > MaxOtherCpus)
        {
            reasons.Add($"{OtherWork.Describe(otherCpus)} > {MaxOtherCpus.ToString("F2", s_invariant)}");
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
        $"a ratio is unreliable when other work kept more than {MaxOtherCpus.ToString("F2", s_invariant)} CPUs busy while it was measured or the rounds' coefficient of variation exceeds {Percent(MaxVariation)}";

    public static string Percent(double value) => (value * 100).ToString("F0", s_invariant) + "%";
}
