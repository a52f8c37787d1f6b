using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;

namespace NetZeroMQ.Tests.Reliability
{
    /// <summary>Percentiles and least-squares slopes for the measurements the reliability tests assert on.</summary>
    internal static class Stats
    {
        /// <summary>The <paramref name="p"/>-th percentile (0-100, nearest rank) of <paramref name="values"/>.</summary>
        internal static double Percentile(IReadOnlyCollection<double> values, double p)
        {
            double[] sorted = values.OrderBy(v => v).ToArray();
            int rank = (int)Math.Ceiling(p / 100.0 * sorted.Length);
            return sorted[Math.Clamp(rank - 1, 0, sorted.Length - 1)];
        }

        /// <summary>Slope of the least-squares line through (x, y), in y units per x unit.</summary>
        internal static double Slope(IReadOnlyList<(double X, double Y)> points)
        {
            double meanX = points.Average(p => p.X);
            double meanY = points.Average(p => p.Y);
            double num = 0, den = 0;
            foreach ((double x, double y) in points)
            {
                num += (x - meanX) * (y - meanY);
                den += (x - meanX) * (x - meanX);
            }

            return den == 0 ? 0 : num / den;
        }

        internal static string Describe(IReadOnlyCollection<double> ms) => string.Format(
            CultureInfo.InvariantCulture,
            "n={0} min={1:F2} median={2:F2} p95={3:F2} max={4:F2} ms",
            ms.Count,
            ms.Min(),
            Percentile(ms, 50),
            Percentile(ms, 95),
            ms.Max());
    }
}
