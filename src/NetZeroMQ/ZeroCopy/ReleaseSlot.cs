using System;
using System.Buffers;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    /// <summary>
    /// What must be released when libzmq lets go of one zero-copy buffer. Slots are pooled and reused: a zero-copy send stores
    /// its owner here instead of allocating a delegate, closure or GCHandle per message, and passes the slot's index to libzmq as
    /// the free function's hint.
    /// </summary>
    internal sealed class ReleaseSlot
    {
        internal ReleaseSlot(int index) => Index = index;

        /// <summary>The slot's position in <see cref="ReleaseSlots"/>; the hint libzmq hands back to the free function.</summary>
        internal int Index { get; }

        /// <summary>Next free slot in the free list (-1 for none); only meaningful while the slot is free.</summary>
        internal int NextFree = -1;

        /// <summary>Native memory with a user release callback: the callback and its argument.</summary>
        internal Action<IntPtr>? NativeRelease;
        internal IntPtr NativePointer;

        /// <summary>Pinned managed memory (ReadOnlyMemory, IMemoryOwner or pooled array): the pin to undo.</summary>
        internal MemoryHandle Pin;

        /// <summary>An owner to dispose after unpinning.</summary>
        internal IMemoryOwner<byte>? Owner;

        /// <summary>An array to return to its pool after unpinning.</summary>
        internal byte[]? PooledArray;
        internal ArrayPool<byte>? Pool;

        /// <summary>Runs the release and clears the slot. Never throws: a failing user callback is reported, not propagated.</summary>
        internal void Release()
        {
            Action<IntPtr>? nativeRelease = NativeRelease;
            IntPtr pointer = NativePointer;
            IMemoryOwner<byte>? owner = Owner;
            byte[]? array = PooledArray;
            ArrayPool<byte>? pool = Pool;
            MemoryHandle pin = Pin;
            NativeRelease = null;
            NativePointer = IntPtr.Zero;
            Owner = null;
            PooledArray = null;
            Pool = null;
            Pin = default;

            try
            {
                pin.Dispose();
                nativeRelease?.Invoke(pointer);
                owner?.Dispose();
                if (array is not null)
                {
                    pool!.Return(array);
                }
            }
            catch (Exception e)
            {
                ZeroCopyDiagnostics.ReportReleaseFailure(e);
            }
        }
    }
}
