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
    /// <see cref="ValueTask"/>; what it moves is one <see cref="AsyncTransfer"/>, and every retry is that transfer's one
    /// non-blocking attempt.
    /// </summary>
    /// <remarks>
    /// States: Idle → Pending (started, waiting for readiness) ⇄ Attempting (a thread that holds the socket's guard is trying
    /// the non-blocking call) → Completed (result set; back to Idle when awaited). Cancellation and Dispose request an abort;
    /// whoever moves the operation out of Pending completes it, so a message that was received is never dropped by a
    /// cancellation that loses the race: the receive wins.
    /// </remarks>
    internal sealed class AsyncOperation :
        IValueTaskSource,
        IValueTaskSource<RecvResult>,
        IValueTaskSource<byte[]>,
        IValueTaskSource<string>,
        IValueTaskSource<PooledBuffer>
    {
        private const int Idle = 0;
        private const int Pending = 1;
        private const int Attempting = 2;
        private const int Completed = 3;

        private const int NoAbort = 0;
        private const int AbortCanceled = 1;
        private const int AbortDisposed = 2;
        private const int AbortFailed = 3;

        private static readonly Action<object?> s_onCanceled = static op => ((AsyncOperation)op!).RequestAbort(AbortCanceled);

        private readonly bool _isSend;
        private ManualResetValueTaskSourceCore<int> _core;
        private int _state;
        private int _abort;

        /// <summary>Why <see cref="AbortFailed"/> ended the operation (<see cref="RequestFail"/>).</summary>
        private Exception? _failure;

        private AsyncTransfer _transfer;

        /// <summary>A frame receive's copy, handed out by GetResult.</summary>
        private object? _frame;
        private CancellationToken _cancellationToken;
        private CancellationTokenRegistration _registration;

        /// <summary>The thread-safe socket's async side that pools this operation (null: a socket's own per-direction one).</summary>
        private readonly ThreadSafeAsyncState? _pool;

        internal AsyncOperation(bool isSend, ThreadSafeAsyncState? pool = null)
        {
            _isSend = isSend;
            _pool = pool;
        }

        /// <summary>Whether this operation sends.</summary>
        internal bool IsSend => _isSend;

        /// <summary>Whether an operation waits for readiness (a hint; the state machine decides).</summary>
        internal bool IsPending => Volatile.Read(ref _state) == Pending;

        /// <summary>
        /// Whether the last <see cref="TryAdvance"/> left the operation waiting although <c>ZMQ_EVENTS</c> said the socket was
        /// ready in its direction: a readiness it cannot use (see there). Read by the holder of the socket's guard.
        /// </summary>
        internal bool WaitsDespiteReadiness { get; private set; }

        /// <summary>Starts waiting to make <paramref name="transfer"/>; returns the token of the <see cref="ValueTask"/> to hand out.</summary>
        /// <exception cref="InvalidOperationException">An operation in this direction is pending already.</exception>
        internal short Start(in AsyncTransfer transfer, CancellationToken cancellationToken)
        {
            if (Interlocked.CompareExchange(ref _state, Pending, Idle) != Idle)
            {
                throw new InvalidOperationException(
                    "Another async " + (_isSend ? "send" : "receive") + " is still pending on this socket (or was not awaited). " +
                    "A socket allows one pending operation per direction.");
            }

            TelemetryCounters.PendingAsync(+1);
            _core.Reset();

            // Asynchronous unless the reactor signals it inline (SignalInline, which turns this off just before it signals):
            // set here, before the operation can complete, so that no other thread's completion ever runs a continuation
            // inline, also when the inline continuation of this operation's previous run is what starts this one.
            _core.RunContinuationsAsynchronously = true;
            _abort = NoAbort;
            _failure = null;
            _transfer = transfer;
            _cancellationToken = cancellationToken;
            short version = _core.Version;
            if (cancellationToken.CanBeCanceled)
            {
                _registration = cancellationToken.UnsafeRegister(s_onCanceled, this);
            }

            return version;
        }

        /// <summary>
        /// Tries the operation without blocking, by the holder of <paramref name="lease"/>. Returns true if the operation is
        /// still pending afterwards and the socket's descriptor must be armed.
        /// </summary>
        /// <remarks>
        /// With <paramref name="untilEventsSayWait"/> (a socket's own descriptor) it reads <c>ZMQ_EVENTS</c> first and attempts
        /// only while that says ready, so it ends either with the operation done or with <c>ZMQ_EVENTS</c> as the last call
        /// (what makes waiting on the edge-like descriptor safe), except where the readiness cannot be used: a ROUTER with
        /// <c>ROUTER_MANDATORY</c> or an XPUB with <c>XPUB_NODROP</c> reports writable while any peer has room, and a send to a
        /// peer whose queue is full still would block, for as long as that peer does not read. Asking and attempting again
        /// would spin (and never return from the call that started the operation), so after two attempts that readiness
        /// allowed and libzmq refused, the operation waits (<see cref="WaitsDespiteReadiness"/>): each of those attempts looked
        /// at libzmq's commands first, so the descriptor signals the next one, which the peer's reading sends; the socket's
        /// async side also retries it on a timer, in case a later look at the socket took that signal. Without
        /// <paramref name="untilEventsSayWait"/> (a thread-safe socket, whose async side reads the readiness itself, once for
        /// all its operations) it makes exactly one attempt.
        /// </remarks>
        internal bool TryAdvance(SocketLease lease, bool untilEventsSayWait = true)
        {
            if (Interlocked.CompareExchange(ref _state, Attempting, Pending) != Pending)
            {
                return false;
            }

            int rc;
            object? frame;
            int refusedWhenReady = 0;
            WaitsDespiteReadiness = false;
            try
            {
                while (true)
                {
                    // libzmq's descriptor is edge-like: any call on the socket (the caller's own first attempt, just before)
                    // may have consumed the very notification we would wait for. ZMQ_EVENTS processes what is pending; if it
                    // says "not ready", waiting is safe and no attempt is made. Asking it first, rather than attempting first
                    // and asking after a failure, spares the attempt that would fail when an operation starts to wait (each
                    // failed attempt has libzmq look at its mailbox: a poll(2)), and costs nothing when the reactor retries
                    // a ready socket: there ZMQ_EVENTS takes the notification and the attempt then makes no system call.
                    if (untilEventsSayWait && (lease.Events & (_isSend ? PollEvents.Out : PollEvents.In)) == 0)
                    {
                        rc = SocketLease.WouldBlock;
                        frame = null;
                        break;
                    }

                    rc = _transfer.TryOnce(lease, out frame);
                    if (rc >= 0 || !untilEventsSayWait)
                    {
                        break;
                    }

                    if (++refusedWhenReady == 2)
                    {
                        WaitsDespiteReadiness = true;
                        break;
                    }
                }
            }
            catch (Exception e)
            {
                // The attempt failed: that is the operation's result. (Completing stays outside the try: a failure while
                // completing must not be taken for the operation's own and complete it twice.)
                Complete(0, e);
                return false;
            }

            if (rc >= 0)
            {
                _frame = frame;
                Complete(rc, null);
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

        /// <summary>
        /// What a pending operation ends with when its socket was never disposed and the garbage collector closed it: the
        /// ObjectDisposedException of a disposed socket, saying why.
        /// </summary>
        internal static ObjectDisposedException SocketAbandoned() =>
            new ObjectDisposedException(
                typeof(Socket).FullName,
                "The socket was closed without Dispose: nothing referenced it any more, so the garbage collector's finalizer closed " +
                "it, and this pending operation ended with it. Dispose a socket (or keep a reference to it) while operations on it " +
                "are pending.");

        /// <summary>
        /// Ends a pending operation with <paramref name="error"/> (the reactor can no longer wait for it); an operation that is
        /// not pending, or already being cancelled or disposed, is left alone. Only by the socket's guard holder, the reactor, or the
        /// thread closing an abandoned socket (no one else can reach it).
        /// </summary>
        internal void RequestFail(Exception error)
        {
            if (!IsPending)
            {
                return;
            }

            Volatile.Write(ref _failure, error);
            RequestAbort(AbortFailed);
        }

        void IValueTaskSource.GetResult(short token) => Finish(token, out _);

        RecvResult IValueTaskSource<RecvResult>.GetResult(short token)
        {
            int length = _transfer.BufferLength;
            int size = Finish(token, out _);
            return new RecvResult(Math.Min(size, length), size);
        }

        byte[] IValueTaskSource<byte[]>.GetResult(short token) => FinishFrame<byte[]>(token);

        string IValueTaskSource<string>.GetResult(short token) => FinishFrame<string>(token);

        PooledBuffer IValueTaskSource<PooledBuffer>.GetResult(short token) => FinishFrame<PooledBuffer>(token);

        public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);

        public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
            _core.OnCompleted(continuation, state, token, flags);

        private void CompleteAborted()
        {
            Exception error = _abort switch
            {
                AbortCanceled => new OperationCanceledException(_cancellationToken),
                AbortFailed => Volatile.Read(ref _failure)!,
                _ => new ObjectDisposedException(typeof(Socket).FullName),
            };
            Complete(0, error, alreadyCompleted: true);
        }

        /// <summary>
        /// Ends the operation started by <see cref="Start"/>: exactly once per start, whoever moves it out of Pending. On the
        /// reactor thread with inline completions on, the result is signalled later, once the reactor has released the socket
        /// (<see cref="InlineCompletions"/>).
        /// </summary>
        private void Complete(int result, Exception? error, bool alreadyCompleted = false)
        {
            TelemetryCounters.PendingAsync(-1);
            if (!alreadyCompleted)
            {
                Volatile.Write(ref _state, Completed);
            }

            if (!InlineCompletions.TryDefer(this, result, error))
            {
                Signal(result, error);
            }
        }

        /// <summary>
        /// <see cref="InlineCompletions"/>: signals a completion it deferred, running the continuation on the calling thread
        /// (the reactor's, with no guard held). A continuation's exception comes out of here.
        /// </summary>
        internal void SignalInline(int result, Exception? error)
        {
            _core.RunContinuationsAsynchronously = false;
            SetCore(result, error);
        }

        /// <summary>Sets the result and queues the continuation to the thread pool.</summary>
        private void Signal(int result, Exception? error)
        {
            try
            {
                SetCore(result, error);
            }
            catch (Exception e) when (e is OutOfMemoryException || e is ThreadStartException)
            {
                // The result is set and the continuation is in the thread pool's queue; what failed is the pool starting one
                // more thread for it, which the runtime cannot do without two free descriptors and reports as
                // OutOfMemoryException. The pool's existing threads run the continuation. Thrown on, it would end the reactor
                // thread (and with it the process), or fail the call that happened to complete this operation.
            }
        }

        private void SetCore(int result, Exception? error)
        {
            if (error is null)
            {
                _core.SetResult(result);
            }
            else
            {
                _core.SetException(error);
            }
        }

        private T FinishFrame<T>(short token)
        {
            Finish(token, out object? frame);
            return (T)frame!;
        }

        private int Finish(short token, out object? frame)
        {
            if (token != _core.Version || _core.GetStatus(token) == ValueTaskSourceStatus.Pending)
            {
                // Not this operation's result to take (a stale token, or not completed yet): the core throws, and nothing below
                // may run (it would free, and for a pooled operation hand out again, an operation still in use).
                frame = null;
                return _core.GetResult(token);
            }

            frame = _frame;
            try
            {
                return _core.GetResult(token);
            }
            finally
            {
                _registration.Dispose();
                _registration = default;
                _transfer = default;
                _frame = null;
                _cancellationToken = default;
                Volatile.Write(ref _state, Idle);
                _pool?.Return(this);
            }
        }
    }
}
#endif
