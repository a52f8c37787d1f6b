using System.Collections.Generic;
using System.Linq;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>Median and spread ((max - min) / median) of a few repeated measurements.</summary>
public readonly record struct Stats(double Median, double Min, double Max)
{
    public double Spread => Median > 0 ? (Max - Min) / Median : 0;

    public static Stats Of(IReadOnlyCollection<double> values)
    {
        double[] sorted = values.OrderBy(v => v).ToArray();
        int n = sorted.Length;
        double median = n == 0 ? 0 : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return new Stats(median, n == 0 ? 0 : sorted[0], n == 0 ? 0 : sorted[^1]);
    }
}
