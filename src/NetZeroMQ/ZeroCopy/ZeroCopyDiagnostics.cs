using System;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// Reports failures of zero-copy release callbacks. A callback runs on a libzmq thread, where an exception would end the
    /// process; NetZeroMQ catches it and reports it here instead.
    /// </summary>
    public static class ZeroCopyDiagnostics
    {
        private static long s_failures;

        /// <summary>
        /// Raised, on the thread that released the buffer, when a release callback (or a disposed owner) threw. Handlers must be
        /// quick and must not throw (an exception from a handler is swallowed).
        /// </summary>
        public static event Action<Exception>? ReleaseFailed;

        /// <summary>How many release callbacks have thrown in this process.</summary>
        public static long ReleaseFailureCount => Interlocked.Read(ref s_failures);

        /// <summary>Zero-copy buffers currently held by libzmq (sent or in a message, not released yet).</summary>
        public static int OutstandingBuffers => ReleaseSlots.Outstanding;

        internal static void ReportReleaseFailure(Exception exception)
        {
            Interlocked.Increment(ref s_failures);
            try
            {
                if (NetZeroMQEventSource.Log.IsEnabled())
                {
                    NetZeroMQEventSource.Log.ZeroCopyReleaseFailed(exception.GetType().FullName ?? "?", exception.Message);
                }

                ReleaseFailed?.Invoke(exception);
            }
            catch
            {
                // A reporting handler that throws must not take libzmq's thread down with it.
            }
        }
    }
}
