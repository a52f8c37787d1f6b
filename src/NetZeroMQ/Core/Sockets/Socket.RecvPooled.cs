using System;
using System.Buffers;
using System.Diagnostics.CodeAnalysis;

namespace NetZeroMQ
{
    public sealed unsafe partial class Socket
    {
        /// <summary>
        /// Receives one frame of any size into a buffer rented from <see cref="ArrayPool{T}.Shared"/>, sized exactly to the frame.
        /// Dispose the result to return the array. In a loop that disposes each buffer, this allocates nothing.
        /// </summary>
        /// <param name="flags"><see cref="RecvFlags.DontWait"/> to fail instead of waiting.</param>
        /// <returns>The frame.</returns>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed, see <see cref="Recv(Span{byte}, RecvFlags)"/>.</exception>
        public PooledBuffer RecvPooled(RecvFlags flags = RecvFlags.None)
        {
            RecvIntoPool(flags, throwIfWouldBlock: true, out PooledBuffer? buffer);
            return buffer!;
        }

        /// <summary>Receives one frame into a pooled buffer if one is waiting; never blocks.</summary>
        /// <param name="buffer">The frame, or null when false is returned.</param>
        /// <returns>True if a frame was received.</returns>
        public bool TryRecvPooled([NotNullWhen(true)] out PooledBuffer? buffer) =>
            RecvIntoPool(RecvFlags.DontWait, throwIfWouldBlock: false, out buffer);

        /// <summary>
        /// Receives one frame of any size and appends it to <paramref name="writer"/> (for example a reused
        /// <c>ArrayBufferWriter&lt;byte&gt;</c> or a pipe): no truncation, no allocation of its own.
        /// </summary>
        /// <param name="writer">Where the frame's bytes go.</param>
        /// <param name="flags"><see cref="RecvFlags.DontWait"/> to fail instead of waiting.</param>
        /// <returns>The frame's size in bytes.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="writer"/> is null.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed, see <see cref="Recv(Span{byte}, RecvFlags)"/>.</exception>
        public int Recv(IBufferWriter<byte> writer, RecvFlags flags = RecvFlags.None)
        {
            if (writer is null)
            {
                throw new ArgumentNullException(nameof(writer));
            }

            ThrowIfInvalid(flags);
            Enter();
            try
            {
                ReadOnlySpan<byte> frame = RecvIntoScratch(flags, throwIfWouldBlock: true, out int size);
                frame.CopyTo(writer.GetSpan(size));
                writer.Advance(size);
                ReleaseLargeScratch(size);
                return size;
            }
            finally
            {
                Exit();
            }
        }

        private bool RecvIntoPool(RecvFlags flags, bool throwIfWouldBlock, out PooledBuffer? buffer)
        {
            ThrowIfInvalid(flags);
            buffer = null;
            Enter();
            try
            {
                ReadOnlySpan<byte> frame = RecvIntoScratch(flags, throwIfWouldBlock, out int size);
                if (size < 0)
                {
                    return false;
                }

                buffer = PooledBuffer.Rent(size);
                frame.CopyTo(buffer.Span);
                ReleaseLargeScratch(size);
                return true;
            }
            finally
            {
                Exit();
            }
        }
    }
}
