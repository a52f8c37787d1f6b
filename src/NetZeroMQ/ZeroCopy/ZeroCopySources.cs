using System;
using System.Buffers;

namespace NetZeroMQ
{
    /// <summary>
    /// One kind of zero-copy buffer, as a struct so that the send paths are specialised per kind without allocating. A source
    /// only knows how to hand its buffer to a <see cref="ReleaseSlot"/>; <see cref="ZeroCopyInit"/> does the rest, so that every
    /// kind is released by the same code on every path.
    /// </summary>
    internal interface IZeroCopySource
    {
        /// <summary>The number of bytes to send.</summary>
        int Length { get; }

        /// <summary>Moves ownership of the buffer into <paramref name="slot"/> (pinning it if managed) and returns its address.</summary>
        unsafe void* Fill(ReleaseSlot slot);

        /// <summary>Copies the bytes (for a payload small enough to copy, see <see cref="ZeroCopyPolicy"/>).</summary>
        void CopyTo(Span<byte> destination);

        /// <summary>Gives the buffer back to its owner now, without a slot; never throws (a failure is reported).</summary>
        void ReleaseNow();
    }

    internal readonly struct MemorySource : IZeroCopySource
    {
        private readonly ReadOnlyMemory<byte> _memory;

        internal MemorySource(ReadOnlyMemory<byte> memory) => _memory = memory;

        public int Length => _memory.Length;

        public unsafe void* Fill(ReleaseSlot slot)
        {
            slot.Pin = _memory.Pin();
            return slot.Pin.Pointer;
        }

        public void CopyTo(Span<byte> destination) => _memory.Span.CopyTo(destination);

        public void ReleaseNow()
        {
            // Nothing to give back: the memory was never pinned.
        }
    }

    internal readonly struct OwnerSource : IZeroCopySource
    {
        private readonly IMemoryOwner<byte> _owner;

        internal OwnerSource(IMemoryOwner<byte> owner, int length)
        {
            if (owner is null)
            {
                throw new ArgumentNullException(nameof(owner));
            }

            if ((uint)length > (uint)owner.Memory.Length)
            {
                throw new ArgumentOutOfRangeException(nameof(length), length, "The length must be between 0 and the owner's memory length.");
            }

            _owner = owner;
            Length = length;
        }

        public int Length { get; }

        public unsafe void* Fill(ReleaseSlot slot)
        {
            slot.Owner = _owner;
            slot.Pin = _owner.Memory.Slice(0, Length).Pin();
            return slot.Pin.Pointer;
        }

        public void CopyTo(Span<byte> destination) => _owner.Memory.Span.Slice(0, Length).CopyTo(destination);

        public void ReleaseNow()
        {
            try
            {
                _owner.Dispose();
            }
            catch (Exception e)
            {
                ZeroCopyDiagnostics.ReportReleaseFailure(e);
            }
        }
    }

    internal readonly struct PooledArraySource : IZeroCopySource
    {
        private readonly byte[] _array;
        private readonly ArrayPool<byte> _pool;

        internal PooledArraySource(byte[] array, int length, ArrayPool<byte> pool)
        {
            _array = array ?? throw new ArgumentNullException(nameof(array));
            _pool = pool ?? throw new ArgumentNullException(nameof(pool));
            if ((uint)length > (uint)array.Length)
            {
                throw new ArgumentOutOfRangeException(nameof(length), length, "The length must be between 0 and the array's length.");
            }

            Length = length;
        }

        public int Length { get; }

        public unsafe void* Fill(ReleaseSlot slot)
        {
            slot.PooledArray = _array;
            slot.Pool = _pool;
            slot.Pin = new Memory<byte>(_array).Pin();
            return slot.Pin.Pointer;
        }

        public void CopyTo(Span<byte> destination) => new ReadOnlySpan<byte>(_array, 0, Length).CopyTo(destination);

        public void ReleaseNow()
        {
            try
            {
                _pool.Return(_array);
            }
            catch (Exception e)
            {
                ZeroCopyDiagnostics.ReportReleaseFailure(e);
            }
        }
    }

    internal readonly struct NativeSource : IZeroCopySource
    {
        private readonly IntPtr _data;
        private readonly Action<IntPtr> _release;

        internal NativeSource(IntPtr data, int size, Action<IntPtr> release)
        {
            _release = release ?? throw new ArgumentNullException(nameof(release));
            if (size < 0)
            {
                throw new ArgumentOutOfRangeException(nameof(size), size, "The size must not be negative.");
            }

            if (data == IntPtr.Zero && size != 0)
            {
                // libzmq asserts (aborts the process) on NULL data with a non-zero size.
                throw new ArgumentException("A null pointer can only describe an empty buffer.", nameof(data));
            }

            _data = data;
            Length = size;
        }

        public int Length { get; }

        public unsafe void* Fill(ReleaseSlot slot)
        {
            slot.NativeRelease = _release;
            slot.NativePointer = _data;
            return (void*)_data;
        }

        public unsafe void CopyTo(Span<byte> destination) => new ReadOnlySpan<byte>((void*)_data, Length).CopyTo(destination);

        public void ReleaseNow()
        {
            try
            {
                _release(_data);
            }
            catch (Exception e)
            {
                ZeroCopyDiagnostics.ReportReleaseFailure(e);
            }
        }
    }
}
