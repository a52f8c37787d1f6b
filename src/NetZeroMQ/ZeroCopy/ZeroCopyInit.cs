using System;

namespace NetZeroMQ
{
    /// <summary>
    /// Initialises a <c>zmq_msg_t</c> over a zero-copy buffer with <c>zmq_msg_init_data</c>, the buffer's owner parked in a
    /// pooled <see cref="ReleaseSlot"/> whose index is the free function's hint. If libzmq refuses, it will never call the free
    /// function, so the slot is released here: the owner gets the buffer back exactly once on every path.
    /// </summary>
    internal static unsafe class ZeroCopyInit
    {
        /// <summary>Initialises <paramref name="msg"/> (which must not hold a message) over the source's buffer.</summary>
        internal static void Init<TSource>(void* msg, TSource source)
            where TSource : struct, IZeroCopySource
        {
            if (source.Length <= ZeroCopyPolicy.CopyThreshold)
            {
                InitByCopy(msg, source);
                return;
            }

            ReleaseSlot slot = ReleaseSlots.Rent();
            void* data;
            try
            {
                data = source.Fill(slot);
            }
            catch
            {
                ZeroCopyFree.ReleaseIndex(slot.Index);
                Interop.Zmq.zmq_msg_init(msg);
                throw;
            }

            if (Interop.Zmq.zmq_msg_init_data(msg, data, (nuint)source.Length, ZeroCopyFree.Pointer, (void*)(nint)slot.Index) != 0)
            {
                int errno = Interop.Zmq.zmq_errno();
                ZeroCopyFree.ReleaseIndex(slot.Index);
                Interop.Zmq.zmq_msg_init(msg);
                ZmqThrow.Error(errno, "zmq_msg_init_data");
            }
        }

        /// <summary>A small payload: copied into a libzmq message and given back to its owner at once (see <see cref="ZeroCopyPolicy"/>).</summary>
        private static void InitByCopy<TSource>(void* msg, TSource source)
            where TSource : struct, IZeroCopySource
        {
            if (Interop.Zmq.zmq_msg_init_size(msg, (nuint)source.Length) != 0)
            {
                int errno = Interop.Zmq.zmq_errno();
                Interop.Zmq.zmq_msg_init(msg);
                source.ReleaseNow();
                ZmqThrow.Error(errno, "zmq_msg_init_size");
            }

            try
            {
                source.CopyTo(new Span<byte>(Interop.Zmq.zmq_msg_data(msg), source.Length));
            }
            finally
            {
                source.ReleaseNow();
            }
        }

        /// <summary>Gives a buffer back to its owner without sending it (the send failed before libzmq was involved).</summary>
        internal static void ReleaseUnsent<TSource>(TSource source)
            where TSource : struct, IZeroCopySource => source.ReleaseNow();
    }
}
