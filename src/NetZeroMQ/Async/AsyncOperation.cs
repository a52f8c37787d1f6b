#if NET
using System;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

namespace NetZeroMQ
{
    /// <summary>
    /// The one pending async send or receive of a socket (one instance per direction, reused for every operation, so an
    /// operation that has to wait allocates nothing). It is the <see cref="IValueTaskSource"/> behind the returned
    /// <see cref="ValueTask"/>.
    /// </summary>
    /// <remarks>
    /// States: Idle → Pending (started, waiting for readiness) ⇄ Attempting (a thread that holds the socket's guard is trying
    /// the non-blocking call) → Completed (result set; back to Idle when awaited). Cancellation and Dispose request an abort;
    /// whoever moves the operation out of Pending completes it, so a message that was received is never dropped by a
    /// cancellation that loses the race: the receive wins.
    /// </remarks>
    internal sealed unsafe class AsyncOperation : IValueTaskSource<RecvResult>, IValueTaskSource<int>, IValueTaskSource
    {
        private const int Idle = 0;
        private const int Pending = 1;
        private const int Attempting = 2;
        private const int Completed = 3;

        /// <summary>What <see cref="Invoke"/> returns for "would block" when the call reports it as a value, not through errno.</summary>
        private const int WouldBlock = -2;

        private const int NoAbort = 0;
        private const int AbortCanceled = 1;
        private const int AbortDisposed = 2;

        private static readonly Action<object?> s_onCanceled = static op => ((AsyncOperation)op!).RequestAbort(AbortCanceled);

        private readonly Socket _socket;
        private readonly bool _isSend;
        private ManualResetValueTaskSourceCore<int> _core;
        private int _state;
        private int _abort;

        private Memory<byte> _buffer;
        private ReadOnlyMemory<byte> _data;
        private Message? _message;
        private MultipartMessage? _multipart;
        private int _flags;
        private CancellationToken _cancellationToken;
        private CancellationTokenRegistration _registration;

        internal AsyncOperation(Socket socket, bool isSend)
        {
            _socket = socket;
            _isSend = isSend;
            _core.RunContinuationsAsynchronously = true;
        }

        /// <summary>Whether an operation waits for readiness (a hint; the state machine decides).</summary>
        internal bool IsPending => Volatile.Read(ref _state) == Pending;

        internal short StartReceive(Memory<byte> buffer, CancellationToken cancellationToken)
        {
            Begin(cancellationToken);
            _buffer = buffer;
            return Register(cancellationToken);
        }

        internal short StartReceive(Message message, CancellationToken cancellationToken)
        {
            Begin(cancellationToken);
            _message = message;
            return Register(cancellationToken);
        }

        internal short StartSend(ReadOnlyMemory<byte> data, SendFlags flags, CancellationToken cancellationToken)
        {
            Begin(cancellationToken);
            _data = data;
            _flags = (int)flags;
            return Register(cancellationToken);
        }

        internal short StartMultipart(MultipartMessage message, CancellationToken cancellationToken)
        {
            Begin(cancellationToken);
            _multipart = message;
            return Register(cancellationToken);
        }

        internal short StartSend(Message message, SendFlags flags, CancellationToken cancellationToken)
        {
            Begin(cancellationToken);
            _message = message;
            _flags = (int)flags;
            return Register(cancellationToken);
        }

        /// <summary>
        /// Tries the operation without blocking; the caller holds the socket's guard. Returns true if the operation is still
        /// pending afterwards and the socket's descriptor must be armed.
        /// </summary>
        internal bool TryAdvance()
        {
            if (Interlocked.CompareExchange(ref _state, Attempting, Pending) != Pending)
            {
                return false;
            }

            try
            {
                while (true)
                {
                    int rc = Invoke();
                    if (rc >= 0)
                    {
                        Complete(rc, null);
                        return false;
                    }

                    int errno = rc == WouldBlock ? ErrorMap.EAGAIN : Interop.Zmq.zmq_errno();
                    if (errno == ErrorMap.EINTR)
                    {
                        continue;
                    }

                    if (errno != ErrorMap.EAGAIN)
                    {
                        Complete(0, ZmqThrow.Create(errno, _isSend ? "send" : "receive"));
                        return false;
                    }

                    // libzmq's descriptor is edge-like: the call above may have consumed the very notification we would wait
                    // for. ZMQ_EVENTS processes what is pending; only if it still says "not ready" is waiting safe.
                    PollEvents events = _socket.GetEventsUnguarded();
                    if ((events & (_isSend ? PollEvents.Out : PollEvents.In)) != 0)
                    {
                        continue;
                    }

                    break;
                }
            }
            catch (Exception e)
            {
                Complete(0, e);
                return false;
            }

            Volatile.Write(ref _state, Pending);

            // An abort that arrived while this thread was attempting is finished here; otherwise the abort itself finished it.
            if (Volatile.Read(ref _abort) != NoAbort && Interlocked.CompareExchange(ref _state, Completed, Pending) == Pending)
            {
                CompleteAborted();
                return false;
            }

            return true;
        }

