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

        /// <summary>
        /// How long to wait for the reaper. On a quiet machine it catches up well within 200 ms (measured: monitor churn at
        /// ~30,000 cycles/s), but it is a thread like any other: with two cores and a load of 20 (CI running beside other
        /// work) it lagged past 200 ms and a churn of 5,000 monitors failed with EMFILE while nearly every slot was held by a
        /// socket already closed. Only reached when the slots are held by closed sockets (see <see cref="WaitForReaper"/>).
        /// </summary>
        private const int MaxWaitMilliseconds = 2000;

        /// <summary>
        /// Call after a socket-creating libzmq call failed with <paramref name="errno"/>, with <paramref name="deadline"/>
        /// starting as null (it starts at the first failure). If the call failed for lack of slots (EMFILE) while some slots
        /// are held by closed sockets (<paramref name="allSlotsHeldByOpenSockets"/> false: the reaper will free them) and the
        /// wait is not over, sleeps one interval and returns true: try again. Otherwise returns false at once: a context whose
        /// slots are all held by open sockets fails without waiting, since waiting frees nothing.
        /// </summary>
        internal static bool WaitForReaper(int errno, ref Deadline? deadline, bool allSlotsHeldByOpenSockets)
        {
            if (ErrorMap.ToPortable(errno) != ZmqError.TooManyOpenFiles || allSlotsHeldByOpenSockets)
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
