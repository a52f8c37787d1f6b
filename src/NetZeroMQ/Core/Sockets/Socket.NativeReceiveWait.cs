using System;
using System.Runtime.CompilerServices;

namespace NetZeroMQ
{
    public sealed unsafe partial class Socket
    {
        /// <summary>
        /// The longest a blocking receive waits inside libzmq's own blocking <c>zmq_recv</c>, where nothing can wake it: it
        /// bounds how long <see cref="Dispose"/> takes to end such a receive. It adds no latency: libzmq returns as soon as a
        /// frame arrives, and a receive still waiting after it goes on in the wakeable wait (<see cref="WaitReadable"/>).
        /// </summary>
        internal const int NativeReceiveSliceMs = 10;

        /// <summary>What <see cref="ReceiveWaitingNatively"/> returns when a signal ended its wait early (EINTR).</summary>
        private const int NativeWaitInterrupted = -2;

        /// <summary>
        /// The flags of a blocking receive's first attempt: <c>ZMQ_DONTWAIT</c> until <see cref="StartNativeReceiveWaits"/>,
        /// then 0 for good. One field is the whole state, so the inlined hot path reads it once and passes it on.
        /// </summary>
        private int _blockingReceiveFlags = Interop.Zmq.ZMQ_DONTWAIT;

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

        /// <summary>The native <c>ZMQ_RCVTIMEO</c> while <see cref="ReceivesWaitNatively"/>: the slice, or the caller's shorter timeout.</summary>
        private int _nativeReceiveWaitMs;

        /// <summary>
        /// The receive timeout as the caller set it (-1: infinite) while <see cref="ReceivesWaitNatively"/>: every read and
        /// write of <c>ZMQ_RCVTIMEO</c> goes through this field then, because the native option holds the slice.
        /// </summary>
        private int _receiveTimeoutMs;

        /// <summary>
        /// Puts the slice in place, at the first blocking receive that had to wait (most sockets never get here: they never
        /// wait to receive, or they are thread-safe, where the native timeout is shared by every thread's receive and stays the
        /// caller's). The caller holds the socket.
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
        /// Sets the native timeout from <see cref="_receiveTimeoutMs"/>: the slice, or the caller's timeout where that is
        /// shorter (then the native wait is the whole wait).
        /// </summary>
        private void ApplyReceiveTimeout()
        {
            _nativeReceiveWaitMs = _receiveTimeoutMs < 0 ? NativeReceiveSliceMs : Math.Min(_receiveTimeoutMs, NativeReceiveSliceMs);
            SetInt32Unguarded(Interop.Zmq.ZMQ_RCVTIMEO, _nativeReceiveWaitMs);
        }

        /// <summary>
        /// The first attempt of a blocking receive while <see cref="ReceivesWaitNatively"/>: libzmq's blocking receive, which
        /// returns a frame as soon as one is there and gives up after <see cref="_nativeReceiveWaitMs"/>. Returns the byte
        /// count; <see cref="TransferStep.WouldBlock"/> when that time passed, <see cref="NativeWaitInterrupted"/> when a
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

            return TransferStep.WouldBlock;
        }

        /// <summary>
        /// How much of the caller's timeout a first attempt that would block has surely used: the native wait that ran to its
        /// end less a millisecond (libzmq's clock counts whole, cached milliseconds, so its wait may end up to one early),
        /// nothing when there was none or a signal cut it short (the wait may then last up to a slice longer). So a receive
        /// never times out before the caller's timeout has passed.
        /// </summary>
        private int NativeWaitSpentMs(TransferWait wait, int firstResult) =>
            WaitsNatively(wait) && firstResult == TransferStep.WouldBlock ? Math.Max(_nativeReceiveWaitMs - 1, 0) : 0;

        /// <summary>
        /// A read of <paramref name="option"/> answered from the kept receive timeout: true (and the value written) when the
        /// option is <c>ZMQ_RCVTIMEO</c> and the native one holds the slice.
        /// </summary>
        private bool TryReadKeptOption(int option, void* value, nuint size)
        {
            if (option != Interop.Zmq.ZMQ_RCVTIMEO || !ReceivesWaitNatively || size != sizeof(int))
            {
                return false;
            }

            *(int*)value = _receiveTimeoutMs;
            return true;
        }

        /// <summary>
        /// After libzmq accepted a write of <paramref name="option"/> (so the value is valid): a new receive timeout is kept and
        /// the native one set again from it.
        /// </summary>
        private void OnOptionWritten(int option, void* value, int size)
        {
            if (option == Interop.Zmq.ZMQ_RCVTIMEO && ReceivesWaitNatively && size == sizeof(int))
            {
                _receiveTimeoutMs = *(int*)value;
                ApplyReceiveTimeout();
            }
        }
    }
}
