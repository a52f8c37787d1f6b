using System;
using System.Globalization;

namespace NetZeroMQ
{
    /// <summary>
    /// The values an option may take, beyond its type: a range, an optional special value outside it (usually -1 for
    /// "infinite" or "OS default"), a step, or a list of allowed values; for string and binary options, a range of byte
    /// counts. One object per option, defined next to the option's key (<see cref="SocketOptions"/>,
    /// <see cref="ContextOptionLimits"/>), so that the check, the exception message and the documentation say the same thing.
    /// </summary>
    /// <remarks>
    /// The limits are what libzmq 4.3 can actually take: its own checks (which return EINVAL), plus values it accepts but then
    /// aborts on, misreads or cannot give back. <see cref="Reason"/> says which. NetZeroMQ enforces the second kind before
    /// the native call; values of the first kind still go to libzmq, whose refusal callers already handle.
    /// </remarks>
    internal sealed class OptionLimits
    {
        private readonly long[]? _allowed;

        private OptionLimits(
            long min, long max, long? alsoAllowed, int step, long[]? allowed, string unit, string reason, long nativeFloor, long nativeCeiling)
        {
            NativeFloor = nativeFloor;
            NativeCeiling = nativeCeiling;
            Min = min;
            Max = max;
            AlsoAllowed = alsoAllowed;
            Step = step;
            _allowed = allowed;
            Unit = unit;
            Reason = reason;
        }

        /// <summary>The smallest value (or byte count) allowed.</summary>
        internal long Min { get; }

        /// <summary>The largest value (or byte count) allowed.</summary>
        internal long Max { get; }

        /// <summary>A value allowed outside <see cref="Min"/>..<see cref="Max"/>, such as -1 for "infinite".</summary>
        internal long? AlsoAllowed { get; }

        /// <summary>Values must be multiples of this (1 for any value).</summary>
        internal int Step { get; }

        /// <summary>" bytes" for length limits, " ms" for durations, empty otherwise.</summary>
        internal string Unit { get; }

        /// <summary>Why the limits are what they are (the libzmq or kernel behaviour behind them).</summary>
        internal string Reason { get; }

        /// <summary>
        /// Values below this are refused by libzmq itself (EINVAL, reported as <see cref="ZmqException"/> with
        /// <see cref="ZmqError.InvalidArgument"/> naming the option), so NetZeroMQ passes them through unchanged.
        /// </summary>
        internal long NativeFloor { get; }

        /// <summary>Values above this are refused by libzmq itself, as for <see cref="NativeFloor"/>.</summary>
        internal long NativeCeiling { get; }

        /// <summary>A range of values.</summary>
        internal static OptionLimits Range(
            long min, long max, string reason, long? alsoAllowed = null, long? nativeFloor = null, long nativeCeiling = long.MaxValue) =>
            new OptionLimits(min, max, alsoAllowed, 1, null, string.Empty, reason, nativeFloor ?? alsoAllowed ?? min, nativeCeiling);

        /// <summary>A range of milliseconds; <paramref name="infinite"/> allows -1 (<see cref="System.Threading.Timeout.InfiniteTimeSpan"/>).</summary>
        internal static OptionLimits Milliseconds(
            long min, long max, bool infinite, string reason, int step = 1, long nativeCeiling = long.MaxValue) =>
            new OptionLimits(min, max, infinite ? -1 : (long?)null, step, null, " ms", reason, infinite ? -1 : min, nativeCeiling);

        /// <summary>A list of allowed values; libzmq itself refuses values below <paramref name="nativeFloor"/>.</summary>
        internal static OptionLimits OneOf(long[] allowed, string reason, long nativeFloor) =>
            new OptionLimits(allowed[0], allowed[allowed.Length - 1], null, 1, allowed, string.Empty, reason, nativeFloor, long.MaxValue);

        /// <summary>A range of byte counts for a string (UTF-8) or binary option; libzmq itself refuses lengths outside
        /// <paramref name="nativeMin"/>..<paramref name="nativeMax"/>.</summary>
        internal static OptionLimits Length(int min, int max, string reason, int nativeMin, int nativeMax = int.MaxValue) =>
            new OptionLimits(min, max, null, 1, null, " bytes", reason, nativeMin, nativeMax);

        /// <summary>Whether libzmq refuses <paramref name="value"/> itself (EINVAL), so NetZeroMQ leaves it to libzmq.</summary>
        internal bool IsNativelyRefused(long value) => value < NativeFloor || value > NativeCeiling;

        /// <summary>Whether <paramref name="value"/> is allowed.</summary>
        internal bool Allows(long value)
        {
            if (AlsoAllowed == value)
            {
                return true;
            }

            if (_allowed is not null)
            {
                return Array.IndexOf(_allowed, value) >= 0;
            }

            return value >= Min && value <= Max && value % Step == 0;
        }

        /// <summary>The allowed values in words, for messages and documentation: "-1 (infinite) or 0 to 6553500 ms in steps of 100".</summary>
        internal string Describe()
        {
            if (_allowed is not null)
            {
                return "one of " + string.Join(", ", Array.ConvertAll(_allowed, v => v.ToString(CultureInfo.InvariantCulture)));
            }

            string range = Min == Max ? Text(Min) : Text(Min) + " to " + Text(Max);
            string text = range + Unit + (Step != 1 ? " in steps of " + Step : string.Empty);
            if (AlsoAllowed is long special)
            {
                text = Text(special) + (Unit == " ms" && special == -1 ? " (infinite)" : string.Empty) + " or " + text;
            }

            return text;
        }

        /// <summary>Throws <see cref="ArgumentOutOfRangeException"/> naming the option and the allowed values unless <paramref name="value"/> is allowed.</summary>
        /// <param name="kind">"Socket option" or "Context option".</param>
        /// <param name="name">The option's name.</param>
        /// <param name="value">The value, or the byte count of a string or binary value.</param>
        /// <param name="paramName">The parameter that carried it.</param>
        internal void ThrowIfNotAllowed(string kind, string name, long value, string paramName)
        {
            // libzmq refuses these itself, with the error code callers already handle; keep that contract.
            if (!IsNativelyRefused(value) && !Allows(value))
            {
                throw new ArgumentOutOfRangeException(
                    paramName,
                    value,
                    kind + " " + name + " takes " + Describe() + ", not " + Text(value) + Unit + ": " + Reason);
            }
        }

        private static string Text(long value) =>
            value == int.MaxValue ? "int.MaxValue"
            : value == long.MaxValue ? "long.MaxValue"
            : value.ToString(CultureInfo.InvariantCulture);
    }
}
