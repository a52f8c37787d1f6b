#if NET
using System;
using System.Threading;
using System.Threading.Tasks;

namespace NetZeroMQ
{
    /// <summary>Sends and receives on a <see cref="Socket"/> without blocking a thread: <c>await socket.RecvAsync(buffer)</c>.</summary>
    /// <remarks>
    /// <para>Each async method first makes the non-blocking call (<c>TryRecv</c>, <c>TrySend</c>, ...) on the calling thread,
    /// which is the common case and completes synchronously without allocating. Only if the socket is not ready does the
    /// operation wait: the socket's <c>ZMQ_FD</c> is armed in the process-wide reactor (one thread), and the operation
    /// completes when the socket is ready, with its continuation on the thread pool. No thread is blocked and nothing sleeps per
    /// pending operation, and a waiting operation allocates nothing (each socket reuses one operation object per direction).</para>
    /// <para>One receive and one send may be pending at the same time; a second one in the same direction throws
    /// <see cref="InvalidOperationException"/>. The draft thread-safe types (<c>NetZeroMQ.Draft.DraftSockets</c>: SERVER, CLIENT,
    /// RADIO, DISH, SCATTER, GATHER, PEER, CHANNEL) are the exception: any number of sends and receives may be pending at once,
    /// started from any threads, each receive getting a different message; they wait through a draft <c>zmq_poller</c>'s
    /// descriptor in the same reactor (they have no <c>ZMQ_FD</c>), and their operations are pooled, so a wait allocates
    /// nothing in steady state. Cancellation completes a pending operation at once with
    /// <see cref="OperationCanceledException"/> and leaves the socket usable (a message that was already received is delivered,
    /// never dropped). <see cref="Socket.Dispose"/> completes pending operations with <see cref="ObjectDisposedException"/>;
    /// <see cref="Context.Shutdown"/> with <see cref="ZmqError.ContextTerminated"/>. The reactor does not keep a socket alive:
    /// a socket abandoned without <see cref="Socket.Dispose"/> (with nothing else holding it, such as the task of an operation
    /// pending on a thread-safe socket, or a long-lived cancellation token that operation registered with) is closed by the
    /// finalizer like any other, releasing its descriptors, and what was pending on it ends then with
    /// <see cref="ObjectDisposedException"/> (its message says that the socket was never disposed).</para>
    /// <para>Where continuations run: an operation that had to wait is completed by the reactor thread, which queues its
    /// continuation to the thread pool; with the AppContext switch <c>NetZeroMQ.InlineAsyncCompletions</c> (<c>true</c>) it
    /// runs the continuation itself, after releasing the socket, which saves a thread switch per wait but stops every other
    /// async wait while a continuation runs: a send or receive that would wait throws <see cref="InvalidOperationException"/>
    /// there (docs/async.md, "Where continuations run").</para>
    /// <para>Threading: continuations may resume on any thread; the socket's guard (a full fence per call) makes that migration
    /// safe, as libzmq requires. Do not use the socket from another thread while you await it, except through the async
    /// methods themselves (a thread-safe draft socket may be used from any thread at any time). Async needs a .NET 8+
    /// target.</para>
    /// <para>The reactor: on Linux, epoll; everywhere else (Windows, where <c>ZMQ_FD</c> is a SOCKET, macOS, ...) a portable
    /// reactor that waits in <c>zmq_poll</c> on the armed descriptors. On Linux the portable one is selected with the
    /// AppContext switch <c>NetZeroMQ.UsePortableReactor</c> (<c>true</c>; runtimeconfig.json,
    /// <c>&lt;RuntimeHostConfigurationOption&gt;</c>, or <c>AppContext.SetSwitch</c> before the first async call), read once
    /// when the first operation that waits starts the reactor. If the reactor's wait ever fails for good, the reactor stops: every pending
    /// and later async wait ends with a <see cref="ZmqException"/> that says why, and the blocking API goes on working.</para>
    /// </remarks>
    public static partial class SocketAsyncExtensions
    {
        /// <summary>Receives one frame into <paramref name="buffer"/> without blocking a thread.</summary>
        /// <param name="socket">The socket.</param>
        /// <param name="buffer">Where the frame goes; it must stay valid until the operation completes.</param>
        /// <param name="cancellationToken">Cancels the wait.</param>
        /// <returns>Bytes written and the frame's real size (see <see cref="RecvResult.IsTruncated"/>).</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
        /// <exception cref="InvalidOperationException">Another receive is pending on this socket.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed, before or while waiting.</exception>
        /// <exception cref="OperationCanceledException">The token was cancelled while waiting.</exception>
        /// <exception cref="ZmqException">libzmq failed, for example <see cref="ZmqError.ContextTerminated"/>.</exception>
        public static ValueTask<RecvResult> RecvAsync(this Socket socket, Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            ArgumentNullException.ThrowIfNull(socket);
            if (cancellationToken.IsCancellationRequested)
            {
                return ValueTask.FromCanceled<RecvResult>(cancellationToken);
            }

            var transfer = AsyncTransfer.Recv(buffer);
            int size = transfer.TryNow(socket, out _);
            if (size >= 0)
            {
                return new ValueTask<RecvResult>(new RecvResult(Math.Min(size, buffer.Length), size));
            }

            AsyncOperation op = Start(socket, transfer, cancellationToken, out short token);
            return new ValueTask<RecvResult>(op, token);
        }

