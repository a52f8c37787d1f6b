using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// The pooled table of <see cref="ReleaseSlot"/>s, shared by the whole process. Renting and returning are lock-free (a
    /// Treiber stack whose head carries a version against ABA), because the return happens inside libzmq's free callback, on
    /// an I/O thread or on whichever thread closes the last copy of the message, where blocking is not allowed.
    /// </summary>
    /// <remarks>
    /// Slots live in fixed chunks that are never moved or freed, so a callback that looks a slot up while the table grows sees
    /// the same object through the old or the new chunk directory. Growth allocates; the steady state allocates nothing.
    /// </remarks>
    internal static class ReleaseSlots
    {
        private const int ChunkShift = 10;
        private const int ChunkSize = 1 << ChunkShift;
        private const int ChunkMask = ChunkSize - 1;

        private static readonly object s_growLock = new object();
        private static ReleaseSlot[][] s_chunks = Array.Empty<ReleaseSlot[]>();

        /// <summary>Low 32 bits: index of the first free slot, or -1. High 32 bits: a version bumped by every change.</summary>
        private static long s_head = Pack(-1, 0);

        // Two totals instead of one running count: the same one interlocked increment per rent and per return as before, and
        // the reliability tests can also prove that releases equal messages (ResourceCounters).
        private static long s_rents;
        private static long s_returns;

        /// <summary>Slots currently holding a buffer libzmq has not released yet (diagnostics and tests).</summary>
        internal static int Outstanding
        {
            get
            {
                long returns = Interlocked.Read(ref s_returns);
                return (int)(Interlocked.Read(ref s_rents) - returns);
            }
        }

        /// <summary>Slots rented since the process started: zero-copy buffers handed to libzmq.</summary>
        internal static long Rents => Interlocked.Read(ref s_rents);

        /// <summary>Slots returned since the process started: zero-copy buffers released (the free callback ran).</summary>
        internal static long Returns => Interlocked.Read(ref s_returns);

        /// <summary>Slots that exist (diagnostics and tests).</summary>
        internal static int Capacity => Volatile.Read(ref s_chunks).Length * ChunkSize;

        internal static ReleaseSlot Rent()
        {
            while (true)
            {
                long head = Volatile.Read(ref s_head);
                int index = (int)head;
                if (index < 0)
                {
                    Grow();
                    continue;
                }

                ReleaseSlot slot = Get(index);
                long next = Pack(slot.NextFree, (int)(head >> 32) + 1);
                if (Interlocked.CompareExchange(ref s_head, next, head) == head)
                {
                    Interlocked.Increment(ref s_rents);
                    return slot;
                }
            }
        }

        internal static void Return(ReleaseSlot slot)
        {
            Interlocked.Increment(ref s_returns);
            Push(slot);
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal static ReleaseSlot Get(int index) => Volatile.Read(ref s_chunks)[index >> ChunkShift][index & ChunkMask];

        private static void Push(ReleaseSlot slot)
        {
            while (true)
            {
                long head = Volatile.Read(ref s_head);
                slot.NextFree = (int)head;
                long next = Pack(slot.Index, (int)(head >> 32) + 1);
                if (Interlocked.CompareExchange(ref s_head, next, head) == head)
                {
                    return;
                }
            }
        }

        private static void Grow()
        {
            lock (s_growLock)
            {
                if ((int)Volatile.Read(ref s_head) >= 0)
                {
                    return; // another thread grew the table, or slots came back meanwhile
                }

                ReleaseSlot[][] chunks = s_chunks;
                int first = chunks.Length * ChunkSize;
                var chunk = new ReleaseSlot[ChunkSize];
                for (int i = 0; i < ChunkSize; i++)
                {
                    chunk[i] = new ReleaseSlot(first + i);
                }

                var grown = new ReleaseSlot[chunks.Length + 1][];
                Array.Copy(chunks, grown, chunks.Length);
                grown[chunks.Length] = chunk;
                Volatile.Write(ref s_chunks, grown);

                // Publish the new slots, last first, so that renting takes them in index order.
                for (int i = ChunkSize - 1; i >= 0; i--)
                {
                    Push(chunk[i]);
                }
            }
        }

        private static long Pack(int index, int version) => ((long)version << 32) | (uint)index;
    }
}
