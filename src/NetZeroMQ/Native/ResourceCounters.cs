using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// Process-wide counts of the native objects NetZeroMQ creates and releases, for the reliability tests (nothing lost,
    /// nothing leaked, nothing closed twice). Each count moves only where an object is created or closed, never per message
    /// sent or received: one interlocked increment next to a native call that costs far more. (Zero-copy buffers and pooled
    /// receive buffers are the exception that proves the rule: they are objects made per message by the caller's choice, and
    /// they are counted with the bookkeeping they already had — see <see cref="ReleaseSlots"/> and <see cref="PooledBuffer"/>.)
    /// </summary>
    internal static class ResourceCounters
    {
        private static long s_contextsCreated;
        private static long s_contextsTerminated;
        private static long s_socketsOpened;
        private static long s_socketsClosed;
        private static long s_messagesCreated;
        private static long s_messagesReleased;
        private static long s_wakersCreated;
        private static long s_wakersClosed;

        /// <summary>Pooled receive buffers rented and returned, counted by <c>PooledBuffer</c> under its own lock.</summary>
        internal static long PooledBuffersRented;

        /// <summary>See <see cref="PooledBuffersRented"/>.</summary>
        internal static long PooledBuffersReturned;

        internal static void ContextCreated() => Interlocked.Increment(ref s_contextsCreated);

        internal static void ContextTerminated() => Interlocked.Increment(ref s_contextsTerminated);

        internal static void SocketOpened() => Interlocked.Increment(ref s_socketsOpened);

        internal static void SocketClosed() => Interlocked.Increment(ref s_socketsClosed);

        internal static void MessageCreated() => Interlocked.Increment(ref s_messagesCreated);

        internal static void MessageReleased() => Interlocked.Increment(ref s_messagesReleased);

        internal static void WakerCreated() => Interlocked.Increment(ref s_wakersCreated);

        internal static void WakerClosed() => Interlocked.Increment(ref s_wakersClosed);

        /// <summary>Reads every count. Release counts are read before creation counts, so a live count is never negative.</summary>
        internal static ResourceSnapshot Snapshot()
        {
            var s = default(ResourceSnapshot);
            s.ContextsTerminated = Interlocked.Read(ref s_contextsTerminated);
            s.SocketsClosed = Interlocked.Read(ref s_socketsClosed);
            s.MessagesReleased = Interlocked.Read(ref s_messagesReleased);
            s.WakersClosed = Interlocked.Read(ref s_wakersClosed);
            s.ZeroCopyReleases = ReleaseSlots.Returns;
            s.PooledBuffersReturned = Interlocked.Read(ref PooledBuffersReturned);
            s.ContextsCreated = Interlocked.Read(ref s_contextsCreated);
            s.SocketsOpened = Interlocked.Read(ref s_socketsOpened);
            s.MessagesCreated = Interlocked.Read(ref s_messagesCreated);
            s.WakersCreated = Interlocked.Read(ref s_wakersCreated);
            s.ZeroCopyPins = ReleaseSlots.Rents;
            s.PooledBuffersRented = Interlocked.Read(ref PooledBuffersRented);
            s.ReleaseFailures = ZeroCopyDiagnostics.ReleaseFailureCount;
            return s;
        }
    }

    /// <summary>One reading of <see cref="ResourceCounters"/>: totals since the process started.</summary>
    internal struct ResourceSnapshot
    {
        /// <summary>zmq_ctx_new that succeeded, and zmq_ctx_term that completed.</summary>
        internal long ContextsCreated;
        internal long ContextsTerminated;

        /// <summary>zmq_socket that succeeded, and zmq_close.</summary>
        internal long SocketsOpened;
        internal long SocketsClosed;

        /// <summary>Native zmq_msg_t blocks of <see cref="Message"/> objects allocated, and freed.</summary>
        internal long MessagesCreated;
        internal long MessagesReleased;

        /// <summary>Wake-up descriptors (eventfd/pipe) made for blocking waits, and closed.</summary>
        internal long WakersCreated;
        internal long WakersClosed;

        /// <summary>Zero-copy buffers handed to libzmq (release slots rented), and released by the free callback (returned).</summary>
        internal long ZeroCopyPins;
        internal long ZeroCopyReleases;

        /// <summary><see cref="PooledBuffer"/>s rented by RecvPooled, and returned by their Dispose.</summary>
        internal long PooledBuffersRented;
        internal long PooledBuffersReturned;

        /// <summary>Release callbacks that threw (<see cref="ZeroCopyDiagnostics.ReleaseFailureCount"/>).</summary>
        internal long ReleaseFailures;

        internal long LiveContexts => ContextsCreated - ContextsTerminated;
        internal long LiveSockets => SocketsOpened - SocketsClosed;
        internal long LiveMessages => MessagesCreated - MessagesReleased;
        internal long LiveWakers => WakersCreated - WakersClosed;
        internal long PinnedZeroCopyBuffers => ZeroCopyPins - ZeroCopyReleases;
        internal long OutstandingPooledBuffers => PooledBuffersRented - PooledBuffersReturned;

        public override string ToString() =>
            "contexts " + ContextsCreated + "/" + ContextsTerminated + ", sockets " + SocketsOpened + "/" + SocketsClosed +
            ", messages " + MessagesCreated + "/" + MessagesReleased + ", wakers " + WakersCreated + "/" + WakersClosed +
            ", zero-copy " + ZeroCopyPins + "/" + ZeroCopyReleases + ", pooled " + PooledBuffersRented + "/" +
            PooledBuffersReturned + " (created/released), release failures " + ReleaseFailures;
    }
}
