#if NET
using System;
using System.Buffers;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

namespace NetZeroMQ
{
    // Conveniences built on RecvAsync(Message); in their own file because async methods cannot live in the unsafe parts.
    public sealed partial class Socket
    {
        /// <summary>Receives one frame as a new byte array without blocking a thread.</summary>
        /// <param name="cancellationToken">Cancels the wait.</param>
        /// <returns>The frame's bytes.</returns>
        public async ValueTask<byte[]> RecvBytesAsync(CancellationToken cancellationToken = default)
        {
            using var message = new Message();
            await RecvAsync(message, cancellationToken).ConfigureAwait(false);
            return message.ToArray();
        }

        /// <summary>Receives one frame as UTF-8 text without blocking a thread.</summary>
        /// <param name="cancellationToken">Cancels the wait.</param>
        /// <returns>The text (invalid UTF-8 becomes U+FFFD).</returns>
        public async ValueTask<string> RecvStringAsync(CancellationToken cancellationToken = default)
        {
            using var message = new Message();
            await RecvAsync(message, cancellationToken).ConfigureAwait(false);
            return message.GetString();
        }

        /// <summary>Receives one frame into a buffer rented from <see cref="System.Buffers.ArrayPool{T}.Shared"/>; dispose it to return the array.</summary>
        /// <param name="cancellationToken">Cancels the wait.</param>
        /// <returns>The frame.</returns>
        public async ValueTask<PooledBuffer> RecvPooledAsync(CancellationToken cancellationToken = default)
        {
            using var message = new Message();
            await RecvAsync(message, cancellationToken).ConfigureAwait(false);
            PooledBuffer buffer = PooledBuffer.Rent(message.Size);
            message.CopyTo(buffer.Span);
            return buffer;
        }

        /// <summary>
        /// Receives frames until cancelled, yielding the same <see cref="Message"/> each time (valid until the next iteration):
        /// a receive loop that allocates nothing per message.
        /// </summary>
        /// <param name="cancellationToken">Ends the loop with <see cref="OperationCanceledException"/>.</param>
        /// <returns>The frames, as they arrive.</returns>
        public async IAsyncEnumerable<Message> RecvAllAsync([EnumeratorCancellation] CancellationToken cancellationToken = default)
        {
            using var message = new Message();
            while (true)
            {
                await RecvAsync(message, cancellationToken).ConfigureAwait(false);
                yield return message;
            }
        }

        /// <summary>Sends <paramref name="text"/> as one UTF-8 frame without blocking a thread (encoded into a pooled buffer).</summary>
        /// <param name="text">The text.</param>
        /// <param name="flags"><see cref="SendFlags.None"/> or <see cref="SendFlags.SendMore"/>.</param>
        /// <param name="cancellationToken">Cancels the wait.</param>
        /// <returns>A task that completes when the frame is queued.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
        public ValueTask SendAsync(string text, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default)
        {
            if (text is null)
            {
                throw new ArgumentNullException(nameof(text));
            }

            byte[] buffer = ArrayPool<byte>.Shared.Rent(System.Text.Encoding.UTF8.GetByteCount(text));
            ValueTask pending;
            try
            {
                int length = System.Text.Encoding.UTF8.GetBytes(text, 0, text.Length, buffer, 0);
                pending = SendAsync(new ReadOnlyMemory<byte>(buffer, 0, length), flags, cancellationToken);
            }
            catch
            {
                ArrayPool<byte>.Shared.Return(buffer);
                throw;
            }

            if (pending.IsCompleted)
            {
                ArrayPool<byte>.Shared.Return(buffer);
                return pending;
            }

            return ReturnWhenSent(pending, buffer);
        }

        private static async ValueTask ReturnWhenSent(ValueTask pending, byte[] buffer)
        {
            try
            {
                await pending.ConfigureAwait(false);
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }
        }
    }
}
#endif
