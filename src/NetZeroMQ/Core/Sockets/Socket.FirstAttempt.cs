using System.Runtime.CompilerServices;

namespace NetZeroMQ
{
    public sealed partial class Socket
    {
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
        /// the finally blocks inline and called them (callgrind: 6 instructions per span message, 13 per reused Message, where the calls of the finally blocks alone were 45).</para>
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
        /// socket has both), so a plain socket counts with two plain additions and no test of its own (callgrind: 3
        /// instructions per transfer).
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
    }
}
