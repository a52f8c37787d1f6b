using System;
using System.Buffers;
using System.Threading;

namespace NetZeroMQ
{
    public sealed unsafe partial class Socket
    {
        /// <summary>
        /// Sends <paramref name="data"/> without copying it (<c>zmq_msg_init_data</c> + <c>zmq_msg_send</c>): the memory is
        /// pinned and libzmq reads it where it is; it is unpinned when libzmq lets go (after the bytes left, for tcp/ipc on
        /// libzmq's I/O thread; for inproc when the receiver releases the message). Do not change the bytes until then.
        /// Blocks at the high-water mark for up to <see cref="SendTimeout"/>. If the send fails, the memory is unpinned before
        /// the exception. Allocates no managed memory.
        /// </summary>
        /// <param name="data">The bytes to send.</param>
        /// <param name="flags">Send flags.</param>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="flags"/> has unknown bits.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed, see <see cref="Send(ReadOnlySpan{byte}, SendFlags)"/>.</exception>
        public void SendZeroCopy(ReadOnlyMemory<byte> data, SendFlags flags = SendFlags.None) =>
            SendZeroCopyCore(new MemorySource(data), flags, TransferWait.Blocking);

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
            SendZeroCopyCore(new PooledArraySource(rentedArray, length, pool), flags, TransferWait.Blocking);

        /// <summary>
        /// Sends the first <paramref name="length"/> bytes of an owner's memory without copying; the owner is disposed when libzmq
        /// lets go. Once the arguments (<paramref name="flags"/> included) are valid, ownership passes to the call: whether it
        /// succeeds or throws, do not dispose the owner yourself. An argument exception leaves the owner yours.
        /// </summary>
        /// <param name="owner">The memory's owner, for example from <see cref="MemoryPool{T}.Shared"/>.</param>
        /// <param name="length">How many bytes to send.</param>
        /// <param name="flags">Send flags.</param>
        public void SendZeroCopy(IMemoryOwner<byte> owner, int length, SendFlags flags = SendFlags.None) =>
            SendZeroCopyCore(new OwnerSource(owner, length), flags, TransferWait.Blocking);

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
            SendZeroCopyCore(new NativeSource(data, size, release), flags, TransferWait.Blocking);

        /// <summary>
        /// Sends <paramref name="data"/> without copying if that is possible without blocking. On false nothing was sent and the
        /// memory is already unpinned, as after a failed <see cref="SendZeroCopy(ReadOnlyMemory{byte}, SendFlags)"/>.
        /// </summary>
        /// <param name="data">The bytes to send.</param>
        /// <param name="flags">Send flags.</param>
        /// <returns>True if the message was queued; false if the socket would block.</returns>
        public bool TrySendZeroCopy(ReadOnlyMemory<byte> data, SendFlags flags = SendFlags.None) =>
            SendZeroCopyCore(new MemorySource(data), flags, TransferWait.None);

        /// <summary>
        /// Sends part of a rented array without copying if that is possible without blocking. Ownership passes to the call as
        /// with <see cref="SendZeroCopy(byte[], int, ArrayPool{byte}, SendFlags)"/>: on false the array is back in the pool already.
        /// </summary>
        /// <param name="rentedArray">The rented array.</param>
        /// <param name="length">How many bytes to send.</param>
        /// <param name="pool">The pool it came from.</param>
        /// <param name="flags">Send flags.</param>
        /// <returns>True if the message was queued; false if the socket would block.</returns>
        public bool TrySendZeroCopy(byte[] rentedArray, int length, ArrayPool<byte> pool, SendFlags flags = SendFlags.None) =>
            SendZeroCopyCore(new PooledArraySource(rentedArray, length, pool), flags, TransferWait.None);

        /// <summary>
        /// Sends an owner's memory without copying if that is possible without blocking. Ownership passes to the call as with
        /// <see cref="SendZeroCopy(IMemoryOwner{byte}, int, SendFlags)"/>: on false the owner is disposed already.
        /// </summary>
        /// <param name="owner">The memory's owner.</param>
        /// <param name="length">How many bytes to send.</param>
        /// <param name="flags">Send flags.</param>
        /// <returns>True if the message was queued; false if the socket would block.</returns>
        public bool TrySendZeroCopy(IMemoryOwner<byte> owner, int length, SendFlags flags = SendFlags.None) =>
            SendZeroCopyCore(new OwnerSource(owner, length), flags, TransferWait.None);

