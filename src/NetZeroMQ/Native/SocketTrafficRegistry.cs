using System;

namespace NetZeroMQ
{
    /// <summary>
    /// Every open socket's <see cref="SocketTraffic"/>, and the totals of the sockets already closed, per socket type: what
    /// the metrics read. A socket is added when its native socket is opened and folded into the totals when it is closed
    /// (by <c>Dispose</c>, or by its handle's finalizer when it was abandoned), so no count is lost and no closed socket is
    /// kept. Adding, folding and reading take one lock; sends and receives never touch it.
    /// </summary>
    internal static class SocketTrafficRegistry
    {
        /// <summary>One slot per libzmq socket type number, <c>ZMQ_PAIR</c> (0) to <c>ZMQ_CHANNEL</c> (20).</summary>
        internal const int TypeCount = Interop.Zmq.ZMQ_CHANNEL + 1;

        private static readonly object s_lock = new object();
        private static readonly TrafficTotals[] s_closed = new TrafficTotals[TypeCount];
        private static SocketTraffic[] s_open = new SocketTraffic[16];
        private static int s_openCount;

        internal static void Add(SocketTraffic traffic)
        {
            lock (s_lock)
            {
                if (s_openCount == s_open.Length)
                {
                    Array.Resize(ref s_open, s_open.Length * 2);
                }

                traffic.RegistryIndex = s_openCount;
                s_open[s_openCount++] = traffic;
            }
        }

        /// <summary>The socket was closed: its counts join the totals of its type and the registry lets go of it.</summary>
        internal static void Remove(SocketTraffic traffic)
        {
            lock (s_lock)
            {
                int index = traffic.RegistryIndex;
                if (index < 0)
                {
                    return;
                }

                s_closed[traffic.Type].Add(traffic);
                s_closed[traffic.Type].Opened++;
                SocketTraffic last = s_open[--s_openCount];
                s_open[index] = last;
                last.RegistryIndex = index;
                s_open[s_openCount] = null!;
                traffic.RegistryIndex = -1;

                // Give memory back after a burst of sockets (a registry that only grows would keep the largest burst forever).
                if (s_open.Length > 64 && s_openCount < s_open.Length / 4)
                {
                    Array.Resize(ref s_open, s_open.Length / 2);
                }
            }
        }

        /// <summary>Fills <paramref name="totals"/> (one per socket type, <see cref="TypeCount"/> long) with the counts of every
        /// socket since the process started: the closed sockets' totals plus the open sockets' counts so far.</summary>
        internal static void Read(TrafficTotals[] totals)
        {
            lock (s_lock)
            {
                Array.Copy(s_closed, totals, TypeCount);
                for (int i = 0; i < s_openCount; i++)
                {
                    SocketTraffic traffic = s_open[i];
                    totals[traffic.Type].Add(traffic);
                    totals[traffic.Type].Opened++;
                    totals[traffic.Type].Open++;
                }
            }
        }
    }

    /// <summary>The traffic of the sockets of one type, summed; see <see cref="SocketTrafficRegistry.Read"/>.</summary>
    internal struct TrafficTotals
    {
        /// <summary>Sockets of this type open now (only in a reading; the closed totals keep 0).</summary>
        internal long Open;

        /// <summary>Sockets of this type opened since the process started (open or closed).</summary>
        internal long Opened;
        internal long FramesSent;
        internal long BytesSent;
        internal long FramesReceived;
        internal long BytesReceived;
        internal long WouldBlock;

        internal void Add(SocketTraffic traffic)
        {
            FramesSent += traffic.FramesSent;
            BytesSent += traffic.BytesSent;
            FramesReceived += traffic.FramesReceived;
            BytesReceived += traffic.BytesReceived;
            WouldBlock += traffic.WouldBlock;
        }
    }
}
