#if NET
using System;
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
            message.Data.CopyTo(buffer.Span);
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
    }
}
#endif
