using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// One socket's traffic since it was opened: frames and bytes sent and received, and attempts that found the socket not
    /// ready. Plain fields, written only by the thread that holds the socket (a socket is used by one thread at a time) and
    /// read by a metrics collection on another thread, which may see values a few frames old: counting costs no interlocked
    /// instruction, no allocation and no call per frame. A thread-safe (draft) socket is used by many threads at once: its
    /// counts (<see cref="Shared"/>) are added with interlocked instructions, which its calls already pay for entering. <see cref="SocketTrafficRegistry"/> sums them on collection and keeps
    /// the counts of closed sockets.
    /// </summary>
    /// <remarks>
    /// The counters sit 64 bytes away from anything else in the object and the object ends 64 bytes after them, so the
    /// counters of two sockets used by two threads never share a cache line (which would make every frame on one socket
    /// evict the other thread's line). On a 32-bit process a reading can see a 64-bit count half updated; a metric, not an
    /// invariant, so that is accepted rather than paid for on every frame.
    /// </remarks>
    [StructLayout(LayoutKind.Explicit)]
    internal sealed class SocketTraffic
    {
        private static long s_lastId;

        /// <summary>A number for this socket, unique in the process, so that events about one socket can be matched up.</summary>
        [FieldOffset(0)]
        internal readonly long Id;

        /// <summary>libzmq's socket type number (<c>ZMQ_PAIR</c> 0 to <c>ZMQ_CHANNEL</c> 20).</summary>
        [FieldOffset(8)]
        internal readonly int Type;

        /// <summary>Where <see cref="SocketTrafficRegistry"/> keeps this socket while it is open; changed under its lock.</summary>
        [FieldOffset(12)]
        internal int RegistryIndex;

        /// <summary>Whether several threads may count at once (libzmq's thread-safe socket types): then counting is interlocked.</summary>
        [FieldOffset(16)]
        internal readonly bool Shared;

        /// <summary>Frames (message parts) sent.</summary>
        [FieldOffset(64)]
        internal long FramesSent;

        /// <summary>Bytes of the frames sent.</summary>
        [FieldOffset(72)]
        internal long BytesSent;

        /// <summary>Frames received.</summary>
        [FieldOffset(80)]
        internal long FramesReceived;

        /// <summary>Bytes of the frames received (their full size, also when a buffer took only part of one).</summary>
        [FieldOffset(88)]
        internal long BytesReceived;

        /// <summary>Send or receive attempts that found the socket not ready (EAGAIN): a non-blocking call that returned false,
        /// or the start of a wait.</summary>
        [FieldOffset(96)]
        internal long WouldBlock;

        /// <summary>Not used: keeps the object's end a cache line away from the counters.</summary>
        [FieldOffset(160)]
        private readonly long _end;

        internal SocketTraffic(int type, bool shared)
        {
            Id = Interlocked.Increment(ref s_lastId);
            Type = type;
            Shared = shared;
            RegistryIndex = -1;
            _end = 0;
        }

        /// <summary>Adds what one successful send or receive moved (<paramref name="isSend"/> is a constant where this is inlined).</summary>
        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
        internal void Moved(bool isSend, int bytes)
        {
            if (Shared)
            {
                MovedShared(isSend, bytes);
            }
            else
            {
                MovedUnshared(isSend, bytes);
            }
        }

        /// <summary><see cref="Moved"/> for a caller that knows this socket's counts are not <see cref="Shared"/>.</summary>
        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
        internal void MovedUnshared(bool isSend, int bytes)
        {
            if (isSend)
            {
                FramesSent++;
                BytesSent += bytes;
            }
            else
            {
                FramesReceived++;
                BytesReceived += bytes;
            }
        }

        /// <summary>Counts one attempt that found the socket not ready.</summary>
        internal void CountWouldBlock()
        {
            if (Shared)
            {
                Interlocked.Increment(ref WouldBlock);
            }
            else
            {
                WouldBlock++;
            }
        }

        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
        private void MovedShared(bool isSend, int bytes)
        {
            if (isSend)
            {
                Interlocked.Increment(ref FramesSent);
                Interlocked.Add(ref BytesSent, bytes);
            }
            else
            {
                Interlocked.Increment(ref FramesReceived);
                Interlocked.Add(ref BytesReceived, bytes);
            }
        }
    }
}