        /// <summary>Requests cancellation or disposal; completes at once if nobody is attempting the operation.</summary>
        internal void RequestAbort(int reason)
        {
            Interlocked.CompareExchange(ref _abort, reason, NoAbort);
            if (Interlocked.CompareExchange(ref _state, Completed, Pending) == Pending)
            {
                CompleteAborted();
            }
        }

        internal void RequestDisposeAbort() => RequestAbort(AbortDisposed);

        RecvResult IValueTaskSource<RecvResult>.GetResult(short token)
        {
            int length = _buffer.Length;
            int size = Finish(token);
            return new RecvResult(Math.Min(size, length), size);
        }

        int IValueTaskSource<int>.GetResult(short token) => Finish(token);

        void IValueTaskSource.GetResult(short token) => Finish(token);

        public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);

        public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
            _core.OnCompleted(continuation, state, token, flags);

        private void Begin(CancellationToken cancellationToken)
        {
            if (Interlocked.CompareExchange(ref _state, Pending, Idle) != Idle)
            {
                throw new InvalidOperationException(
                    "Another async " + (_isSend ? "send" : "receive") + " is still pending on this socket (or was not awaited). " +
                    "A socket allows one pending operation per direction.");
            }

            _core.Reset();
            _abort = NoAbort;
            _cancellationToken = cancellationToken;
        }

        private short Register(CancellationToken cancellationToken)
        {
            short version = _core.Version;
            if (cancellationToken.CanBeCanceled)
            {
                _registration = cancellationToken.UnsafeRegister(s_onCanceled, this);
            }

            return version;
        }

        private int Invoke()
        {
            if (_multipart is not null)
            {
                bool done = _isSend
                    ? _socket.SendMultipartUnguarded(_multipart, dontWait: true)
                    : _socket.RecvMultipartUnguarded(_multipart, dontWait: true);
                return done ? 0 : WouldBlock;
            }

            if (_message is not null)
            {
                void* msg = _message.Enter();
                try
                {
                    if (_isSend)
                    {
                        int sent = Interop.Zmq.zmq_msg_send(msg, _socket.NativeHandle, _flags | Interop.Zmq.ZMQ_DONTWAIT);
                        if (sent >= 0)
                        {
                            _message.OnSent();
                        }

                        return sent;
                    }

                    int received = Interop.Zmq.zmq_msg_recv(msg, _socket.NativeHandle, Interop.Zmq.ZMQ_DONTWAIT);
                    if (received >= 0)
                    {
                        _message.OnReceived(received);
                    }

                    return received;
                }
                finally
                {
                    _message.Exit();
                }
            }

            if (_isSend)
            {
                fixed (byte* p = _data.Span)
                {
                    return Interop.Zmq.zmq_send(_socket.NativeHandle, p, (nuint)_data.Length, _flags | Interop.Zmq.ZMQ_DONTWAIT);
                }
            }

            fixed (byte* p = _buffer.Span)
            {
                return Interop.Zmq.zmq_recv(_socket.NativeHandle, p, (nuint)_buffer.Length, Interop.Zmq.ZMQ_DONTWAIT);
            }
        }

        private void CompleteAborted()
        {
            Exception error = _abort == AbortCanceled
                ? new OperationCanceledException(_cancellationToken)
                : new ObjectDisposedException(typeof(Socket).FullName);
            Complete(0, error, alreadyCompleted: true);
        }

        private void Complete(int result, Exception? error, bool alreadyCompleted = false)
        {
            if (!alreadyCompleted)
            {
                Volatile.Write(ref _state, Completed);
            }

            if (error is null)
            {
                _core.SetResult(result);
            }
            else
            {
                _core.SetException(error);
            }
        }

        private int Finish(short token)
        {
            try
            {
                return _core.GetResult(token);
            }
            finally
            {
                _registration.Dispose();
                _registration = default;
                _buffer = default;
                _data = default;
                _message = null;
                _multipart = null;
                _cancellationToken = default;
                Volatile.Write(ref _state, Idle);
            }
        }
    }
}
#endif