        /// <summary>Receives one frame into <paramref name="message"/> (replacing its content) without blocking a thread.</summary>
        /// <param name="socket">The socket.</param>
        /// <param name="message">The message that receives the frame; do not use it until the operation completes.</param>
        /// <param name="cancellationToken">Cancels the wait.</param>
        /// <returns>A task that completes when the frame is in <paramref name="message"/>.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> or <paramref name="message"/> is null.</exception>
        /// <exception cref="InvalidOperationException">Another receive is pending on this socket.</exception>
        public static ValueTask RecvAsync(this Socket socket, Message message, CancellationToken cancellationToken = default)
        {
            ArgumentNullException.ThrowIfNull(message);
            return Run(socket, AsyncTransfer.Recv(message), cancellationToken);
        }

        /// <summary>Sends one frame copied from <paramref name="data"/> without blocking a thread (waits at the high-water mark).</summary>
        /// <param name="socket">The socket.</param>
        /// <param name="data">The frame; it must stay unchanged until the operation completes.</param>
        /// <param name="flags"><see cref="SendFlags.None"/> or <see cref="SendFlags.SendMore"/>.</param>
        /// <param name="cancellationToken">Cancels the wait.</param>
        /// <returns>A task that completes when the frame is queued.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
        /// <exception cref="InvalidOperationException">Another send is pending on this socket.</exception>
        public static ValueTask SendAsync(this Socket socket, ReadOnlyMemory<byte> data, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default)
        {
            ThrowIfInvalidAsync(flags);
            return Run(socket, AsyncTransfer.Send(data, flags), cancellationToken);
        }

        /// <summary>Sends a <see cref="Message"/> without blocking a thread; on success it is left empty.</summary>
        /// <param name="socket">The socket.</param>
        /// <param name="message">The message; do not use it until the operation completes.</param>
        /// <param name="flags"><see cref="SendFlags.None"/> or <see cref="SendFlags.SendMore"/>.</param>
        /// <param name="cancellationToken">Cancels the wait (the message then keeps its content).</param>
        /// <returns>A task that completes when the message is queued.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> or <paramref name="message"/> is null.</exception>
        public static ValueTask SendAsync(this Socket socket, Message message, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default)
        {
            ArgumentNullException.ThrowIfNull(message);
            ThrowIfInvalidAsync(flags);
            return Run(socket, AsyncTransfer.Send(message, flags), cancellationToken);
        }

