#if NET
using System;
using System.Diagnostics;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// A socket's async side: its <c>ZMQ_FD</c> registration with the <see cref="Reactor"/>, its two pending operations and the
    /// scratch message that frame receives wait with. Made on the first async call that has to wait, and attached to the socket
    /// (<see cref="SocketLease.Attach"/>) for the rest of its life.
    /// </summary>
    /// <remarks>
    /// <para>Who touches the socket: only a thread that holds its guard. That is the thread of any call on the socket (every
    /// call, sync or async, retries the pending operations as it leaves, because its own libzmq call may have consumed the
    /// descriptor's notification — the "re-read ZMQ_EVENTS after every send and receive" rule), or the reactor thread when the
    /// descriptor fires.</para>
    /// <para>When the reactor finds the guard taken, it sets <see cref="_deferred"/> and tries once more; the holder releases
    /// the guard with a full fence and then looks at the flag, so one of the two always runs the retry.</para>
    /// </remarks>
    internal sealed class SocketAsyncState : SocketAttachment, IReactorClient
    {
        private readonly Socket _socket;
        private readonly Reactor _reactor;
        private readonly int _token;
        private int _deferred;
        private int _unregistered;

        /// <summary>How long a send that waits despite readiness waits for a retry of its own (<see cref="RetrySoon"/>).</summary>
        internal const int UnusableReadinessRetryMs = 1;

        /// <summary>The timer of <see cref="RetrySoon"/>, made on first need.</summary>
        private Timer? _retryTimer;

        /// <summary>What RecvBytesAsync and its siblings receive into when they have to wait (see <see cref="Scratch"/>).</summary>
        private Message? _scratch;

        private SocketAsyncState(SocketLease lease)
        {
            _socket = lease.Socket;
            Receive = new AsyncOperation(isSend: false);
            Send = new AsyncOperation(isSend: true);
            _reactor = Reactor.Shared;
            _token = _reactor.Register(lease.Fd, this);
        }

        internal AsyncOperation Receive { get; }

        internal AsyncOperation Send { get; }

        /// <summary>
        /// The message a waiting frame receive (RecvBytesAsync, RecvStringAsync, RecvPooledAsync) receives into, made on first
        /// need; the frame is copied out under the same hold of the socket, so one message serves every such receive and none
        /// allocates a native message of its own. Only the holder of the socket's guard touches it.
        /// </summary>
        internal Message Scratch => _scratch ??= new Message();

        internal bool HasPending => Receive.IsPending || Send.IsPending;

        /// <summary>The socket's async side, made and attached on first need; the caller holds <paramref name="lease"/>.</summary>
        internal static SocketAsyncState Of(SocketLease lease)
        {
            if (lease.Attachment is SocketAsyncState state)
            {
                return state;
            }

            state = new SocketAsyncState(lease);
            lease.Attach(state);
            return state;
        }

        /// <summary>
        /// Makes <paramref name="transfer"/> the socket's pending send or receive; returns that operation and, in
        /// <paramref name="token"/>, the token of the task to hand out.
        /// </summary>
        /// <exception cref="System.InvalidOperationException">An operation in that direction is pending already.</exception>
        internal AsyncOperation Start(in AsyncTransfer transfer, CancellationToken cancellationToken, out short token)
        {
            AsyncOperation op = transfer.IsSend ? Send : Receive;
            token = op.Start(transfer, cancellationToken);
            return op;
        }

        /// <summary>Reactor thread: the descriptor is readable. Never throws, since nothing on the reactor thread could catch it.</summary>
        public void OnReadable()
        {
            if (Volatile.Read(ref _unregistered) == 0)
            {
                try
                {
                    RetryFromOutside();
                }
                catch (Exception e)
                {
                    // Every step below completes operations instead of throwing; this is the last line, for a defect.
                    Debug.Fail("the async retry threw on the reactor thread: " + e);
                    FailPending(e);
                }
            }
        }

        /// <summary>Retries the pending operations from a thread that does not hold the guard.</summary>
        internal void RetryFromOutside()
        {
            if (!_socket.TryLeaseForMachinery(out SocketLease lease))
            {
                Interlocked.Exchange(ref _deferred, 1);
                if (!_socket.TryLeaseForMachinery(out lease))
                {
                    return; // the holder sees _deferred after releasing the guard and retries then
                }
            }

            // Ending the lease is what retries: the core calls OnLeaving (guard held) and OnLeft (released) below.
            lease.Dispose();
        }

        /// <inheritdoc/>
        internal override void OnLeaving(SocketLease held)
        {
            if (HasPending)
            {
                try
                {
                    RetryHoldingGuard(held);
                }
                catch (Exception e)
                {
                    // An exception here would leave the socket's guard held for good (and end the reactor thread, if that is
                    // where this runs); the retry completes operations instead of throwing, so this is only for a defect.
                    Debug.Fail("the async retry threw while leaving the socket: " + e);
                    FailPending(e);
                }
            }
        }

        /// <inheritdoc/>
        internal override void OnLeft()
        {
            if (TakeDeferred() && HasPending)
            {
                RetryFromOutside();
            }
        }

        /// <summary>
        /// Just before <c>zmq_close</c> (the socket's handle calls it, on Dispose or, for an abandoned socket, on the finalizer
        /// thread): the descriptor leaves the reactor while it is still open. An abandoned socket's pending operations end here
        /// (nobody disposed it, so OnDisposing never ended them); its scratch message is left to its own finalizer.
        /// </summary>
        internal override void OnClosing(bool abandoned)
        {
            Unregister();
            _retryTimer?.Dispose();
            if (abandoned)
            {
                FailPending(AsyncOperation.SocketAbandoned());
                return;
            }

            _scratch?.Dispose();
        }

        /// <summary>
        /// The guard's holder, before releasing it: retry whatever is pending and arm the descriptor if still waiting.
        /// </summary>
        /// <remarks>
        /// The descriptor signals the commands libzmq receives after the last call that looked at them, so waiting is safe only
        /// if every waiting operation judged the socket after that call. The receive is tried first; the send's calls after it
        /// may take in the command that brought a message (and the descriptor's signal of it), so when both were pending a
        /// last <c>ZMQ_EVENTS</c> decides: readiness that a waiting operation can use means another round instead of a wait.
        /// A send that waits despite readiness (<see cref="AsyncOperation.WaitsDespiteReadiness"/>) cannot be judged by it and
        /// is retried on a timer as well.
        /// </remarks>
        private void RetryHoldingGuard(SocketLease held)
        {
            bool receiveWaits;
            bool sendWaits;
            while (true)
            {
                bool sendWasPending = Send.IsPending;
                receiveWaits = Receive.TryAdvance(held);
                sendWaits = Send.TryAdvance(held);
                if (!receiveWaits || !sendWasPending || !ReadyForAWaiter(held, sendWaits))
                {
                    break;
                }
            }

            if ((receiveWaits || sendWaits) && Volatile.Read(ref _unregistered) == 0)
            {
                Exception? failure = _reactor.Arm(_token);
                if (failure is not null)
                {
                    // Without the registration nothing would ever retry them: they end now, with the reason.
                    FailPending(failure);
                    return;
                }

                if (sendWaits && Send.WaitsDespiteReadiness)
                {
                    RetrySoon();
                }
            }
        }

        /// <summary>A last look at the socket: whether the waiting receive, or a waiting send that can use it, is ready now.</summary>
        private bool ReadyForAWaiter(SocketLease held, bool sendWaits)
        {
            PollEvents ready;
            try
            {
                ready = held.Events;
            }
            catch (ZmqException)
            {
                return true; // the next round's attempts meet the error (a terminated context, say) and end with it
            }

            // An operation that waits despite readiness is left out of it, so that this loop can never spin on a readiness
            // libzmq keeps reporting (the receive has no such case known; the rule costs nothing).
            return ((ready & PollEvents.In) != 0 && !Receive.WaitsDespiteReadiness)
                || (sendWaits && !Send.WaitsDespiteReadiness && (ready & PollEvents.Out) != 0);
        }

        /// <summary>
        /// A retry of a send that waits despite readiness in <see cref="UnusableReadinessRetryMs"/>, as the blocking send of a
        /// thread-safe socket retries such a send, in case a look at the socket after its last attempt took the descriptor's
        /// signal of the peer's reading. The timer holds the state weakly, so an abandoned socket is still collected.
        /// </summary>
        private void RetrySoon()
        {
            _retryTimer ??= new Timer(
                static state =>
                {
                    if (((WeakReference<SocketAsyncState>)state!).TryGetTarget(out SocketAsyncState? target) && target.Send.IsPending)
                    {
                        target.OnReadable();
                    }
                },
                new WeakReference<SocketAsyncState>(this),
                Timeout.Infinite,
                Timeout.Infinite);
            _retryTimer.Change(UnusableReadinessRetryMs, Timeout.Infinite);
        }

        /// <summary>Reactor thread: the reactor has stopped, so nothing will retry the pending operations; they end now.</summary>
        public void OnReactorFailed(Exception error) => FailPending(error);

        /// <summary>Ends the pending operations with <paramref name="error"/>; by the guard's holder, or the reactor thread.</summary>
        private void FailPending(Exception error)
        {
            Receive.RequestFail(error);
            Send.RequestFail(error);
        }

        /// <summary>The guard's holder, after releasing it: whether the reactor asked for a retry meanwhile.</summary>
        private bool TakeDeferred() => Volatile.Read(ref _deferred) != 0 && Interlocked.Exchange(ref _deferred, 0) != 0;

        /// <summary>The socket is being disposed: pending operations end with ObjectDisposedException.</summary>
        internal override void OnDisposing()
        {
            Receive.RequestDisposeAbort();
            Send.RequestDisposeAbort();
        }

        /// <summary>Before zmq_close: the descriptor leaves the reactor while it is still open.</summary>
        private void Unregister()
        {
            if (Interlocked.Exchange(ref _unregistered, 1) == 0)
            {
                _reactor.Unregister(_token);
            }
        }
    }
}
#endif
