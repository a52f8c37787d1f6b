using System;
using System.Diagnostics;

namespace NetZeroMQ.Benchmarks.Reporting;

/// <summary>Percentiles of sorted Stopwatch tick samples, as the C programs compute theirs, so the two sides compare.</summary>
internal static class TickPercentile
{
    /// <summary>Nearest rank: the smallest sample with at least <paramref name="percent"/>% of the samples at or below it, in µs.</summary>
    public static double Microseconds(long[] sorted, int percent)
    {
        long rank = ((long)sorted.Length * percent + 99) / 100;
        return sorted[Math.Max(0, rank - 1)] * 1e6 / Stopwatch.Frequency;
    }
}
