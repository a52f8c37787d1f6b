#if NET
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// The async side of a thread-safe socket (libzmq's draft SERVER, CLIENT, RADIO, DISH, SCATTER, GATHER, PEER, CHANNEL):
    /// any number of pending sends and receives, from any threads, woken through a draft <c>zmq_poller</c> whose descriptor
    /// waits in the <see cref="Reactor"/> (these sockets have no <c>ZMQ_FD</c>). Made on the first async call that has to wait
    /// and attached to the socket for the rest of its life; its operations are pooled, so a wait allocates nothing once the
    /// pool holds as many as are pending at once.
    /// </summary>
    /// <remarks>
    /// <para>The poller's descriptor (libzmq's <c>signaler_t</c>, added to the socket's <c>mailbox_safe_t</c>) is written once
    /// each time a command reaches the socket's mailbox after someone read it empty, and a <c>zmq_poller_wait</c> that finds
    /// it readable takes one write back (an eventfd counts them). Reading <c>ZMQ_EVENTS</c>, which <c>zmq_poller_wait</c>
    /// does, processes every command and leaves the mailbox empty, so from then on the next command writes the descriptor
    /// again. Hence the one rule every wait here follows: an attempt that fails after such a check is safe to wait on, because
    /// whatever changes afterwards writes the descriptor, whichever thread's call then processes it. No call on the socket
    /// can take that wake-up away (only this poller reads its descriptor), so unlike a stable socket nothing needs retrying
    /// as other calls leave.</para>
    /// <para>The socket sits in the poller only while something waits: a registered signaler is written by every mailbox
    /// wake-up, including those of synchronous traffic, and writes nobody takes would add up and wake the reactor again and
    /// again later.</para>
    /// <para>One thread at a time drives the pending operations (<see cref="RequestDrive"/>): the poller is not thread-safe,
    /// and one driver keeps the receives in order; a request that finds a driver at work leaves the work to it.</para>
    /// </remarks>
    internal sealed unsafe class ThreadSafeAsyncState : SocketAttachment, IReactorClient
    {
        private static readonly object s_attachLock = new object();
        private static readonly bool s_windows = RuntimeInformation.IsOSPlatform(OSPlatform.Windows);

        private readonly Socket _socket;
        private readonly Reactor _reactor;
        private readonly int _token;

        /// <summary>Guards the queues and the pool (never held across a native call).</summary>
        private readonly object _gate = new object();
        private readonly List<AsyncOperation> _receives = new List<AsyncOperation>();
        private readonly List<AsyncOperation> _sends = new List<AsyncOperation>();
        private readonly Stack<AsyncOperation> _freeReceives = new Stack<AsyncOperation>();
        private readonly Stack<AsyncOperation> _freeSends = new Stack<AsyncOperation>();

        /// <summary>The draft poller; 0 once destroyed (by <see cref="OnClosing"/>, exactly once).</summary>
        private nint _poller;

        /// <summary>Whether the socket is in the poller now; the driver's alone.</summary>
        private bool _inPoller;

        /// <summary>The driver's copy of a queue, attempted outside the lock; the driver's alone.</summary>
        private AsyncOperation[] _batch = new AsyncOperation[8];

        private int _driving;
        private int _driveRequested;
        private int _closed;

        /// <summary>What RecvBytesAsync and its siblings receive into when they wait; the driver's alone.</summary>
        private Message? _scratch;

        private ThreadSafeAsyncState(SocketLease lease, nint poller, nint fd)
        {
            _socket = lease.Socket;
            _poller = poller;
            _inPoller = true;
            _reactor = Reactor.Shared;
            _token = _reactor.Register(fd, this);
        }

        /// <summary>The message a waiting frame receive receives into (only the driver touches it).</summary>
        internal Message Scratch => _scratch ??= new Message();

        /// <summary>The thread-safe socket's async side, made and attached on first need; the caller holds <paramref name="lease"/>.</summary>
        /// <exception cref="NotSupportedException">The loaded libzmq lacks the draft poller.</exception>
        /// <exception cref="ZmqException">The poller or its registration could not be made.</exception>
        internal static ThreadSafeAsyncState Of(SocketLease lease)
        {
            if (lease.Attachment is ThreadSafeAsyncState existing)
            {
                return existing;
            }

            // Any number of threads may hold a thread-safe socket at once: the first attach must happen once.
            lock (s_attachLock)
            {
                if (lease.Attachment is ThreadSafeAsyncState attached)
                {
                    return attached;
                }

                if (!HasPoller())
                {
                    // A draft build older than libzmq 4.3.2 makes these sockets but has no zmq_poller_fd to wait on.
                    throw new NotSupportedException(
                        "An async send or receive that has to wait on a thread-safe " + lease.TypeName + " socket needs the " +
                        "draft poller with zmq_poller_fd (libzmq 4.3.2+), which the loaded libzmq " + Libzmq.Version + " does not export.");
                }

                nint poller = NewPoller(lease);
                try
                {
                    var state = new ThreadSafeAsyncState(lease, poller, DescriptorOf(poller));
                    lease.Attach(state);
                    return state;
                }
                catch
                {
                    Interop.ZmqDraft.zmq_poller_destroy(&poller);
                    throw;
                }
            }
        }

        /// <summary>
        /// Queues <paramref name="transfer"/> as a pending operation and drives the queue once; returns the operation and, in
        /// <paramref name="token"/>, the token of the task to hand out.
        /// </summary>
        internal AsyncOperation Start(SocketLease lease, in AsyncTransfer transfer, CancellationToken cancellationToken, out short token)
        {
            AsyncOperation? op;
            lock (_gate)
            {
                (transfer.IsSend ? _freeSends : _freeReceives).TryPop(out op);
            }

            op ??= new AsyncOperation(transfer.IsSend, this);

            token = op.Start(transfer, cancellationToken);
            lock (_gate)
            {
                (transfer.IsSend ? _sends : _receives).Add(op);
            }

            RequestDrive(lease);
            return op;
        }

        /// <summary>An operation's result was taken (<see cref="AsyncOperation"/>'s GetResult): it leaves its queue for the pool.</summary>
        internal void Return(AsyncOperation op)
        {
            lock (_gate)
            {
                (op.IsSend ? _sends : _receives).Remove(op);
                (op.IsSend ? _freeSends : _freeReceives).Push(op);
            }
        }

        /// <summary>Reactor thread: the poller's descriptor is readable. Never throws.</summary>
        public void OnReadable()
        {
            if (Volatile.Read(ref _closed) != 0 || !_socket.TryLeaseForMachinery(out SocketLease lease))
            {
                return;
            }

            try
            {
                RequestDrive(lease);
            }
            finally
            {
                // Ending the claim may close the socket (a Dispose came meanwhile): OnClosing then runs here.
                lease.Dispose();
            }
        }

        /// <summary>Reactor thread: the reactor has stopped; nothing will wake the pending operations, so they end now.</summary>
        public void OnReactorFailed(Exception error) => FailAll(error);

        /// <inheritdoc/>
        internal override void OnLeaving(SocketLease held)
        {
            // Nothing to retry: no call on the socket can take the poller's wake-up away (see the class remarks).
        }

        /// <inheritdoc/>
        internal override void OnLeft()
        {
        }

        /// <summary>The socket is being disposed: every pending operation ends with ObjectDisposedException.</summary>
        internal override void OnDisposing() => EndAll(null);

        /// <summary>
        /// Just before <c>zmq_close</c> (the socket's handle calls it, on Dispose or, for an abandoned socket, on the finalizer
        /// thread), with no call in flight: the descriptor leaves the reactor, then the poller is destroyed while the socket it
        /// names still exists (its destructor takes its signaler off the socket and closes the descriptor), exactly once; what
        /// is still queued ends with ObjectDisposedException.
        /// </summary>
        internal override void OnClosing(bool abandoned)
        {
            if (Interlocked.Exchange(ref _closed, 1) != 0)
            {
                return;
            }

            _reactor.Unregister(_token);
            nint poller = _poller;
            _poller = 0;
            Interop.ZmqDraft.zmq_poller_destroy(&poller);

            if (abandoned)
            {
                // Nobody disposed the socket, so OnDisposing never ended what it queued: an operation that was never awaited,
                // or one whose awaiter was abandoned with the socket, ends here rather than staying queued for ever. The
                // scratch message is left to its own finalizer (it may have run already).
                EndAll(AsyncOperation.SocketAbandoned());
                return;
            }

            // An operation queued by a call that raced with the Dispose, after OnDisposing looked.
            EndAll(null);
            _scratch?.Dispose();
        }

        /// <summary>
        /// Asks for the pending operations to be attempted, by the caller (holding <paramref name="lease"/>) or by the thread
        /// driving them already, which then goes round once more.
        /// </summary>
        private void RequestDrive(SocketLease lease)
        {
            Volatile.Write(ref _driveRequested, 1);
            while (Volatile.Read(ref _driveRequested) != 0 && Interlocked.CompareExchange(ref _driving, 1, 0) == 0)
            {
                try
                {
                    while (Interlocked.Exchange(ref _driveRequested, 0) != 0)
                    {
                        Drive(lease);
                    }
                }
                catch (Exception e)
                {
                    // Every step completes operations instead of throwing; this is the last line, for a defect.
                    Debug.Fail("the thread-safe socket's async drive threw: " + e);
                    FailAll(e);
                }
                finally
                {
                    Interlocked.Exchange(ref _driving, 0);
                }
            }
        }

        /// <summary>
        /// One round: attempt what is pending; if something still waits, check the socket (which also takes the poller's
        /// wake-up and processes libzmq's commands) and attempt once more if that may help; then arm the reactor.
        /// </summary>
        private void Drive(SocketLease lease)
        {
            if (_socket.IsDisposed)
            {
                EndAll(null);
                return;
            }

            bool checkedSocket = false;
            while (true)
            {
                bool receiveWaits = AdvanceReceives(lease);
                bool sendWaits = AdvanceSends(lease);
                if (!receiveWaits && !sendWaits)
                {
                    LeavePoller(lease);
                    return;
                }

                if (checkedSocket)
                {
                    break;
                }

                if (!EnterPoller(lease, out Exception? failure))
                {
                    FailAll(failure!);
                    return;
                }

                PollEvents ready = Check();
                checkedSocket = true;

                // A send is attempted again whatever the check says: SERVER and PEER report writable even when the addressed
                // peer's pipe is full, and the check may just have processed the command that made room.
                if (!sendWaits && (ready & PollEvents.In) == 0)
                {
                    break;
                }
            }

            Exception? armFailure = _reactor.Arm(_token);
            if (armFailure is not null)
            {
                // Without the registration nothing would ever wake them: they end now, with the reason.
                FailAll(armFailure);
            }
        }

        /// <summary>Attempts the pending receives in order until one would block; true if one still waits.</summary>
        private bool AdvanceReceives(SocketLease lease)
        {
            int count = Snapshot(_receives);
            for (int i = 0; i < count; i++)
            {
                AsyncOperation op = _batch[i];
                _batch[i] = null!;
                if (op.TryAdvance(lease, untilEventsSayWait: false))
                {
                    Array.Clear(_batch, i + 1, count - i - 1);
                    return true;
                }
            }

            return false;
        }

        /// <summary>Attempts every pending send once (each may go to another peer); true if one still waits.</summary>
        private bool AdvanceSends(SocketLease lease)
        {
            int count = Snapshot(_sends);
            bool waits = false;
            for (int i = 0; i < count; i++)
            {
                AsyncOperation op = _batch[i];
                _batch[i] = null!;
                waits |= op.TryAdvance(lease, untilEventsSayWait: false);
            }

            return waits;
        }

        /// <summary>Copies a queue into <see cref="_batch"/> under the lock; returns how many.</summary>
        private int Snapshot(List<AsyncOperation> queue)
        {
            lock (_gate)
            {
                int count = queue.Count;
                if (_batch.Length < count)
                {
                    _batch = new AsyncOperation[Math.Max(count, _batch.Length * 2)];
                }

                queue.CopyTo(_batch);
                return count;
            }
        }

        /// <summary>
        /// <c>zmq_poller_wait</c> without waiting: takes one wake-up off the descriptor if there is one and reads the socket's
        /// readiness (processing its commands). A failure (ETERM, say) counts as ready: the attempts then report it.
        /// </summary>
        private PollEvents Check()
        {
            byte* events = stackalloc byte[s_windows ? sizeof(Interop.ZmqDraft.PollerEventWindows) : sizeof(Interop.ZmqDraft.PollerEventPosix)];
            int rc = Interop.ZmqDraft.zmq_poller_wait_all(_poller, events, 1, new CLong(0));
            if (rc < 0)
            {
                return Interop.Zmq.zmq_errno() == ErrorMap.EAGAIN ? PollEvents.None : PollEvents.In | PollEvents.Out;
            }

            short ready = s_windows ? ((Interop.ZmqDraft.PollerEventWindows*)events)->Events : ((Interop.ZmqDraft.PollerEventPosix*)events)->Events;
            return (PollEvents)ready;
        }

        /// <summary>Puts the socket in the poller before the check that decides to wait (so no wake-up after it is missed).</summary>
        private bool EnterPoller(SocketLease lease, out Exception? failure)
        {
            failure = null;
            if (!_inPoller)
            {
                if (Interop.ZmqDraft.zmq_poller_add(_poller, lease.Native, 0, Interop.Zmq.ZMQ_POLLIN) != 0)
                {
                    failure = ZmqThrow.Create(Interop.Zmq.zmq_errno(), "zmq_poller_add (waiting on a thread-safe socket)");
                    return false;
                }

                _inPoller = true;
            }

            return true;
        }

        /// <summary>Nothing waits any more: the socket leaves the poller, so its traffic stops writing the descriptor.</summary>
        private void LeavePoller(SocketLease lease)
        {
            if (_inPoller)
            {
                // Fails only if the socket is not in the poller, which _inPoller rules out.
                Interop.ZmqDraft.zmq_poller_remove(_poller, lease.Native);
                _inPoller = false;
            }
        }

        /// <summary>Ends every queued operation with <paramref name="error"/> (one that completed is left alone).</summary>
        private void FailAll(Exception error) => EndAll(error);

        /// <summary>
        /// Ends every queued operation: with <paramref name="error"/>, or with ObjectDisposedException when null (an abort, which
        /// an operation being attempted right now finishes itself). Rare (a Dispose, a failure): it may allocate.
        /// </summary>
        private void EndAll(Exception? error)
        {
            AsyncOperation[] all;
            lock (_gate)
            {
                all = new AsyncOperation[_receives.Count + _sends.Count];
                _receives.CopyTo(all);
                _sends.CopyTo(all, _receives.Count);
            }

            foreach (AsyncOperation op in all)
            {
                if (error is null)
                {
                    op.RequestDisposeAbort();
                }
                else
                {
                    op.RequestFail(error);
                }
            }
        }

        /// <summary>Whether the loaded libzmq exports every draft poller function used here.</summary>
        private static bool HasPoller() =>
            Interop.ZmqDraft.zmq_poller_new != null && Interop.ZmqDraft.zmq_poller_destroy != null &&
            Interop.ZmqDraft.zmq_poller_add != null && Interop.ZmqDraft.zmq_poller_remove != null &&
            Interop.ZmqDraft.zmq_poller_wait_all != null && Interop.ZmqDraft.zmq_poller_fd != null;

        /// <summary>A new poller holding the socket (which gives the poller its signaler, and so its descriptor).</summary>
        private static nint NewPoller(SocketLease lease)
        {
            nint poller = Interop.ZmqDraft.zmq_poller_new();
            if (poller == 0)
            {
                ZmqThrow.Error(Interop.Zmq.zmq_errno(), "zmq_poller_new (waiting on a thread-safe socket)");
            }

            if (Interop.ZmqDraft.zmq_poller_add(poller, lease.Native, 0, Interop.Zmq.ZMQ_POLLIN) != 0)
            {
                int errno = Interop.Zmq.zmq_errno();
                Interop.ZmqDraft.zmq_poller_destroy(&poller);
                ZmqThrow.Error(errno, "zmq_poller_add (waiting on a thread-safe socket)");
            }

            return poller;
        }

        /// <summary>The poller's descriptor: an int on POSIX, a SOCKET on Windows (read at the platform's size).</summary>
        private static nint DescriptorOf(nint poller)
        {
            nint fd = 0;
            if (Interop.ZmqDraft.zmq_poller_fd(poller, &fd) != 0)
            {
                ZmqThrow.Error(Interop.Zmq.zmq_errno(), "zmq_poller_fd (waiting on a thread-safe socket)");
            }

            return s_windows ? fd : (int)fd;
        }
    }
}
#endif
