using System;
using System.Buffers;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// A received frame in an array rented from <see cref="ArrayPool{T}.Shared"/>, exactly as long as the frame. Dispose it to
    /// return the array; the wrapper objects are pooled too, so a receive loop that disposes each buffer allocates nothing.
    /// </summary>
    /// <remarks>
    /// <para>Dispose exactly once and do not touch the buffer afterwards: as with <see cref="ArrayPool{T}"/> itself, the array
    /// then belongs to someone else, and so does this wrapper once a later receive reuses it (a stale reference would then act
    /// on that receive's frame, and a second Dispose would return its array).</para>
    /// <para>The buffer is managed memory: racing threads can read stale bytes but never freed native memory. Use it from
    /// one thread at a time, or hand it over.</para>
    /// </remarks>
    public sealed class PooledBuffer : IMemoryOwner<byte>
    {
        private const int MaxPooledWrappers = 64;
        private static readonly PooledBuffer?[] s_wrappers = new PooledBuffer?[MaxPooledWrappers];
        private static int s_wrapperCount;
        private static readonly object s_lock = new object();

        private byte[]? _array;
        private int _length;

        private PooledBuffer()
        {
        }

        /// <summary>The frame's bytes.</summary>
        /// <exception cref="ObjectDisposedException">The buffer was disposed.</exception>
        public Memory<byte> Memory => new Memory<byte>(_array ?? throw new ObjectDisposedException(nameof(PooledBuffer)), 0, _length);

        /// <summary>The frame's bytes as a span.</summary>
        /// <exception cref="ObjectDisposedException">The buffer was disposed.</exception>
        public Span<byte> Span => Memory.Span;

        /// <summary>The frame's size in bytes.</summary>
        public int Length => _length;

        /// <summary>Returns the array to the pool.</summary>
        public void Dispose()
        {
            byte[]? array = Interlocked.Exchange(ref _array, null);
            if (array is null)
            {
                return;
            }

            ArrayPool<byte>.Shared.Return(array);
            lock (s_lock)
            {
                ResourceCounters.PooledBuffersReturned++; // under s_lock, which Dispose takes anyway: no extra interlocked
                if (s_wrapperCount < MaxPooledWrappers)
                {
                    s_wrappers[s_wrapperCount++] = this;
                }
            }
        }

        /// <summary>Rents an array of at least <paramref name="length"/> bytes wrapped in a (pooled) buffer.</summary>
        internal static PooledBuffer Rent(int length)
        {
            PooledBuffer? buffer = null;
            lock (s_lock)
            {
                ResourceCounters.PooledBuffersRented++; // under s_lock, which Rent takes anyway: no extra interlocked
                if (s_wrapperCount > 0)
                {
                    buffer = s_wrappers[--s_wrapperCount];
                    s_wrappers[s_wrapperCount] = null;
                }
            }

            buffer ??= new PooledBuffer();
            buffer._array = ArrayPool<byte>.Shared.Rent(Math.Max(length, 1));
            buffer._length = length;
            return buffer;
        }
    }
}
