using System.Runtime.CompilerServices;
using System.Threading;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// What the tests read inside a <see cref="UsageGuard"/>: its state word, reached through <see cref="UnsafeAccessorAttribute"/>
    /// and read by the guard's own <see cref="UsageGuard.State"/> values, so that the library carries no member for tests; a
    /// renamed field fails here with <see cref="System.MissingFieldException"/>, not silently.
    /// </summary>
    internal static class GuardInternals
    {
        /// <summary>Whether the guard is biased to one thread now (UsageGuard.Bias.cs).</summary>
        internal static bool IsBiased(ref this UsageGuard guard) => StateNow(ref guard) == (int)UsageGuard.State.Biased;

        /// <summary>Whether every claim is checked now, for good (the mode is Checked, whatever holds it).</summary>
        internal static bool IsCheckedForGood(ref this UsageGuard guard) =>
            (StateNow(ref guard) & ~(int)UsageGuard.State.HolderMask) == (int)UsageGuard.State.Checked;

        private static int StateNow(ref UsageGuard guard) => Volatile.Read(ref StateOf(ref guard));

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_state")]
        private static extern ref int StateOf(ref UsageGuard guard);
    }
}
