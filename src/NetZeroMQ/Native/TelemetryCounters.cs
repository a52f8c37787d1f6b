using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// Process-wide counts of rare events that the metrics report: errors thrown (by <see cref="ZmqError"/>), ZAP decisions
    /// (by mechanism, allowed or denied) and async operations waiting. Each moves with an interlocked instruction where the
    /// event happens, never on a send or receive that succeeds at once: an error builds an exception, a ZAP decision answers
    /// a handshake, an async operation counted here has already failed its first attempt and is handed to the reactor.
    /// Per-socket traffic, which moves with every frame, is counted elsewhere (<see cref="SocketTraffic"/>).
    /// </summary>
    internal static class TelemetryCounters
    {
        /// <summary>One slot per <see cref="ZmqError"/> value (they are numbered from 0 without gaps).</summary>
        internal const int ErrorCount = (int)ZmqError.NameTooLong + 1;

        /// <summary>The ZAP mechanisms, in the order of <see cref="ZapMechanisms"/>; an unreadable request is "unknown".</summary>
        internal static readonly string[] ZapMechanisms = { "null", "plain", "curve", "gssapi", "unknown" };

        private static readonly long[] s_errors = new long[ErrorCount];
        private static readonly long[] s_zapAllowed = new long[5];
        private static readonly long[] s_zapDenied = new long[5];
        private static long s_pendingAsync;

        /// <summary>A <see cref="ZmqException"/> was made for a failed libzmq call.</summary>
        internal static void Error(ZmqError error) => Interlocked.Increment(ref s_errors[(uint)error < ErrorCount ? (int)error : 0]);

        internal static long Errors(ZmqError error) => Interlocked.Read(ref s_errors[(int)error]);

        /// <summary>The ZAP handler answered a request of <paramref name="mechanism"/> (as the request names it, upper case).</summary>
        internal static void ZapDecision(string? mechanism, bool allowed) =>
            Interlocked.Increment(ref (allowed ? s_zapAllowed : s_zapDenied)[ZapMechanismIndex(mechanism)]);

        internal static long ZapDecisions(int mechanismIndex, bool allowed) =>
            Interlocked.Read(ref (allowed ? s_zapAllowed : s_zapDenied)[mechanismIndex]);

        /// <summary>An async operation started waiting (+1), or one that waited completed (-1).</summary>
        internal static void PendingAsync(int delta) => Interlocked.Add(ref s_pendingAsync, delta);

        internal static long PendingAsyncOperations => Interlocked.Read(ref s_pendingAsync);

        private static int ZapMechanismIndex(string? mechanism) => mechanism switch
        {
            "NULL" => 0,
            "PLAIN" => 1,
            "CURVE" => 2,
            "GSSAPI" => 3,
            _ => 4,
        };
    }
}
