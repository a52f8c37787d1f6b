#if NET
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// A socket's async side: its <c>ZMQ_FD</c> registration with the <see cref="Reactor"/> and its two pending operations.
    /// Made on the first async call that has to wait.
    /// </summary>
    /// <remarks>
    /// <para>Who touches the socket: only a thread that holds its guard. That is the thread of any call on the socket (every
    /// call, sync or async, retries the pending operations as it leaves, because its own libzmq call may have consumed the
    /// descriptor's notification — the "re-read ZMQ_EVENTS after every send and receive" rule), or the reactor thread when the
    /// descriptor fires.</para>
    /// <para>When the reactor finds the guard taken, it sets <see cref="_deferred"/> and tries once more; the holder releases
    /// the guard with a full fence and then looks at the flag, so one of the two always runs the retry.</para>
    /// </remarks>
    internal sealed class SocketAsyncState : SocketAttachment
    {
        private readonly Socket _socket;
        private readonly int _token;
        private int _deferred;
        private int _unregistered;

        internal SocketAsyncState(Socket socket, nint fd)
        {
            _socket = socket;
            Receive = new AsyncOperation(socket, isSend: false);
            Send = new AsyncOperation(socket, isSend: true);
            _token = Reactor.Shared.Register(fd, this);
        }

        internal AsyncOperation Receive { get; }

        internal AsyncOperation Send { get; }

        internal bool HasPending => Receive.IsPending || Send.IsPending;

        /// <summary>Reactor thread: the descriptor is readable.</summary>
        internal void OnReadable()
        {
            if (Volatile.Read(ref _unregistered) == 0)
            {
                RetryFromOutside();
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
        internal override void OnLeaving()
        {
            if (HasPending)
            {
                RetryHoldingGuard();
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

        /// <inheritdoc/>
        internal override void OnClosing() => Unregister();

        /// <summary>The guard's holder, before releasing it: retry whatever is pending and arm the descriptor if still waiting.</summary>
        internal void RetryHoldingGuard()
        {
            bool wait = Receive.TryAdvance();
            wait |= Send.TryAdvance();
            if (wait && Volatile.Read(ref _unregistered) == 0)
            {
                Reactor.Shared.Arm(_token);
            }
        }

        /// <summary>The guard's holder, after releasing it: whether the reactor asked for a retry meanwhile.</summary>
        internal bool TakeDeferred() => Volatile.Read(ref _deferred) != 0 && Interlocked.Exchange(ref _deferred, 0) != 0;

        /// <summary>The socket is being disposed: pending operations end with ObjectDisposedException.</summary>
        internal override void OnDisposing()
        {
            Receive.RequestDisposeAbort();
            Send.RequestDisposeAbort();
        }

        /// <summary>Before zmq_close: the descriptor leaves the reactor while it is still open.</summary>
        internal void Unregister()
        {
            if (Interlocked.Exchange(ref _unregistered, 1) == 0)
            {
                Reactor.Shared.Unregister(_token);
            }
        }
    }
}
#endif
