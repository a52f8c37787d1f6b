using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace NetZeroMQ
{
    /// <summary>
    /// The end of a bounded wait. Every wait in the library that gives up after a time (blocking and timed sends and receives,
    /// polls, monitor reads, retries while libzmq's reaper catches up) counts down on one of these rather than doing its own
    /// elapsed-time arithmetic. It runs on the monotonic <see cref="Stopwatch"/> clock, so a change of the wall clock cannot
    /// stretch or cut a wait. As in libzmq, -1 milliseconds means no limit.
    /// </summary>
    /// <remarks>
    /// A deadline is made where the wait begins (after the first, non-blocking attempt), never on a fast path: reading the clock
    /// costs more than a send that does not wait.
    /// </remarks>
    internal readonly struct Deadline
    {
        private static readonly double s_millisecondsPerTick = 1000.0 / Stopwatch.Frequency;

        private readonly long _start;
        private readonly int _timeoutMs;

        private Deadline(long start, int timeoutMs)
        {
            _start = start;
            _timeoutMs = timeoutMs;
        }

        /// <summary>A deadline that never passes.</summary>
        internal static Deadline Infinite => new Deadline(0, Milliseconds.Infinite);

        /// <summary>Whether this deadline never passes.</summary>
        internal bool IsInfinite => _timeoutMs < 0;

        /// <summary>Whether the time is up (never for an infinite deadline; at once for a zero timeout).</summary>
        internal bool IsExpired => RemainingMilliseconds == 0;

        /// <summary>Milliseconds left: -1 for an infinite deadline, 0 once it has passed.</summary>
        internal int RemainingMilliseconds
        {
            get
            {
                if (_timeoutMs <= 0)
                {
                    return _timeoutMs < 0 ? Milliseconds.Infinite : 0;
                }

                // Elapsed time is rounded down, so a wait never ends before its timeout has fully passed.
                long elapsedMs = (long)((Stopwatch.GetTimestamp() - _start) * s_millisecondsPerTick);
                long left = _timeoutMs - elapsedMs;
                return left <= 0 ? 0 : (int)left;
            }
        }

        /// <summary>A deadline <paramref name="timeoutMilliseconds"/> from now (-1: none, 0: already passed).</summary>
        /// <param name="timeoutMilliseconds">The timeout; -1 or more (callers validate user input before).</param>
        [MethodImpl(MethodImplOptions.AggressiveInlining)] // on every wait of a blocking call: as a call it would not fit the instruction budgets (benchmarks/instructions/budgets.txt)
        internal static Deadline After(int timeoutMilliseconds)
        {
            Debug.Assert(timeoutMilliseconds >= Milliseconds.Infinite, "callers validate timeouts before any wait begins");
            return timeoutMilliseconds <= 0 ? new Deadline(0, timeoutMilliseconds) : new Deadline(Stopwatch.GetTimestamp(), timeoutMilliseconds);
        }

        /// <summary>A deadline <paramref name="timeout"/> from now (<see cref="System.Threading.Timeout.InfiniteTimeSpan"/>: none).</summary>
        /// <param name="timeout">The timeout.</param>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or longer
        /// than <see cref="int.MaxValue"/> milliseconds.</exception>
        internal static Deadline After(TimeSpan timeout) => After(Milliseconds.FromTimeSpan(timeout, nameof(timeout)));

        /// <summary>
        /// The milliseconds to wait next when one wait may last at most <paramref name="maxSliceMilliseconds"/> (a wait that must
        /// look up now and then, for a Dispose it cannot be woken for): the time left, but no more than the slice, also when
        /// there is no limit.
        /// </summary>
        /// <param name="maxSliceMilliseconds">The longest single wait; positive.</param>
        internal int SliceMilliseconds(int maxSliceMilliseconds)
        {
            Debug.Assert(maxSliceMilliseconds > 0, "a slice is positive");
            int left = RemainingMilliseconds;
            return left < 0 || left > maxSliceMilliseconds ? maxSliceMilliseconds : left;
        }
    }
}
