using System;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>Converts between <see cref="TimeSpan"/> and libzmq's millisecond integers, where -1 means infinite.</summary>
    internal static class Milliseconds
    {
        internal const int Infinite = -1;

        internal static TimeSpan ToTimeSpan(int milliseconds) =>
            milliseconds < 0 ? Timeout.InfiniteTimeSpan : TimeSpan.FromMilliseconds(milliseconds);

        /// <param name="value">The value.</param>
        /// <param name="paramName">The parameter that carried it.</param>
        /// <param name="socketOption">The socket option that takes the value, for the message, or null.</param>
        internal static int FromTimeSpan(TimeSpan value, string paramName, string? socketOption = null)
        {
            if (value == Timeout.InfiniteTimeSpan)
            {
                return Infinite;
            }

            // Checked on the TimeSpan, not on the rounded milliseconds: a negative value shorter than a millisecond rounds up to
            // zero, and a wait of -1 tick must be refused like any other negative one.
            double ms = Math.Ceiling(value.TotalMilliseconds);
            if (value < TimeSpan.Zero || ms > int.MaxValue)
            {
                throw new ArgumentOutOfRangeException(
                    paramName,
                    value,
                    (socketOption is null ? "The value" : "Socket option " + socketOption) + " must be Timeout.InfiniteTimeSpan or between 0 and int.MaxValue milliseconds.");
            }

            return (int)ms;
        }
    }
}
