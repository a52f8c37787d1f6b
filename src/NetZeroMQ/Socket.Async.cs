#if NET
using System;
using System.Threading;
using System.Threading.Tasks;

namespace NetZeroMQ
{
    /// <remarks>
    /// <para><b>Async.</b> Each async method first tries the non-blocking call on the calling thread, which is the common case
    /// and completes synchronously without allocating. Only if the socket is not ready does the operation wait: the socket's
    /// <c>ZMQ_FD</c> is armed in the process-wide reactor (one thread, epoll), and the operation completes when the socket is
    /// ready, with its continuation on the thread pool. No thread is blocked and nothing sleeps per pending operation, and a
    /// waiting operation allocates nothing (each socket reuses one operation object per direction).</para>
    /// <para>One receive and one send may be pending at the same time; a second one in the same direction throws
    /// <see cref="InvalidOperationException"/>. Cancellation completes a pending operation at once with
    /// <see cref="OperationCanceledException"/> and leaves the socket usable (a message that was already received is delivered,
    /// never dropped). <see cref="Dispose"/> completes pending operations with <see cref="ObjectDisposedException"/>;
    /// <see cref="Context.Shutdown"/> with <see cref="ZmqError.ContextTerminated"/>.</para>
    /// <para>Threading: continuations may resume on any thread; the socket's guard (a full fence per call) makes that migration
    /// safe, as libzmq requires. Do not use the socket from another thread while you await it, except through the async
    /// methods themselves. Async needs a .NET 8+ target; the reactor exists for Linux (epoll) today.</para>
    /// </remarks>
    public sealed unsafe partial class Socket
    {
        /// <summary>Receives one frame into <paramref name="buffer"/> without blocking a thread.</summary>
        /// <param name="buffer">Where the frame goes; it must stay valid until the operation completes.</param>
        /// <param name="cancellationToken">Cancels the wait.</param>
        /// <returns>Bytes written and the frame's real size (see <see cref="RecvResult.IsTruncated"/>).</returns>
        /// <exception cref="InvalidOperationException">Another receive is pending on this socket.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed, before or while waiting.</exception>
        /// <exception cref="OperationCanceledException">The token was cancelled while waiting.</exception>
        /// <exception cref="ZmqException">libzmq failed, for example <see cref="ZmqError.ContextTerminated"/>.</exception>
        public ValueTask<RecvResult> RecvAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            if (cancellationToken.IsCancellationRequested)
            {
                return ValueTask.FromCanceled<RecvResult>(cancellationToken);
            }