        /// <summary>
        /// Sends native memory without copying if that is possible without blocking; on false <paramref name="release"/> has
        /// run already, as after a failed <see cref="SendZeroCopy(IntPtr, int, Action{IntPtr}, SendFlags)"/>.
        /// </summary>
        /// <param name="data">The bytes.</param>
        /// <param name="size">Their size.</param>
        /// <param name="release">The release callback.</param>
        /// <param name="flags">Send flags.</param>
        /// <returns>True if the message was queued; false if the socket would block.</returns>
        public bool TrySendZeroCopy(IntPtr data, int size, Action<IntPtr> release, SendFlags flags = SendFlags.None) =>
            SendZeroCopyCore(new NativeSource(data, size, release), flags, TransferWait.None);

        /// <summary>
        /// Sends <paramref name="data"/> without copying, waiting up to <paramref name="timeout"/> (see
        /// <see cref="TrySend(ReadOnlySpan{byte}, TimeSpan, SendFlags, CancellationToken)"/>). On false or cancellation nothing
        /// was sent and the memory is already unpinned.
        /// </summary>
        /// <param name="data">The bytes to send.</param>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="flags">Send flags.</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True if the message was queued; false if the timeout passed first.</returns>
        public bool TrySendZeroCopy(ReadOnlyMemory<byte> data, TimeSpan timeout, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default)
        {
            var source = new MemorySource(data);
            ThrowIfUnknown(flags);
            return SendZeroCopyCore(source, flags, WithinReleasing(source, timeout, cancellationToken));
        }

        /// <summary>Sends part of a rented array without copying, waiting up to <paramref name="timeout"/>; ownership passes to the
        /// call (on false or any exception the array is back in the pool already).</summary>
        /// <param name="rentedArray">The rented array.</param>
        /// <param name="length">How many bytes to send.</param>
        /// <param name="pool">The pool it came from.</param>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="flags">Send flags.</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True if the message was queued; false if the timeout passed first.</returns>
        public bool TrySendZeroCopy(byte[] rentedArray, int length, ArrayPool<byte> pool, TimeSpan timeout, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default)
        {
            var source = new PooledArraySource(rentedArray, length, pool);
            ThrowIfUnknown(flags);
            return SendZeroCopyCore(source, flags, WithinReleasing(source, timeout, cancellationToken));
        }

        /// <summary>Sends an owner's memory without copying, waiting up to <paramref name="timeout"/>; ownership passes to the call
        /// (on false or any exception the owner is disposed already).</summary>
        /// <param name="owner">The memory's owner.</param>
        /// <param name="length">How many bytes to send.</param>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="flags">Send flags.</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True if the message was queued; false if the timeout passed first.</returns>
        public bool TrySendZeroCopy(IMemoryOwner<byte> owner, int length, TimeSpan timeout, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default)
        {
            var source = new OwnerSource(owner, length);
            ThrowIfUnknown(flags);
            return SendZeroCopyCore(source, flags, WithinReleasing(source, timeout, cancellationToken));
        }

        /// <summary>Sends native memory without copying, waiting up to <paramref name="timeout"/>; on false or any exception
        /// <paramref name="release"/> has run already.</summary>
        /// <param name="data">The bytes.</param>
        /// <param name="size">Their size.</param>
        /// <param name="release">The release callback.</param>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="flags">Send flags.</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True if the message was queued; false if the timeout passed first.</returns>
        public bool TrySendZeroCopy(IntPtr data, int size, Action<IntPtr> release, TimeSpan timeout, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default)
        {
            var source = new NativeSource(data, size, release);
            ThrowIfUnknown(flags);
            return SendZeroCopyCore(source, flags, WithinReleasing(source, timeout, cancellationToken));
        }

        /// <summary>The wait of a timed zero-copy send; a bad timeout or a cancelled token releases the memory before throwing,
        /// because ownership passed to the call with its (valid) memory arguments.</summary>
        private static TransferWait WithinReleasing<TSource>(TSource source, TimeSpan timeout, CancellationToken cancellationToken)
            where TSource : struct, IZeroCopySource
        {
            try
            {
                return TransferWait.Within(timeout, cancellationToken);
            }
            catch
            {
                ZeroCopyInit.ReleaseUnsent(source);
                throw;
            }
        }

        private bool SendZeroCopyCore<TSource>(TSource source, SendFlags flags, TransferWait wait)
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

            Message scratch = TakeScratch(ref _zeroCopyScratch);
            try
            {
                void* msg = scratch.UnguardedPointer;

                // The scratch message is empty here (new, or emptied by the previous successful send): closing it frees nothing.
                Interop.Zmq.zmq_msg_close(msg);
                ZeroCopyInit.Init(msg, source);
                bool sent = false;
                try
                {
                    var op = new MessageSend(scratch);
                    sent = Transfer(ref op, (int)flags, wait) >= 0;
                    return sent;
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
                ReturnScratch(ref _zeroCopyScratch, scratch, 0);
                Exit();
            }
        }
    }
}