        /// <summary>
        /// Sends every frame of <paramref name="message"/> as one multipart message without blocking a thread. The frames are
        /// checked first, and they go out together under one hold of the socket (libzmq can only refuse the first frame), so
        /// no other send can slip between them; on success the message is left empty, as
        /// <see cref="Socket.SendMultipart(MultipartMessage)"/> leaves it.
        /// </summary>
        /// <param name="socket">The socket.</param>
        /// <param name="message">The frames; do not use the message until the operation completes.</param>
        /// <param name="cancellationToken">Cancels the wait (nothing has been sent then).</param>
        /// <returns>A task that completes when the whole message is queued.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> or <paramref name="message"/> is null.</exception>
        /// <exception cref="ArgumentException">The message has no frames or a disposed frame.</exception>
        /// <exception cref="InvalidOperationException">Another send is pending on this socket.</exception>
        public static ValueTask SendMultipartAsync(this Socket socket, MultipartMessage message, CancellationToken cancellationToken = default)
        {
            // The first attempt (TrySendMultipart) checks every frame before the first goes out; retries send the checked message.
            ArgumentNullException.ThrowIfNull(message);
            return Run(socket, AsyncTransfer.SendMultipart(message), cancellationToken);
        }

        /// <summary>
        /// Receives one whole multipart message into <paramref name="message"/> (replacing its frames, reusing their objects)
        /// without blocking a thread.
        /// </summary>
        /// <param name="socket">The socket.</param>
        /// <param name="message">Receives the frames; do not use it until the operation completes.</param>
        /// <param name="cancellationToken">Cancels the wait.</param>
        /// <returns>A task that completes when every frame of the message is in <paramref name="message"/>.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> or <paramref name="message"/> is null.</exception>
        /// <exception cref="InvalidOperationException">Another receive is pending on this socket.</exception>
        public static ValueTask RecvMultipartAsync(this Socket socket, MultipartMessage message, CancellationToken cancellationToken = default)
        {
            ArgumentNullException.ThrowIfNull(message);
            return Run(socket, AsyncTransfer.RecvMultipart(message), cancellationToken);
        }
        /// <summary>An async call whose task carries no result: the first attempt, then a wait if it would block.</summary>
        private static ValueTask Run(Socket socket, in AsyncTransfer transfer, CancellationToken cancellationToken)
        {
            ArgumentNullException.ThrowIfNull(socket);
            if (cancellationToken.IsCancellationRequested)
            {
                return ValueTask.FromCanceled(cancellationToken);
            }

            if (transfer.TryNow(socket, out _) >= 0)
            {
                return default;
            }

            AsyncOperation op = Start(socket, transfer, cancellationToken, out short token);
            return new ValueTask(op, token);
        }

        /// <summary>
        /// The first attempt would block: make <paramref name="transfer"/> the socket's pending send or receive (attaching the
        /// async side on first need). Ending the claim retries it at once (the socket may have become ready since the first
        /// attempt) and arms the socket's descriptor in the reactor if it still has to wait.
        /// </summary>
        private static AsyncOperation Start(Socket socket, in AsyncTransfer transfer, CancellationToken cancellationToken, out short token)
        {
            using SocketLease lease = socket.Lease();
            if (lease.IsThreadSafe)
            {
                // No ZMQ_FD there: a draft poller's descriptor waits instead, for any number of pending operations.
                return ThreadSafeAsyncState.Of(lease).Start(lease, transfer, cancellationToken, out token);
            }

            return SocketAsyncState.Of(lease).Start(transfer, cancellationToken, out token);
        }

        private static void ThrowIfInvalidAsync(SendFlags flags)
        {
            if ((flags & ~SendFlags.SendMore) != 0)
            {
                throw new ArgumentOutOfRangeException(nameof(flags), flags, "Async sends take SendFlags.None or SendFlags.SendMore.");
            }
        }
    }
}
#endif
