using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ
{
    // How one send or receive moves a frame, from the API faces (Socket.Send.cs, Socket.Recv.cs) to libzmq and back. A blocking
    // Send(ReadOnlySpan<byte>) and Recv(Span<byte>) read top to bottom in this file from step 2 on; the Message forms take the
    // same steps through TransferMessage, the multipart and zero-copy forms from step 3 (Transfer).
    //
    // 1. Claim. The API face checks its arguments, claims the guard (Enter, Socket.cs) and makes the transfer struct of the
    //    frame (BufferSend, BufferRecv, PooledSend: Native/NativeTransfers.cs; MessageSend, MessageRecv:
    //    Core/Messages/MessageTransfers.cs): one libzmq call, which the JIT specialises per struct (no delegate, no allocation).
    // 2. First attempt, inline and without a try/finally (TryTransferAtOnce; TryReceiveAtOnce for a receive): one call with
    //    ZMQ_DONTWAIT, or, for a blocking receive on a socket in the "waiting natively" state (step 6), libzmq's own blocking
    //    receive bounded by a short slice. Nothing there throws, so the guard is held without a finally. If the frame moved,
    //    ExitAfterMove counts it in the socket's traffic and ends the call (step 7): most calls end here.
    // 3. Otherwise the call goes out of line, into a method that ends the call whatever happens (suffix AndExit: SendAndExit,
    //    RecvAndExit, TransferMessageAndExit; a span send of a large frame goes there at once, and on through the send buffer
    //    pool, SendPooledUnguarded). Transfer makes the attempt again (AttemptOnce: EINTR is retried at once, EAGAIN is the
    //    value WouldBlock, any other error throws with libzmq's errno); after a native wait it goes on from that wait's error
    //    instead (ContinueAfterNativeWait). A failed attempt changes nothing in libzmq, so making it twice is safe.
    // 4. Would block (TransferSlow): TrySend/TryRecv return false at once; the blocking and timed forms wait, bounded by the
    //    socket's option (TransferWait.Blocking: an exception when it passes) or the call's own timeout (then false). On the
    //    async reactor's thread while it runs continuations inline, a call that would wait throws instead (NoWaitThread).
    // 5. Waits. A send waits inside libzmq, in slices of ZMQ_SNDTIMEO of at most UninterruptibleSliceMs (WaitToSend; a
    //    thread-safe socket, whose native timeout other threads read, keeps its slice for good: WaitToSendShared). A receive
    //    polls ZMQ_FD and the socket's waker (WaitToReceive, WaitReadable), so a Dispose or a cancellation wakes it at once,
    //    then receives without blocking. Every turn starts in NextTurn, which throws for a Dispose or a cancellation.
    // 6. The receive-wait state (its fields are in Socket.cs). A socket starts "polling"; its first blocking receive that has
    //    to wait moves it for good to "waiting natively" (StartNativeReceiveWaits; a thread-safe socket starts there, and
    //    its sends wait natively too, with a SNDTIMEO shadow: StartSharedNativeWaits): the native
    //    ZMQ_RCVTIMEO then holds a slice (NativeReceiveSliceMs, or the caller's shorter timeout) and the caller's value lives
    //    in the RCVTIMEO shadow, which the option calls read and write through TryReadKeptOption and OnOptionWritten
    //    (Socket.Options.cs). From then on step 2 of a blocking receive is libzmq's blocking receive itself, which costs what
    //    a C program's does; a receive still waiting after the slice goes on in step 5.
    // 7. Exit (Socket.cs): the guard is released; a Dispose that arrived meanwhile closes the socket now, and attached
    //    machinery (the async side) retries its pending work.
    public sealed unsafe partial class Socket
    {
        // ---- 2. The first attempt, inline: most calls end here.

        /// <summary>
        /// The hot path's first attempt at a span send, under the guard the caller took and without a try/finally
        /// (<see cref="TryTransferAtOnce"/>): true when the frame was sent, and then the guard is released; false leaves the
        /// guard held for <see cref="SendAndExit"/>. Large frames (the send buffer pool's) always go to SendAndExit.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private bool TrySendAtOnce(ReadOnlySpan<byte> data, int flags)
        {
            if (SendBufferPool.Takes(data.Length))
            {
                return false;
            }

            int sent;
            fixed (byte* p = &MemoryMarshal.GetReference(data))
            {
                var op = new BufferSend(p, data.Length);
                if (!TryTransferAtOnce(ref op, flags, out sent))
                {
                    return false;
                }
            }

            ExitAfterMove(isSend: true, sent);
            return true;
        }

        /// <summary>
        /// The first, non-blocking attempt of a send or receive on the hot path, made before any try/finally: true when libzmq
        /// moved the frame, with the byte count in <paramref name="rc"/>; the caller then ends the call with
        /// <see cref="ExitAfterMove"/>. Nothing here throws, so the caller may hold the guard without a try/finally; on false it
        /// hands the whole call to its usual path (inside a try/finally, out of line), which makes the attempt again and does
        /// what a failure calls for (EINTR: retry, EAGAIN: wait or report, else throw). A failed attempt changes nothing in
        /// libzmq (nothing is queued, consumed or closed), so making it twice is safe; it costs one more non-blocking call only
        /// when the call would block or fail anyway.
        /// <para>Why: the try/finally around the native call kept the socket, the buffer and the transfer in memory rather than
        /// registers, and where a method holds several (a Message sent and received in one loop) the compiler stopped copying
        /// the finally blocks inline and called them, which the per-message instruction budgets (benchmarks/instructions/budgets.txt) do not
        /// leave room for.</para>
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private bool TryTransferAtOnce<T>(ref T op, int flags, out int rc)
            where T : struct, INativeTransfer
        {
            rc = op.Invoke(_socket, flags | Interop.Zmq.ZMQ_DONTWAIT);
            return rc >= 0;
        }

        /// <summary>
        /// <see cref="TryTransferAtOnce"/> for a receive. A blocking receive (<paramref name="wait"/> is the socket's timeout)
        /// on a socket whose receives wait natively makes its first attempt the native wait itself (see
        /// <see cref="StartNativeReceiveWaits"/>): a non-blocking attempt first would drain the socket's commands once more,
        /// a zero-timeout poll per receive that waits, and libzmq's blocking receive returns a waiting frame as fast as the
        /// non-blocking one. On false the caller's usual path goes on from where this left: after a native wait, from its
        /// error (<see cref="ContinueAfterNativeWait"/>, rather than waiting a second slice; <see cref="WaitsNatively"/> says which,
        /// and libzmq's error is still in errno for it to read first); else it makes the attempt again.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private bool TryReceiveAtOnce<T>(ref T op, TransferWait wait, out int rc)
            where T : struct, INativeTransfer
        {
            rc = op.Invoke(_socket, wait.UsesSocketTimeout ? _blockingReceiveFlags : Interop.Zmq.ZMQ_DONTWAIT);
            return rc >= 0;
        }

        /// <summary>
        /// Ends a call whose <see cref="TryTransferAtOnce"/> moved a frame: counts it in <see cref="_traffic"/>, as every transfer
        /// is counted, and exits. The guard's one slow-exit flag also covers the traffic's interlocked counting (a thread-safe
        /// socket has both), so a plain socket counts with two plain additions and no test of its own (benchmarks/instructions/budgets.txt).
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private void ExitAfterMove(bool isSend, int bytes)
        {
            if (_guard.HasSlowExit)
            {
                _traffic.Moved(isSend, bytes);
                ExitSlow();
            }
            else
            {
                _traffic.MovedUnshared(isSend, bytes);
                if (_guard.ExitPlain())
                {
                    ReleaseNative();
                }
            }
        }

        /// <summary>
        /// zmq_msg_send or zmq_msg_recv of <paramref name="message"/>, holding both guards (the transfer updates the message's
        /// cached size: empty after a send, the frame's size after a receive). False means "would block" or "timed out" for a Try
        /// form. The first attempt runs without a try/finally (<see cref="TryTransferAtOnce"/>), inlined down into the caller of
        /// the blocking <c>Send(Message)</c> and <c>Recv(Message)</c>, so that <paramref name="isSend"/> is a constant; anything
        /// else goes to <see cref="TransferMessageAndExit"/>. (As a call of its own with two try/finally blocks it would not fit
        /// the Message path's instruction budget, benchmarks/instructions/budgets.txt.)
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private bool TransferMessage(Message message, int flags, TransferWait wait, bool isSend)
        {
            Enter();
            bool attempted = message.TryEnterAtOnce();
            if (attempted)
            {
                bool moved;
                int rc;
                if (isSend)
                {
                    var op = new MessageSend(message);
                    moved = TryTransferAtOnce(ref op, flags, out rc);
                }
                else
                {
                    var op = new MessageRecv(message);
                    moved = TryReceiveAtOnce(ref op, wait, out rc);
                }

                message.Exit();
                if (moved)
                {
                    ExitAfterMove(isSend, rc);
                    return true;
                }
            }

            return TransferMessageAndExit(message, flags, wait, isSend, attempted);
        }

        // ---- 3. Out of line: the attempt again, under a try/finally that ends the call.

        /// <summary>A span send under the guard the caller took, which this releases whatever happens.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private bool SendAndExit(ReadOnlySpan<byte> data, int flags, TransferWait wait)
        {
            try
            {
                return SendBytesUnguarded(data, flags, wait);
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>
        /// Sends one frame; the caller holds the guard. Inlined into its callers: the large-frame branch kept it from being
        /// inlined otherwise, which the span path's instruction budget (benchmarks/instructions/budgets.txt, measure.sh) does not leave room for.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private bool SendBytesUnguarded(ReadOnlySpan<byte> data, int flags, TransferWait wait)
        {
            if (SendBufferPool.Takes(data.Length))
            {
                return SendPooledUnguarded(data, flags, wait);
            }

            fixed (byte* p = &MemoryMarshal.GetReference(data))
            {
                var op = new BufferSend(p, data.Length);
                return Transfer(ref op, flags, wait) >= 0;
            }
        }

        /// <summary>
        /// Sends one large frame copied into a pooled native buffer (<see cref="SendBufferPool"/>), which libzmq gives back
        /// when it is done with it; a frame that is not sent (would block, timed out, failed) is closed here, which gives the
        /// buffer back at once. The caller holds the guard.
        /// </summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private bool SendPooledUnguarded(ReadOnlySpan<byte> data, int flags, TransferWait wait)
        {
            ulong* msg = stackalloc ulong[Interop.Zmq.ZmqMsgSize / sizeof(ulong)];
            SendBufferPool.InitCopy(msg, data);
            bool sent = false;
            try
            {
                var op = new PooledSend(msg);
                sent = Transfer(ref op, flags, wait) >= 0;
                return sent;
            }
            finally
            {
                if (!sent)
                {
                    Interop.Zmq.zmq_msg_close(msg);
                }
            }
        }

        /// <summary>A blocking receive into <paramref name="buffer"/> under the guard the caller took, which this releases
        /// whatever happens, after <see cref="TryReceiveAtOnce"/> failed.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private RecvResult RecvAndExit(Span<byte> buffer)
        {
            try
            {
                fixed (byte* p = &MemoryMarshal.GetReference(buffer))
                {
                    var op = new BufferRecv(p, buffer.Length);
                    int size = WaitsNatively(TransferWait.Blocking)
                        ? ContinueAfterNativeWait(ref op, 0, TransferWait.Blocking, Interop.Zmq.zmq_errno())
                        : Transfer(ref op, 0, TransferWait.Blocking);
                    return new RecvResult(Math.Min(size, buffer.Length), size);
                }
            }
            finally
            {
                Exit();
            }
        }

        /// <summary><see cref="TransferMessage"/> under the socket's guard, which the caller took and this releases whatever
        /// happens; takes the message's guard for the transfer. <paramref name="attempted"/>: whether the caller made its first
        /// attempt (<see cref="TryReceiveAtOnce"/> for a receive).</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private bool TransferMessageAndExit(Message message, int flags, TransferWait wait, bool isSend, bool attempted)
        {
            try
            {
                message.Enter();
                try
                {
                    if (isSend)
                    {
                        var op = new MessageSend(message);
                        return Transfer(ref op, flags, wait) >= 0;
                    }
                    else
                    {
                        var op = new MessageRecv(message);
                        return (attempted && WaitsNatively(wait)
                            ? ContinueAfterNativeWait(ref op, flags, wait, Interop.Zmq.zmq_errno())
                            : Transfer(ref op, flags, wait)) >= 0;
                    }
                }
                finally
                {
                    message.Exit();
                }
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>
        /// Sends or receives. The attempt never blocks (<see cref="AttemptOnce"/>); only if libzmq says EAGAIN and
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
                : AttemptOnce(ref op, _socket, flags);
            if (rc >= 0)
            {
                _traffic.Moved(op.IsSend, rc);
                return rc;
            }

            return TransferSlow(ref op, flags, wait, rc);
        }

        /// <summary>What an attempt (<see cref="AttemptOnce"/>, <see cref="SocketLease.TryTransfer"/>) returns when the call would block.</summary>
        internal const int WouldBlock = -1;

        /// <summary>
        /// The step every attempt outside the waits takes: makes <paramref name="op"/> once with <c>ZMQ_DONTWAIT</c> added to <paramref name="flags"/>. Returns libzmq's result
        /// (bytes, 0 or more) or <see cref="WouldBlock"/>; throws <see cref="ZmqException"/> for any other error. The caller holds
        /// the guard. Inlined, so a call that succeeds costs the native call and one compare; everything else is out of line.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private static int AttemptOnce<T>(ref T op, nint socket, int flags)
            where T : struct, INativeTransfer
        {
            int rc = op.Invoke(socket, flags | Interop.Zmq.ZMQ_DONTWAIT);
            return rc >= 0 ? rc : AfterFailedAttempt(op, socket, flags);
        }

        /// <summary>The call failed: errno decides (read first, before anything can overwrite it). Takes a copy of the
        /// transfer, not a reference, so that the caller's stays in registers (the transfers are one to three words).</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static int AfterFailedAttempt<T>(T op, nint socket, int flags)
            where T : struct, INativeTransfer
        {
            int errno = Interop.Zmq.zmq_errno();
            while (errno == ErrorMap.EINTR)
            {
                int rc = op.Invoke(socket, flags | Interop.Zmq.ZMQ_DONTWAIT);
                if (rc >= 0)
                {
                    return rc;
                }

                errno = Interop.Zmq.zmq_errno();
            }

            if (errno != ErrorMap.EAGAIN)
            {
                ZmqThrow.Transfer(errno, socket, op.IsSend);
            }

            return WouldBlock;
        }

        // ---- 4. Would block: report it, or wait.

        /// <summary>
        /// The first attempt would block (<paramref name="firstResult"/>: <see cref="WouldBlock"/>, or
        /// <see cref="NativeWaitInterrupted"/>): report that, or wait.
        /// </summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private int TransferSlow<T>(ref T op, int flags, TransferWait wait, int firstResult)
            where T : struct, INativeTransfer
        {
            _traffic.CountWouldBlock();
            if (wait.IsNonBlocking)
            {
                return WouldBlock;
            }

            NoWaitThread.ThrowIfMarked(op.IsSend ? "send" : "receive");
            int rc = op.IsSend ? WaitToSend(ref op, flags, wait)
                : WaitToReceive(ref op, flags, wait, NativeWaitSpentMs(wait, firstResult));
            if (rc >= 0)
            {
                _traffic.Moved(op.IsSend, rc);
            }

            return rc;
        }

        // ---- 5. The waits.

        /// <summary>
        /// How long one native wait may last when it cannot be woken by <see cref="Dispose"/>: a send blocked at the high-water
        /// mark, or any wait on a platform without a waker. It bounds how long Dispose takes to end such a call; it adds no
        /// latency, because libzmq returns from the wait as soon as the socket is ready.
        /// </summary>
        internal const int UninterruptibleSliceMs = 50;

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
        /// Blocking send on a thread-safe socket. A blocking form (the socket's timeout) waits inside libzmq, in turns of the
        /// native <c>ZMQ_SNDTIMEO</c>, which holds a slice for good (<see cref="StartSharedNativeWaits"/>): libzmq's own wait for
        /// the peer to take messages, what a C program's blocking send costs, and a Dispose or a cancellation is seen between
        /// turns. The rest of a timeout shorter than a turn, and the timed Try forms, wait in <c>zmq_poll</c> for the socket to
        /// be writable, or the waker (Dispose), in slices of at most <see cref="UninterruptibleSliceMs"/>, then send without
        /// blocking. SERVER, PEER and RADIO report writable even when the peer's pipe is full (libzmq's <c>xhas_out</c> is
        /// always true there), so a send that still would block after a writable report waits a millisecond before the next
        /// try instead of spinning.
        /// </summary>
        private int WaitToSendShared<T>(ref T op, int flags, TransferWait wait)
            where T : struct, INativeTransfer
        {
            Deadline deadline = Deadline.After(wait.UsesSocketTimeout ? GetInt32Unguarded(Interop.Zmq.ZMQ_SNDTIMEO) : wait.TimeoutMilliseconds);
            if (wait.UsesSocketTimeout)
            {
                while (true)
                {
                    int turn = NextTurn(deadline, wait.CancellationToken, sliced: true);
                    if (turn == 0)
                    {
                        return TimedOut(wait, "send");
                    }

                    if (turn < _nativeSendWaitMs)
                    {
                        break; // less time left than a native turn lasts: the rest is polled below
                    }

                    int rc = AttemptWhileWaiting(ref op, flags & ~Interop.Zmq.ZMQ_DONTWAIT, "send");
                    if (rc >= 0)
                    {
                        return rc;
                    }
                }
            }

            WakerHandle? waker = GetOrCreateWakerUnguarded();
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
            WakerHandle? waker = GetOrCreateWakerUnguarded();
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

        /// <summary>The wait's time is up: a blocking call throws <see cref="ZmqError.TryAgain"/>, a timed Try call returns false (-1).</summary>
        private static int TimedOut(TransferWait wait, string operation)
        {
            if (wait.UsesSocketTimeout)
            {
                ZmqThrow.Timeout(operation);
            }

            return -1;
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
        /// descriptor) before and after every pass; the round-trip figures of that comparison, measured in C, are in
        /// docs/performance.md.</para>
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
                _commandFd = (int)FdUnguarded;
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

        // ---- 6. The receive-wait state: polling, or waiting natively with the RCVTIMEO shadow.

        /// <summary>
        /// The longest a blocking receive waits inside libzmq's own blocking <c>zmq_recv</c>, where nothing can wake it: it
        /// bounds how long <see cref="Dispose"/> takes to end such a receive. It adds no latency: libzmq returns as soon as a
        /// frame arrives, and a receive still waiting after it goes on in the wakeable wait (<see cref="WaitReadable"/>).
        /// </summary>
        internal const int NativeReceiveSliceMs = 10;

        /// <summary>What <see cref="ReceiveWaitingNatively"/> returns when a signal ended its wait early (EINTR).</summary>
        private const int NativeWaitInterrupted = -2;

        /// <summary>
        /// Whether a blocking receive starts with one native blocking call bounded by <see cref="_nativeReceiveWaitMs"/>
        /// instead of a non-blocking attempt and the wakeable wait. That wait costs two zero-timeout polls (and a
        /// <c>getpid</c>) per receive more than libzmq's own (the failed attempt's drain of the socket's commands, and the
        /// drain again after the wake): about a fifth of a small round trip. The native wait costs exactly what a C program's
        /// blocking receive costs.
        /// </summary>
        private bool ReceivesWaitNatively => _blockingReceiveFlags == 0;

        /// <summary>Whether a receive waiting as <paramref name="wait"/> says makes (or made) its first attempt the native wait.</summary>
        private bool WaitsNatively(TransferWait wait) => wait.UsesSocketTimeout && ReceivesWaitNatively;

        /// <summary>
        /// Puts the slice in place, at the first blocking receive that had to wait (most sockets never get here: they never
        /// wait to receive, or they are thread-safe and wait natively from their creation, <see cref="StartSharedNativeWaits"/>).
        /// The caller holds the socket.
        /// </summary>
        private void StartNativeReceiveWaits()
        {
            if (ReceivesWaitNatively || IsThreadSafe)
            {
                return;
            }

            _receiveTimeoutMs = GetInt32Unguarded(Interop.Zmq.ZMQ_RCVTIMEO);
            ApplyReceiveTimeout();
            _blockingReceiveFlags = 0;
        }

        /// <summary>
        /// Puts both slices in place on a new thread-safe socket, before anyone else can use it: its blocking receives and sends
        /// wait inside libzmq from the first, as a C program's do. Polling is no way to wait on these sockets: they have no
        /// <c>ZMQ_FD</c>, and each <c>zmq_poll</c> of one builds a poller with a descriptor of its own and tears it down again.
        /// The native timeouts are read by every thread's call at once, so they are set once, here and when the caller's
        /// values change (<see cref="OnOptionWritten"/>), never per call; the caller's values live in the shadows, where both
        /// start as libzmq's default (infinite).
        /// </summary>
        private void StartSharedNativeWaits()
        {
            _receiveTimeoutMs = Milliseconds.Infinite;
            ApplyReceiveTimeout();
            _blockingReceiveFlags = 0;
            _sendTimeoutMs = Milliseconds.Infinite;
            ApplySendTimeout();
        }

        /// <summary>
        /// Sets the native timeout from <see cref="_receiveTimeoutMs"/>: the slice, or the caller's timeout where that is
        /// shorter (then the native wait is the whole wait).
        /// </summary>
        private void ApplyReceiveTimeout()
        {
            _nativeReceiveWaitMs = _receiveTimeoutMs < 0 ? NativeReceiveSliceMs : Math.Min(_receiveTimeoutMs, NativeReceiveSliceMs);
            SetInt32Unguarded(Interop.Zmq.ZMQ_RCVTIMEO, _nativeReceiveWaitMs);
        }

        /// <summary>A thread-safe socket's <see cref="ApplyReceiveTimeout"/> for sends: the native <c>ZMQ_SNDTIMEO</c> from
        /// <see cref="_sendTimeoutMs"/>, a slice of at most <see cref="UninterruptibleSliceMs"/>.</summary>
        private void ApplySendTimeout()
        {
            _nativeSendWaitMs = _sendTimeoutMs < 0 ? UninterruptibleSliceMs : Math.Min(_sendTimeoutMs, UninterruptibleSliceMs);
            SetInt32Unguarded(Interop.Zmq.ZMQ_SNDTIMEO, _nativeSendWaitMs);
        }

        /// <summary>
        /// The first attempt of a blocking receive while <see cref="ReceivesWaitNatively"/>: libzmq's blocking receive, which
        /// returns a frame as soon as one is there and gives up after <see cref="_nativeReceiveWaitMs"/>. Returns the byte
        /// count; <see cref="WouldBlock"/> when that time passed, <see cref="NativeWaitInterrupted"/> when a
        /// signal came first (either way the wait goes on in <see cref="WaitToReceive"/>, which sees a Dispose: libzmq drained
        /// the socket's commands before it gave up, so the wakeable wait's descriptor stays quiet until the next one, as that
        /// wait needs). Any other failure throws.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private int ReceiveWaitingNatively<T>(ref T op, int flags)
            where T : struct, INativeTransfer
        {
            int rc = op.Invoke(_socket, flags & ~Interop.Zmq.ZMQ_DONTWAIT);
            return rc >= 0 ? rc : AfterNativeWait(Interop.Zmq.zmq_errno());
        }

        /// <summary>
        /// The rest of a blocking receive whose first attempt, made inline (<see cref="TryReceiveAtOnce"/>), was the native wait
        /// and failed with <paramref name="errno"/>: the wait goes on as after <see cref="ReceiveWaitingNatively"/>.
        /// </summary>
        private int ContinueAfterNativeWait<T>(ref T op, int flags, TransferWait wait, int errno)
            where T : struct, INativeTransfer =>
            TransferSlow(ref op, flags, wait, AfterNativeWait(errno));

        /// <summary>The native wait failed with <paramref name="errno"/>: its time passed (EAGAIN), a signal came (EINTR), or something to throw.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static int AfterNativeWait(int errno)
        {
            if (errno == ErrorMap.EINTR)
            {
                return NativeWaitInterrupted;
            }

            if (errno != ErrorMap.EAGAIN)
            {
                ZmqThrow.Error(errno, "receive");
            }

            return WouldBlock;
        }

        /// <summary>
        /// How much of the caller's timeout a first attempt that would block has surely used: the native wait that ran to its
        /// end less a millisecond (libzmq's clock counts whole, cached milliseconds, so its wait may end up to one early),
        /// nothing when there was none or a signal cut it short (the wait may then last up to a slice longer). So a receive
        /// never times out before the caller's timeout has passed.
        /// </summary>
        private int NativeWaitSpentMs(TransferWait wait, int firstResult) =>
            WaitsNatively(wait) && firstResult == WouldBlock ? Math.Max(_nativeReceiveWaitMs - 1, 0) : 0;

        /// <summary>
        /// A read of <paramref name="option"/> answered from a kept timeout: true (and the value written) when the option is
        /// <c>ZMQ_RCVTIMEO</c> and the native one holds the slice, or <c>ZMQ_SNDTIMEO</c> on a thread-safe socket.
        /// </summary>
        private bool TryReadKeptOption(int option, void* value, nuint size)
        {
            if (size != sizeof(int))
            {
                return false;
            }

            if (option == Interop.Zmq.ZMQ_RCVTIMEO && ReceivesWaitNatively)
            {
                *(int*)value = _receiveTimeoutMs;
                return true;
            }

            if (option == Interop.Zmq.ZMQ_SNDTIMEO && IsThreadSafe)
            {
                *(int*)value = _sendTimeoutMs;
                return true;
            }

            return false;
        }

        /// <summary>
        /// After libzmq accepted a write of <paramref name="option"/> (so the value is valid): a new kept timeout is kept and
        /// the native one set again from it. On a thread-safe socket another thread's wait may start between libzmq's write
        /// and this one, and then waits natively for the caller's value rather than a slice: up to that long before it sees a
        /// Dispose, never longer than the caller asked for.
        /// </summary>
        private void OnOptionWritten(int option, void* value, int size)
        {
            if (size != sizeof(int))
            {
                return;
            }

            if (option == Interop.Zmq.ZMQ_RCVTIMEO && ReceivesWaitNatively)
            {
                _receiveTimeoutMs = *(int*)value;
                ApplyReceiveTimeout();
            }
            else if (option == Interop.Zmq.ZMQ_SNDTIMEO && IsThreadSafe)
            {
                _sendTimeoutMs = *(int*)value;
                ApplySendTimeout();
            }
        }
    }
}
