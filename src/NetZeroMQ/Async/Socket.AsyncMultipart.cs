#if NET
using System;
using System.Threading;
using System.Threading.Tasks;

namespace NetZeroMQ
{
    public sealed partial class Socket
    {
        /// <summary>
        /// Sends every frame of <paramref name="message"/> as one multipart message without blocking a thread. The frames are
        /// checked first, and they go out together under one hold of the socket (libzmq can only refuse the first frame), so
        /// no other send can slip between them; on success the message is left empty, as <see cref="SendMultipart(MultipartMessage)"/>
        /// leaves it.
        /// </summary>
        /// <param name="message">The frames; do not use the message until the operation completes.</param>
        /// <param name="cancellationToken">Cancels the wait (nothing has been sent then).</param>
        /// <returns>A task that completes when the whole message is queued.</returns>
        /// <exception cref="ArgumentException">The message has no frames or a disposed frame.</exception>
        /// <exception cref="InvalidOperationException">Another send is pending on this socket.</exception>
        public ValueTask SendMultipartAsync(MultipartMessage message, CancellationToken cancellationToken = default)
        {
            ValidateMultipartForSend(message);
            ThrowIfInvalid(SendFlags.None);
            if (cancellationToken.IsCancellationRequested)
            {
                return ValueTask.FromCanceled(cancellationToken);
            }

            Enter();
            try
            {
                if (SendMultipartUnguarded(message, dontWait: true))
                {
                    return default;
                }

                AsyncOperation op = GetOrCreateAsyncState().Send;
                return new ValueTask(op, op.StartMultipart(message, cancellationToken));
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>
        /// Receives one whole multipart message into <paramref name="message"/> (replacing its frames, reusing their objects)
        /// without blocking a thread.
        /// </summary>
        /// <param name="message">Receives the frames; do not use it until the operation completes.</param>
        /// <param name="cancellationToken">Cancels the wait.</param>
        /// <returns>A task that completes when every frame of the message is in <paramref name="message"/>.</returns>
        /// <exception cref="InvalidOperationException">Another receive is pending on this socket.</exception>
        public ValueTask RecvMultipartAsync(MultipartMessage message, CancellationToken cancellationToken = default)
        {
            if (message is null)
            {
                throw new ArgumentNullException(nameof(message));
            }

            if (cancellationToken.IsCancellationRequested)
            {
                return ValueTask.FromCanceled(cancellationToken);
            }

            Enter();
            try
            {
                if (RecvMultipartUnguarded(message, dontWait: true))
                {
                    return default;
                }

                AsyncOperation op = GetOrCreateAsyncState().Receive;
                return new ValueTask(op, op.StartMultipart(message, cancellationToken));
            }
            finally
            {
                Exit();
            }
        }
    }
}
#endif
