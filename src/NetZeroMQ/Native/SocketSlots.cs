using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// Waiting for libzmq's reaper when a context's socket slots are all taken. libzmq frees a closed socket's slot later, on
    /// its reaper thread, so a program that closes and opens sockets quickly (directly, or through monitors, whose PAIR libzmq
    /// creates inside <c>zmq_socket_monitor</c>) can find all MaxSockets slots taken by sockets that are already closed.
    /// </summary>
    internal static class SocketSlots
    {
        private const int RetryIntervalMilliseconds = 5;

        /// <summary>The reaper has always caught up well within this (measured: monitor churn at ~30,000 cycles/s).</summary>
        private const int MaxWaitMilliseconds = 200;

        /// <summary>
        /// Call after a socket-creating libzmq call failed, with <paramref name="deadline"/> starting as null (it starts at the
        /// first failure). If the call failed for lack of slots (EMFILE) and the wait is not over, sleeps one interval and
        /// returns true: try again. Otherwise returns false at once, leaving errno as the failed call set it.
        /// </summary>
        internal static bool WaitForReaper(ref Deadline? deadline)
        {
            if (ErrorMap.ToPortable(Interop.Zmq.zmq_errno()) != ZmqError.TooManyOpenFiles)
            {
                return false;
            }

            deadline ??= Deadline.After(MaxWaitMilliseconds);
            if (deadline.Value.IsExpired)
            {
                return false;
            }

            Thread.Sleep(RetryIntervalMilliseconds);
            return true;
        }
    }
}
