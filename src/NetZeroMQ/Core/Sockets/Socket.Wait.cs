using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

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
        /// Sends or receives. The first attempt never blocks (<see cref="TransferStep"/>); only if libzmq says EAGAIN and the
        /// caller wants to block does it enter the wait loop. (These calls keep their GC transition: <c>SuppressGCTransition</c>
        /// was measured and rejected, because libzmq may run the zero-copy free callback, which is .NET code, from inside a send
        /// or receive — closing the previous inproc message, or a conflated one — and the runtime aborts the process when
        /// .NET is entered from a call without a transition.) Returns the byte count, or -1 for "would block" when
        /// <paramref name="throwIfWouldBlock"/> is false.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private int Transfer<T>(ref T op, int flags, bool throwIfWouldBlock)
            where T : struct, INativeTransfer
        {
            int rc = TransferStep.TryOnce(ref op, _socket, flags);
            return rc >= 0 ? rc : TransferSlow(ref op, flags, throwIfWouldBlock);
        }

        /// <summary>The first attempt would block: report that, or wait.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private int TransferSlow<T>(ref T op, int flags, bool throwIfWouldBlock)
            where T : struct, INativeTransfer
        {
            if ((flags & Interop.Zmq.ZMQ_DONTWAIT) != 0)
            {
                if (!throwIfWouldBlock)
                {
                    return TransferStep.WouldBlock;
                }

                ZmqThrow.Error(ErrorMap.EAGAIN, op.IsSend ? "send (would block)" : "receive (would block)");
            }

            return op.IsSend ? WaitToSend(ref op, flags) : WaitToReceive(ref op, flags);
        }

        /// <summary>
        /// Blocking receive: waits in <c>zmq_poll</c> on the socket and its waker, so that <see cref="Dispose"/> from another
        /// thread ends the wait at once, then receives without blocking. Bounded by <see cref="ReceiveTimeout"/>.
        /// </summary>
        private int WaitToReceive<T>(ref T op, int flags)
            where T : struct, INativeTransfer
        {
            int timeoutMs = GetInt32Unguarded(Interop.Zmq.ZMQ_RCVTIMEO);
            WakerHandle? waker = GetOrCreateWakerWhileLeased();
            long start = Stopwatch.GetTimestamp();
            while (true)
            {
                if (_guard.IsDisposeRequested)
                {
                    ThrowDisposed();
                }

                int wait = RemainingMs(start, timeoutMs);
                if (wait == 0)
                {
                    ZmqThrow.Timeout("receive");
                }

                if (waker is null && (wait < 0 || wait > UninterruptibleSliceMs))
                {
                    wait = UninterruptibleSliceMs;
                }

                if (PollSocket(Interop.Zmq.ZMQ_POLLIN, waker, wait) < 0)
                {
                    int pollErrno = Interop.Zmq.zmq_errno();
                    if (pollErrno != ErrorMap.EINTR)
                    {
                        ZmqThrow.Error(pollErrno, "receive (zmq_poll)");
                    }

                    continue;
                }

                int rc = op.Invoke(_socket, flags | Interop.Zmq.ZMQ_DONTWAIT);
                if (rc >= 0)
                {
                    return rc;
                }

                int errno = Interop.Zmq.zmq_errno();
                if (errno != ErrorMap.EAGAIN && errno != ErrorMap.EINTR)
                {
                    ZmqThrow.Error(errno, "receive");
                }
            }
        }

        /// <summary>
        /// Blocking send: lets libzmq wait natively in slices of at most <see cref="UninterruptibleSliceMs"/>. Polling is not
        /// used for sends because libzmq reports PUB with XPUB_NODROP and ROUTER with ROUTER_MANDATORY as writable while a send
        /// to a full peer still fails, which would turn the wait into a spin. Bounded by <see cref="SendTimeout"/>.
        /// </summary>
        private int WaitToSend<T>(ref T op, int flags)
            where T : struct, INativeTransfer
        {
            int timeoutMs = GetInt32Unguarded(Interop.Zmq.ZMQ_SNDTIMEO);
            int nativeTimeout = timeoutMs;
            long start = Stopwatch.GetTimestamp();
            try
            {
                while (true)
                {
                    if (_guard.IsDisposeRequested)
                    {
                        ThrowDisposed();
                    }

                    int wait = RemainingMs(start, timeoutMs);
                    if (wait == 0)
                    {
                        ZmqThrow.Timeout("send");
                    }

                    if (wait < 0 || wait > UninterruptibleSliceMs)
                    {
                        wait = UninterruptibleSliceMs;
                    }

                    if (wait != nativeTimeout)
                    {
                        SetInt32Unguarded(Interop.Zmq.ZMQ_SNDTIMEO, wait);
                        nativeTimeout = wait;
                    }

                    int rc = op.Invoke(_socket, flags & ~Interop.Zmq.ZMQ_DONTWAIT);
                    if (rc >= 0)
                    {
                        return rc;
                    }

                    int errno = Interop.Zmq.zmq_errno();
                    if (errno != ErrorMap.EAGAIN && errno != ErrorMap.EINTR)
                    {
                        ZmqThrow.Error(errno, "send");
                    }
                }
            }
            finally
            {
                if (nativeTimeout != timeoutMs)
                {
                    SetInt32Unguarded(Interop.Zmq.ZMQ_SNDTIMEO, timeoutMs);
                }
            }
        }

        /// <summary>Milliseconds left of <paramref name="timeoutMs"/> since <paramref name="start"/>: -1 infinite, 0 expired.</summary>
        private static int RemainingMs(long start, int timeoutMs)
        {
            if (timeoutMs < 0)
            {
                return -1;
            }

            long elapsedMs = (Stopwatch.GetTimestamp() - start) * 1000 / Stopwatch.Frequency;
            long left = timeoutMs - elapsedMs;
            return left <= 0 ? 0 : (int)left;
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
