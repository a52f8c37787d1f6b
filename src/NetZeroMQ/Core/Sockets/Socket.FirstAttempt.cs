using System.Runtime.CompilerServices;

namespace NetZeroMQ
{
    public sealed partial class Socket
    {
        /// <summary>
        /// The first, non-blocking attempt of a send or receive on the hot path, made before any try/finally: true when libzmq
        /// moved the frame (counted in <see cref="_traffic"/>, as every transfer is), with the byte count in
        /// <paramref name="rc"/>. Nothing here throws, so the caller may hold the guard without a try/finally and simply exit
        /// on success; on false it hands the whole call to its usual path (inside a try/finally, out of line), which makes the
        /// attempt again and does what a failure calls for (EINTR: retry, EAGAIN: wait or report, else throw). A failed attempt
        /// changes nothing in libzmq (nothing is queued, consumed or closed), so making it twice is safe; it costs one more
        /// non-blocking call only when the call would block or fail anyway.
        /// <para>Why: the try/finally around the native call kept the socket, the buffer and the transfer in memory rather than
        /// registers, and where a method holds several (a Message sent and received in one loop) the compiler stopped copying
        /// the finally blocks inline and called them (callgrind: N instructions per message).</para>
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private bool TryTransferAtOnce<T>(ref T op, int flags, out int rc)
            where T : struct, INativeTransfer
        {
            rc = op.Invoke(_socket, flags | Interop.Zmq.ZMQ_DONTWAIT);
            if (rc < 0)
            {
                return false;
            }

            _traffic.Moved(op.IsSend, rc);
            return true;
        }
    }
}
