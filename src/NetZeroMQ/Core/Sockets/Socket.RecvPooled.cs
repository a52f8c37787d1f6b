using System;
using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Threading;

namespace NetZeroMQ
{
    public sealed unsafe partial class Socket
    {
        /// <summary>
        /// Receives one frame of any size into a buffer rented from <see cref="ArrayPool{T}.Shared"/>, sized exactly to the frame,
        /// waiting up to <see cref="ReceiveTimeout"/>. Dispose the result to return the array. In a loop that disposes each
        /// buffer, this allocates nothing.
        /// </summary>
        /// <returns>The frame.</returns>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed, see <see cref="Recv(Span{byte})"/>.</exception>
        public PooledBuffer RecvPooled()
        {
            RecvIntoPool(TransferWait.Blocking, out PooledBuffer? buffer);
            return buffer!;
        }

        /// <summary>Receives one frame into a pooled buffer if one is waiting; never blocks.</summary>
        /// <param name="buffer">The frame, or null when false is returned.</param>
        /// <returns>True if a frame was received.</returns>
        public bool TryRecvPooled([NotNullWhen(true)] out PooledBuffer? buffer) => RecvIntoPool(TransferWait.None, out buffer);

        /// <summary>Receives one frame into a pooled buffer, waiting up to <paramref name="timeout"/>; see
        /// <see cref="TryRecv(Span{byte}, TimeSpan, out RecvResult, CancellationToken)"/>.</summary>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="buffer">The frame, or null when false is returned.</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True if a frame was received; false if the timeout passed first.</returns>
        public bool TryRecvPooled(TimeSpan timeout, [NotNullWhen(true)] out PooledBuffer? buffer, CancellationToken cancellationToken = default) =>
            RecvIntoPool(TransferWait.Within(timeout, cancellationToken), out buffer);

        /// <summary>
        /// Receives one frame of any size and appends it to <paramref name="writer"/> (for example a reused
        /// <c>ArrayBufferWriter&lt;byte&gt;</c> or a pipe), waiting up to <see cref="ReceiveTimeout"/>: no truncation, no
        /// allocation of its own.
        /// </summary>
        /// <param name="writer">Where the frame's bytes go.</param>
        /// <returns>The frame's size in bytes.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="writer"/> is null.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed, see <see cref="Recv(Span{byte})"/>.</exception>
        public int Recv(IBufferWriter<byte> writer)
        {
            RecvIntoWriter(writer, TransferWait.Blocking, out int size);
            return size;
        }

        /// <summary>Receives one frame and appends it to <paramref name="writer"/> if one is waiting; never blocks.</summary>
        /// <param name="writer">Where the frame's bytes go.</param>
        /// <param name="size">The frame's size in bytes; 0 when false is returned (nothing was written).</param>
        /// <returns>True if a frame was received.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="writer"/> is null.</exception>
        public bool TryRecv(IBufferWriter<byte> writer, out int size) => RecvIntoWriter(writer, TransferWait.None, out size);

        /// <summary>Receives one frame and appends it to <paramref name="writer"/>, waiting up to <paramref name="timeout"/>; see
        /// <see cref="TryRecv(Span{byte}, TimeSpan, out RecvResult, CancellationToken)"/>.</summary>
        /// <param name="writer">Where the frame's bytes go.</param>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="size">The frame's size in bytes; 0 when false is returned (nothing was written).</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True if a frame was received; false if the timeout passed first.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="writer"/> is null.</exception>
        public bool TryRecv(IBufferWriter<byte> writer, TimeSpan timeout, out int size, CancellationToken cancellationToken = default) =>
            RecvIntoWriter(writer, TransferWait.Within(timeout, cancellationToken), out size);

        private bool RecvIntoWriter(IBufferWriter<byte> writer, TransferWait wait, out int size)
        {
            if (writer is null)
            {
                throw new ArgumentNullException(nameof(writer));
            }

            Enter();
            Message scratch = TakeScratch(ref _scratch);
            int received = -1;
            try
            {
                ReadOnlySpan<byte> frame = RecvIntoScratch(scratch, wait, out received);
                if (received < 0)
                {
                    size = 0;
                    return false;
                }

                size = received;
                frame.CopyTo(writer.GetSpan(size));
                writer.Advance(size);
                return true;
            }
            finally
            {
                ReturnScratch(ref _scratch, scratch, received);
                Exit();
            }
        }

        private bool RecvIntoPool(TransferWait wait, out PooledBuffer? buffer)
        {
            buffer = null;
            Enter();
            Message scratch = TakeScratch(ref _scratch);
            int size = -1;
            try
            {
                ReadOnlySpan<byte> frame = RecvIntoScratch(scratch, wait, out size);
                if (size < 0)
                {
                    return false;
                }

                buffer = PooledBuffer.Rent(size);
                frame.CopyTo(buffer.Span);
                return true;
            }
            finally
            {
                ReturnScratch(ref _scratch, scratch, size);
                Exit();
            }
        }
    }
}
