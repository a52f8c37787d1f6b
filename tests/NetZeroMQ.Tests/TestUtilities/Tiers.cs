using System;
using System.Globalization;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// The two tiers of the reliability suite (docs/reliability.md). The fast tier runs with every <c>dotnet test</c> and keeps
    /// each case to seconds; the long tier is the same cases at the counts the issue asks for, plus the soak, marked
    /// <c>[Trait(Tiers.Category, Tiers.Long)]</c> and filtered out of the normal run (<c>./build.sh soak</c> runs it).
    /// </summary>
    public static class Tiers
    {
        public const string Category = "Category";

        public const string Long = "Long";

        /// <summary>How long the soak runs: NETZEROMQ_SOAK_MINUTES (fractions allowed), 10 minutes when unset.</summary>
        public static TimeSpan SoakDuration
        {
            get
            {
                string? text = Environment.GetEnvironmentVariable("NETZEROMQ_SOAK_MINUTES");
                return text is not null && double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out double minutes) && minutes > 0
                    ? TimeSpan.FromMinutes(minutes)
                    : TimeSpan.FromMinutes(10);
            }
        }
    }
}
