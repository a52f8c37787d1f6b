#if NET
using System;
using System.Buffers;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

namespace NetZeroMQ
{
    // Receives that hand the frame out as a new object. The first attempt is the socket's own TryRecvBytes (and siblings), which
    // receive into the socket's scratch message; a receive that has to wait uses the async side's scratch message. Either way
    // the frame is copied out under the same hold of the socket, and no call allocates a native message.
    public static partial class SocketAsyncExtensions
    {
        /// <summary>What a message <see cref="RecvAllAsync"/> yielded says when it is used after the loop ended.</summary>
        private const string RecvAllReuseHint =
            "This Message came from RecvAllAsync, which reuses one Message for every frame (the next iteration overwrites it) " +
            "and disposes it when the loop ends. To keep a frame, copy its content inside the loop: message.ToArray(), " +
            "message.GetString(), or CopyFrom into a Message of your own.";

        /// <summary>Receives one frame as a new byte array without blocking a thread.</summary>
        /// <param name="socket">The socket.</param>
        /// <param name="cancellationToken">Cancels the wait.</param>
        /// <returns>The frame's bytes.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
        public static ValueTask<byte[]> RecvBytesAsync(this Socket socket, CancellationToken cancellationToken = default) =>
            RecvFrameAsync<byte[]>(socket, FrameForm.Bytes, cancellationToken);

        /// <summary>Receives one frame as UTF-8 text without blocking a thread.</summary>
        /// <param name="socket">The socket.</param>
        /// <param name="cancellationToken">Cancels the wait.</param>
        /// <returns>The text (invalid UTF-8 becomes U+FFFD).</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
        public static ValueTask<string> RecvStringAsync(this Socket socket, CancellationToken cancellationToken = default) =>
            RecvFrameAsync<string>(socket, FrameForm.String, cancellationToken);

        /// <summary>Receives one frame into a buffer rented from <see cref="ArrayPool{T}.Shared"/>; dispose it to return the array.</summary>
        /// <param name="socket">The socket.</param>
        /// <param name="cancellationToken">Cancels the wait.</param>
        /// <returns>The frame.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
        public static ValueTask<PooledBuffer> RecvPooledAsync(this Socket socket, CancellationToken cancellationToken = default) =>
            RecvFrameAsync<PooledBuffer>(socket, FrameForm.Pooled, cancellationToken);

        /// <summary>
        /// Receives frames until cancelled, yielding the same <see cref="Message"/> each time (valid until the next iteration):
        /// a receive loop that allocates nothing per message.
        /// </summary>
        /// <remarks>The next iteration receives into the same message, overwriting the frame, and the loop disposes the message
        /// when it ends: to keep a frame, copy its content inside the loop (<see cref="Message.ToArray"/>, or
        /// <see cref="Message.CopyFrom"/> into a message of your own). A message used after the loop ended throws
        /// <see cref="ObjectDisposedException"/> saying so.</remarks>
        /// <param name="socket">The socket.</param>
        /// <param name="cancellationToken">Ends the loop with <see cref="OperationCanceledException"/>.</param>
        /// <returns>The frames, as they arrive.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null (when the loop starts).</exception>
        public static async IAsyncEnumerable<Message> RecvAllAsync(this Socket socket, [EnumeratorCancellation] CancellationToken cancellationToken = default)
        {
            ArgumentNullException.ThrowIfNull(socket);
            using var message = new Message { DisposedHint = RecvAllReuseHint };
            while (true)
            {
                await socket.RecvAsync(message, cancellationToken).ConfigureAwait(false);
                yield return message;
            }
        }

        /// <summary>Sends <paramref name="text"/> as one UTF-8 frame without blocking a thread (encoded into a pooled buffer).</summary>
        /// <param name="socket">The socket.</param>
        /// <param name="text">The text.</param>
        /// <param name="flags"><see cref="SendFlags.None"/> or <see cref="SendFlags.SendMore"/>.</param>
        /// <param name="cancellationToken">Cancels the wait.</param>
        /// <returns>A task that completes when the frame is queued.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> or <paramref name="text"/> is null.</exception>
        public static ValueTask SendAsync(this Socket socket, string text, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default)
        {
            ArgumentNullException.ThrowIfNull(socket);
            ArgumentNullException.ThrowIfNull(text);
            byte[] buffer = ArrayPool<byte>.Shared.Rent(System.Text.Encoding.UTF8.GetByteCount(text));
            ValueTask pending;
            try
            {
                int length = System.Text.Encoding.UTF8.GetBytes(text, 0, text.Length, buffer, 0);
                pending = socket.SendAsync(new ReadOnlyMemory<byte>(buffer, 0, length), flags, cancellationToken);
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

        /// <summary>A frame receive: errors, like the frame itself, come through the task (as they did when these methods
        /// awaited a receive into a new message).</summary>
        private static ValueTask<T> RecvFrameAsync<T>(Socket socket, FrameForm form, CancellationToken cancellationToken)
            where T : class
        {
            ArgumentNullException.ThrowIfNull(socket);
            if (cancellationToken.IsCancellationRequested)
            {
                return ValueTask.FromCanceled<T>(cancellationToken);
            }

            try
            {
                var transfer = AsyncTransfer.RecvFrame(form);
                if (transfer.TryNow(socket, out object? frame) >= 0)
                {
                    return new ValueTask<T>((T)frame!);
                }

                AsyncOperation op = Start(socket, transfer, cancellationToken, out short token);
                return new ValueTask<T>((IValueTaskSource<T>)(object)op, token);
            }
            catch (Exception e)
            {
                return ValueTask.FromException<T>(e);
            }
        }
    }
}
#endif
