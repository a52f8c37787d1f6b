using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ
{
    public sealed unsafe partial class Socket
    {
        /// <summary>
        /// How long one native wait may last when it cannot be woken by <see cref="Dispose"/>: a send blocked at the high-water
        /// mark, or any wait on a platform without a waker. It bounds how long Dispose takes to end such a call; it adds no
        /// latency, because libzmq returns from the wait as soon as the socket is ready.
        /// </summary>
        internal const int UninterruptibleSliceMs = 50;

        private static readonly bool s_windowsPollItems = RuntimeInformation.IsOSPlatform(OSPlatform.Windows);

        /// <summary>
        /// The socket's <c>ZMQ_FD</c> (its command mailbox's descriptor, fixed for the socket's life), read at the first
        /// blocking receive that waits; -1 until then.
        /// </summary>
        private int _commandFd = -1;

        /// <summary>
        /// Sends or receives. The first attempt never blocks (<see cref="TransferStep"/>); only if libzmq says EAGAIN and
        /// <paramref name="wait"/> allows waiting does it enter the wait loop. (These calls keep their GC transition:
        /// <c>SuppressGCTransition</c> was measured and rejected, because libzmq may run the zero-copy free callback, which is
        /// .NET code, from inside a send or receive — closing the previous inproc message, or a conflated one — and the runtime
        /// aborts the process when .NET is entered from a call without a transition.) Returns the byte count, or -1 when the
        /// call would block or its own timeout passed (never for <see cref="TransferWait.Blocking"/>, which throws instead).
        /// Every frame moved is counted in <see cref="_traffic"/> here: two plain additions, no call (interlocked additions in a
        /// call of their own on a thread-safe socket).
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private int Transfer<T>(ref T op, int flags, TransferWait wait)
            where T : struct, INativeTransfer
        {
            int rc = !op.IsSend && WaitsNatively(wait)
                ? ReceiveWaitingNatively(ref op, flags)
                : TransferStep.TryOnce(ref op, _socket, flags);
            if (rc >= 0)
            {
                _traffic.Moved(op.IsSend, rc);
                return rc;
            }

            return TransferSlow(ref op, flags, wait, rc);
        }

        /// <summary>
        /// The first attempt would block (<paramref name="firstResult"/>: <see cref="TransferStep.WouldBlock"/>, or
        /// <see cref="NativeWaitInterrupted"/>): report that, or wait.
        /// </summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private int TransferSlow<T>(ref T op, int flags, TransferWait wait, int firstResult)
            where T : struct, INativeTransfer
        {
            _traffic.CountWouldBlock();
            if (wait.IsNonBlocking)
            {
                return TransferStep.WouldBlock;
            }

            int rc = op.IsSend ? WaitToSend(ref op, flags, wait)
                : WaitToReceive(ref op, flags, wait, NativeWaitSpentMs(wait, firstResult));
            if (rc >= 0)
            {
                _traffic.Moved(op.IsSend, rc);
            }

            return rc;
        }

        /// <summary>
        /// One transfer attempt inside a wait loop: the byte count, or -1 when the wait goes on (EAGAIN: not ready after all;
        /// EINTR: a signal). Any other failure throws, naming <paramref name="operation"/>.
        /// </summary>
        private int AttemptWhileWaiting<T>(ref T op, int flags, string operation)
            where T : struct, INativeTransfer
        {
            int rc = op.Invoke(_socket, flags);
            if (rc >= 0)
            {
                return rc;
            }

            int errno = Interop.Zmq.zmq_errno();
            if (errno != ErrorMap.EAGAIN && errno != ErrorMap.EINTR)
            {
                ZmqThrow.Transfer(errno, _socket, operation == "send");
            }

            return -1;
        }

        /// <summary>
        /// The start of each turn of a wait loop: throws if the socket is being disposed or the call was cancelled, else returns
        /// how long this turn may wait — the rest of the deadline, or at most <see cref="UninterruptibleSliceMs"/> when
        /// <paramref name="sliced"/> (nothing can interrupt the wait) — and 0 when the time is up.
        /// </summary>
        private int NextTurn(Deadline deadline, CancellationToken cancellation, bool sliced)
        {
            if (_guard.IsDisposeRequested)
            {
                ThrowDisposed();
            }

            cancellation.ThrowIfCancellationRequested();
            return sliced ? deadline.SliceMilliseconds(UninterruptibleSliceMs) : deadline.RemainingMilliseconds;
        }

        /// <summary>A <c>zmq_poll</c> of a wait loop failed: a signal (EINTR) means wait again, anything else throws.</summary>
        private static void ThrowUnlessInterrupted(string operation)
        {
            int errno = Interop.Zmq.zmq_errno();
            if (errno != ErrorMap.EINTR)
            {
                ZmqThrow.Error(errno, operation);
            }
        }

        /// <summary>
        /// Receive that waits: waits on the socket and its waker (<see cref="WaitReadable"/>), so that <see cref="Dispose"/> from
        /// another thread (or the cancellation of a timed call) ends the wait at once, then receives without blocking. A
        /// blocking receive (the socket's timeout) first puts the native slice in place for the next ones. Bounded
        /// by <see cref="ReceiveTimeout"/> or the call's own timeout, less <paramref name="alreadyWaitedMs"/> (the first attempt's
        /// native wait, see <see cref="StartNativeReceiveWaits"/>).
        /// </summary>
        private int WaitToReceive<T>(ref T op, int flags, TransferWait wait, int alreadyWaitedMs)
            where T : struct, INativeTransfer
        {
            if (wait.UsesSocketTimeout)
            {
                StartNativeReceiveWaits();
            }

            int timeoutMs = wait.UsesSocketTimeout ? GetInt32Unguarded(Interop.Zmq.ZMQ_RCVTIMEO) : wait.TimeoutMilliseconds;
            Deadline deadline = Deadline.After(timeoutMs > 0 ? Math.Max(timeoutMs - alreadyWaitedMs, 0) : timeoutMs);
            WakerHandle? waker = GetOrCreateWakerWhileLeased();
            CancellationToken cancellation = wait.CancellationToken;

            // A thread-safe socket's waker is shared by every thread waiting on it, and a cancelled wait takes its signal back
            // (EndWakeOnCancel), which could swallow another thread's: there the waker is left to Dispose, and a cancellable
            // wait runs in slices instead.
            bool wakeOnCancel = waker is not null && cancellation.CanBeCanceled && !IsThreadSafe;
            bool sliced = waker is null || (cancellation.CanBeCanceled && !wakeOnCancel);
            CancellationTokenRegistration registration = wakeOnCancel ? WakeOnCancel(cancellation, waker!) : default;
            try
            {
                while (true)
                {
                    int waitMs = NextTurn(deadline, cancellation, sliced);
                    if (waitMs == 0)
                    {
                        return TimedOut(wait, "receive");
                    }

                    if (WaitReadable(waker, waitMs) < 0)
                    {
                        continue;
                    }

                    int rc = AttemptWhileWaiting(ref op, flags | Interop.Zmq.ZMQ_DONTWAIT, "receive");
                    if (rc >= 0)
                    {
                        return rc;
                    }
                }
            }
            finally
            {
                if (wakeOnCancel)
                {
                    EndWakeOnCancel(registration, cancellation, waker!);
                }
            }
        }

        /// <summary>
        /// Blocking send: lets libzmq wait natively in slices of at most <see cref="UninterruptibleSliceMs"/>. Polling is not
        /// used for sends because libzmq reports PUB with XPUB_NODROP and ROUTER with ROUTER_MANDATORY as writable while a send
        /// to a full peer still fails, which would turn the wait into a spin. Bounded by <see cref="SendTimeout"/> or the call's
        /// own timeout; a Dispose or a cancellation is seen between slices.
        /// </summary>
        private int WaitToSend<T>(ref T op, int flags, TransferWait wait)
            where T : struct, INativeTransfer
        {
            if (IsThreadSafe)
            {
                return WaitToSendShared(ref op, flags, wait);
            }

            int socketTimeout = GetInt32Unguarded(Interop.Zmq.ZMQ_SNDTIMEO);
            Deadline deadline = Deadline.After(wait.UsesSocketTimeout ? socketTimeout : wait.TimeoutMilliseconds);
            int nativeTimeout = socketTimeout;
            try
            {
                while (true)
                {
                    int slice = NextTurn(deadline, wait.CancellationToken, sliced: true);
                    if (slice == 0)
                    {
                        return TimedOut(wait, "send");
                    }

                    if (slice != nativeTimeout)
                    {
                        SetInt32Unguarded(Interop.Zmq.ZMQ_SNDTIMEO, slice);
                        nativeTimeout = slice;
                    }

                    int rc = AttemptWhileWaiting(ref op, flags & ~Interop.Zmq.ZMQ_DONTWAIT, "send");
                    if (rc >= 0)
                    {
                        return rc;
                    }
                }
            }
            finally
            {
                if (nativeTimeout != socketTimeout)
                {
                    SetInt32Unguarded(Interop.Zmq.ZMQ_SNDTIMEO, socketTimeout);
                }
            }
        }

        /// <summary>
        /// Blocking send on a thread-safe socket, where the native timeout cannot be changed for one call (another thread's
        /// send reads it at the same time): waits in <c>zmq_poll</c> for the socket to be writable, or the waker (Dispose), in
        /// slices of at most <see cref="UninterruptibleSliceMs"/>, then sends without blocking. SERVER and PEER report writable
        /// even when the addressed peer's pipe is full (libzmq's <c>xhas_out</c> is always true there), so a send that still
        /// would block after a writable report waits a millisecond before the next try instead of spinning.
        /// </summary>
        private int WaitToSendShared<T>(ref T op, int flags, TransferWait wait)
            where T : struct, INativeTransfer
        {
            Deadline deadline = Deadline.After(wait.UsesSocketTimeout ? GetInt32Unguarded(Interop.Zmq.ZMQ_SNDTIMEO) : wait.TimeoutMilliseconds);
            WakerHandle? waker = GetOrCreateWakerWhileLeased();
            while (true)
            {
                int slice = NextTurn(deadline, wait.CancellationToken, sliced: true);
                if (slice == 0)
                {
                    return TimedOut(wait, "send");
                }

                int ready = PollSocket(Interop.Zmq.ZMQ_POLLOUT, waker, slice);
                if (ready < 0)
                {
                    ThrowUnlessInterrupted("send (zmq_poll)");
                    continue;
                }

                if (ready == 0)
                {
                    continue;
                }

                int rc = AttemptWhileWaiting(ref op, flags | Interop.Zmq.ZMQ_DONTWAIT, "send");
                if (rc >= 0)
                {
                    return rc;
                }

                Thread.Sleep(1);
            }
        }

        /// <summary>The wait's time is up: a blocking call throws <see cref="ZmqError.TryAgain"/>, a timed Try call returns false (-1).</summary>
        private static int TimedOut(TransferWait wait, string operation)
        {
            if (wait.UsesSocketTimeout)
            {
                ZmqThrow.Timeout(operation);
            }

            return -1;
        }

        /// <summary>Signals the waker when <paramref name="cancellation"/> is cancelled, so a cancel ends the poll as a Dispose does.</summary>
        private static CancellationTokenRegistration WakeOnCancel(CancellationToken cancellation, WakerHandle waker) =>
#if NET
            cancellation.UnsafeRegister(static state => ((WakerHandle)state!).Signal(), waker);
#else
            cancellation.Register(static state => ((WakerHandle)state!).Signal(), waker);
#endif

        /// <summary>
        /// Ends a cancellable wait. Disposing the registration waits for a signal in progress, so afterwards no signal of this
        /// call can come; if the token was cancelled, its signal is taken back, because the waker must stay quiet until a
        /// Dispose (a later wait, or a <see cref="Poller"/> holding this socket, would otherwise wake at once, again and again).
        /// After a Dispose the signal stays: the socket closes as this call leaves.
        /// </summary>
        private void EndWakeOnCancel(CancellationTokenRegistration registration, CancellationToken cancellation, WakerHandle waker)
        {
            registration.Dispose();
            if (cancellation.IsCancellationRequested && !_guard.IsDisposeRequested)
            {
                waker.Reset();
            }
        }

        /// <summary>
        /// One wait of a blocking receive for the socket to have something to read, or the waker to be signalled. Returns the
        /// count of ready items (0: the time is up), or -1 after a signal (EINTR: wait again); any other failure throws.
        /// <para>Where the socket has a <c>ZMQ_FD</c> (POSIX, not a thread-safe socket) this is one <c>poll</c> of that
        /// descriptor and the waker: it costs what libzmq's own blocking receive costs for its wait, where <c>zmq_poll</c>
        /// polls once with no timeout first and processes the socket's commands (itself a zero-timeout poll of the same
        /// descriptor) before and after every pass. Measured in C, an inproc REQ/REP round trip of 64 bytes on one core took
        /// 28.9 µs with zmq_poll, 24.7 µs with this and 21.5 µs with plain blocking receives.</para>
        /// <para>The descriptor is edge-like: it becomes readable when a command reaches the socket, and libzmq consumes
        /// that signal when it processes commands. Every wait here follows a receive that said EAGAIN (a non-blocking one, or
        /// the native wait of <see cref="ReceiveWaitingNatively"/> whose time passed), and such a receive processes all pending
        /// commands before it gives up, so the descriptor is quiet and the next command
        /// (a pipe with a new message) makes it readable. A receive that failed with EINTR may have left commands, but then it
        /// did not consume their signal either, and the poll returns at once.</para>
        /// </summary>
        private int WaitReadable(WakerHandle? waker, int timeoutMs)
        {
            if (s_windowsPollItems || IsThreadSafe)
            {
                int ready = PollSocket(Interop.Zmq.ZMQ_POLLIN, waker, timeoutMs);
                if (ready < 0)
                {
                    ThrowUnlessInterrupted("receive (zmq_poll)");
                }

                return ready;
            }

            if (_commandFd < 0)
            {
                _commandFd = (int)FdWhileLeased;
            }

            Interop.Libc.PollFd* fds = stackalloc Interop.Libc.PollFd[2];
            fds[0] = new Interop.Libc.PollFd { Fd = _commandFd, Events = Interop.Libc.POLLIN };
            nuint count = 1;
            if (waker is not null)
            {
                fds[1] = new Interop.Libc.PollFd { Fd = waker.ReadFd, Events = Interop.Libc.POLLIN };
                count = 2;
            }

            int rc = Interop.Libc.poll(fds, count, timeoutMs);
            if (rc < 0)
            {
#if NET
                int errno = Marshal.GetLastPInvokeError();
#else
                int errno = Marshal.GetLastWin32Error();
#endif
                if (errno != ErrorMap.EINTR)
                {
                    ZmqThrow.Error(errno, "receive (poll)");
                }
            }

            return rc;
        }

        /// <summary>One <c>zmq_poll</c> on this socket plus the waker (if any). Returns zmq_poll's result.</summary>
        private int PollSocket(short events, WakerHandle? waker, int timeoutMs)
        {
            if (s_windowsPollItems)
            {
                Interop.Zmq.PollItemWindows item = default;
                item.Socket = _socket;
                item.Events = events;
                return Interop.Zmq.zmq_poll(&item, 1, timeoutMs);
            }

            Interop.Zmq.PollItemPosix* items = stackalloc Interop.Zmq.PollItemPosix[2];
            items[0] = new Interop.Zmq.PollItemPosix { Socket = _socket, Events = events };
            int count = 1;
            if (waker is not null)
            {
                items[1] = new Interop.Zmq.PollItemPosix { Fd = waker.ReadFd, Events = Interop.Zmq.ZMQ_POLLIN };
                count = 2;
            }

            return Interop.Zmq.zmq_poll(items, count, timeoutMs);
        }
    }
}
