using System;
using System.Buffers;

namespace NetZeroMQ
{
    public sealed unsafe partial class Socket
    {
        /// <summary>The zmq_msg_t zero-copy sends are built in; owned by the socket, so a zero-copy send allocates nothing managed.</summary>
        private Message? _zeroCopyScratch;

        /// <summary>
        /// Sends <paramref name="data"/> without copying it (<c>zmq_msg_init_data</c> + <c>zmq_msg_send</c>): the memory is
        /// pinned and libzmq reads it where it is; it is unpinned when libzmq lets go (after the bytes left, for tcp/ipc on
        /// libzmq's I/O thread; for inproc when the receiver releases the message). Do not change the bytes until then.
        /// If the send fails, the memory is unpinned before the exception. Allocates no managed memory.
        /// </summary>
        /// <param name="data">The bytes to send.</param>
        /// <param name="flags">Send flags.</param>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="flags"/> has unknown bits.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed, see <see cref="Send(ReadOnlySpan{byte}, SendFlags)"/>.</exception>
        public void SendZeroCopy(ReadOnlyMemory<byte> data, SendFlags flags = SendFlags.None) =>
            SendZeroCopyCore(new MemorySource(data), flags);

        /// <summary>
        /// Sends the first <paramref name="length"/> bytes of an array rented from <paramref name="pool"/> without copying; the
        /// array goes back to the pool when libzmq lets go (see <see cref="SendZeroCopy(ReadOnlyMemory{byte}, SendFlags)"/>).
        /// Once the arguments (<paramref name="flags"/> included) are valid, ownership passes to the call: whether it succeeds or
        /// throws, do not use or return the array yourself. An argument exception leaves the array yours.
        /// </summary>
        /// <param name="rentedArray">The rented array.</param>
        /// <param name="length">How many bytes to send.</param>
        /// <param name="pool">The pool it came from, usually <see cref="ArrayPool{T}.Shared"/>.</param>
        /// <param name="flags">Send flags.</param>
        public void SendZeroCopy(byte[] rentedArray, int length, ArrayPool<byte> pool, SendFlags flags = SendFlags.None) =>
            SendZeroCopyCore(new PooledArraySource(rentedArray, length, pool), flags);

        /// <summary>
        /// Sends the first <paramref name="length"/> bytes of an owner's memory without copying; the owner is disposed when libzmq
        /// lets go. Once the arguments (<paramref name="flags"/> included) are valid, ownership passes to the call: whether it
        /// succeeds or throws, do not dispose the owner yourself. An argument exception leaves the owner yours.
        /// </summary>
        /// <param name="owner">The memory's owner, for example from <see cref="MemoryPool{T}.Shared"/>.</param>
        /// <param name="length">How many bytes to send.</param>
        /// <param name="flags">Send flags.</param>
        public void SendZeroCopy(IMemoryOwner<byte> owner, int length, SendFlags flags = SendFlags.None) =>
            SendZeroCopyCore(new OwnerSource(owner, length), flags);

        /// <summary>
        /// Sends native memory without copying; <paramref name="release"/> runs exactly once when libzmq lets go, on the thread
        /// described in <see cref="Message(IntPtr, int, Action{IntPtr})"/>. If the send fails, it has run before the exception;
        /// an argument exception (<paramref name="flags"/> included) is thrown before anything is taken, and it does not run.
        /// </summary>
        /// <param name="data">The bytes; valid and unchanged until <paramref name="release"/> runs.</param>
        /// <param name="size">Their size.</param>
        /// <param name="release">The release callback; quick, non-blocking, should not throw.</param>
        /// <param name="flags">Send flags.</param>
        public void SendZeroCopy(IntPtr data, int size, Action<IntPtr> release, SendFlags flags = SendFlags.None) =>
            SendZeroCopyCore(new NativeSource(data, size, release), flags);

        private void SendZeroCopyCore<TSource>(TSource source, SendFlags flags)
            where TSource : struct, IZeroCopySource
        {
            // An argument, like the source's own (checked when it was made): the caller still owns the buffer when it is wrong.
            ThrowIfUnknown(flags);
            try
            {
                ThrowIfInvalid(flags);
                Enter();
            }
            catch
            {
                ZeroCopyInit.ReleaseUnsent(source);
                throw;
            }

            try
            {
                Message scratch = _zeroCopyScratch ??= new Message();
                void* msg = scratch.UnguardedPointer;

                // The scratch message is empty here (new, or emptied by the previous successful send): closing it frees nothing.
                Interop.Zmq.zmq_msg_close(msg);
                ZeroCopyInit.Init(msg, source);
                bool sent = false;
                try
                {
                    var op = new MessageSend(msg);
                    Transfer(ref op, (int)flags, throwIfWouldBlock: true);
                    sent = true;
                }
                finally
                {
                    if (!sent)
                    {
                        // libzmq did not take the message: closing it runs the release now, then leave the scratch empty again.
                        Interop.Zmq.zmq_msg_close(msg);
                        Interop.Zmq.zmq_msg_init(msg);
                    }
                }
            }
            finally
            {
                Exit();
            }
        }
    }
}