            Enter();
            try
            {
                int size;
                fixed (byte* p = buffer.Span)
                {
                    size = Interop.Zmq.zmq_recv(_socket, p, (nuint)buffer.Length, Interop.Zmq.ZMQ_DONTWAIT);
                }

                if (size >= 0)
                {
                    return new ValueTask<RecvResult>(new RecvResult(Math.Min(size, buffer.Length), size));
                }

                ThrowUnlessWouldBlock("receive");
                AsyncOperation op = GetOrCreateAsyncState().Receive;
                return new ValueTask<RecvResult>(op, op.StartReceive(buffer, cancellationToken));
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Receives one frame into <paramref name="message"/> (replacing its content) without blocking a thread.</summary>
        /// <param name="message">The message that receives the frame; do not use it until the operation completes.</param>
        /// <param name="cancellationToken">Cancels the wait.</param>
        /// <returns>A task that completes when the frame is in <paramref name="message"/>.</returns>
        /// <exception cref="InvalidOperationException">Another receive is pending on this socket.</exception>
        public ValueTask RecvAsync(Message message, CancellationToken cancellationToken = default)
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
                void* msg = message.Enter();
                int size;
                try
                {
                    size = Interop.Zmq.zmq_msg_recv(msg, _socket, Interop.Zmq.ZMQ_DONTWAIT);
                    if (size >= 0)
                    {
                        message.OnReceived(size);
                        return default;
                    }

                    ThrowUnlessWouldBlock("receive");
                }
                finally
                {
                    message.Exit();
                }

                AsyncOperation op = GetOrCreateAsyncState().Receive;
                return new ValueTask(op, op.StartReceive(message, cancellationToken));
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Sends one frame copied from <paramref name="data"/> without blocking a thread (waits at the high-water mark).</summary>
        /// <param name="data">The frame; it must stay unchanged until the operation completes.</param>
        /// <param name="flags"><see cref="SendFlags.None"/> or <see cref="SendFlags.SendMore"/>; async sends never block,
        /// so <see cref="SendFlags.DontWait"/> is not accepted (use <c>TrySend</c>).</param>
        /// <param name="cancellationToken">Cancels the wait.</param>
        /// <returns>A task that completes when the frame is queued.</returns>
        /// <exception cref="InvalidOperationException">Another send is pending on this socket.</exception>
        public ValueTask SendAsync(ReadOnlyMemory<byte> data, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default)
        {
            ThrowIfInvalidAsync(flags);
            if (cancellationToken.IsCancellationRequested)
            {
                return ValueTask.FromCanceled(cancellationToken);
            }

            Enter();
            try
            {
                int rc;
                fixed (byte* p = data.Span)
                {
                    rc = Interop.Zmq.zmq_send(_socket, p, (nuint)data.Length, (int)flags | Interop.Zmq.ZMQ_DONTWAIT);
                }

                if (rc >= 0)
                {
                    return default;
                }

                ThrowUnlessWouldBlock("send");
                AsyncOperation op = GetOrCreateAsyncState().Send;
                return new ValueTask(op, op.StartSend(data, flags, cancellationToken));
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Sends a <see cref="Message"/> without blocking a thread; on success it is left empty.</summary>
        /// <param name="message">The message; do not use it until the operation completes.</param>
        /// <param name="flags"><see cref="SendFlags.None"/> or <see cref="SendFlags.SendMore"/>.</param>
        /// <param name="cancellationToken">Cancels the wait (the message then keeps its content).</param>
        /// <returns>A task that completes when the message is queued.</returns>
        public ValueTask SendAsync(Message message, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default)
        {
            if (message is null)
            {
                throw new ArgumentNullException(nameof(message));
            }

            ThrowIfInvalidAsync(flags);
            if (cancellationToken.IsCancellationRequested)
            {
                return ValueTask.FromCanceled(cancellationToken);
            }

            Enter();
            try
            {
                void* msg = message.Enter();
                try
                {
                    if (Interop.Zmq.zmq_msg_send(msg, _socket, (int)flags | Interop.Zmq.ZMQ_DONTWAIT) >= 0)
                    {
                        message.OnSent();
                        return default;
                    }

                    ThrowUnlessWouldBlock("send");
                }
                finally
                {
                    message.Exit();
                }

                AsyncOperation op = GetOrCreateAsyncState().Send;
                return new ValueTask(op, op.StartSend(message, flags, cancellationToken));
            }
            finally
            {
                Exit();
            }
        }

        private static void ThrowUnlessWouldBlock(string operation)
        {
            int errno = Interop.Zmq.zmq_errno();
            if (errno != ErrorMap.EAGAIN && errno != ErrorMap.EINTR)
            {
                ZmqThrow.Error(errno, operation);
            }
        }

        /// <summary>The async sends' check: their own flag rule, then the same refusal after a broken multipart send as every send.</summary>
        private void ThrowIfInvalidAsync(SendFlags flags)
        {
            if ((flags & ~SendFlags.SendMore) != 0)
            {
                throw new ArgumentOutOfRangeException(nameof(flags), flags, "Async sends take None or SendMore; they never block, so DontWait does not apply (use TrySend).");
            }

            ThrowIfInvalid(flags);
        }
    }
}
#endif
