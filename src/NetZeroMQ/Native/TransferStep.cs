using System.Runtime.CompilerServices;

namespace NetZeroMQ
{
    /// <summary>
    /// One non-blocking attempt at a send or receive: the step every path shares. The blocking calls make it first and wait
    /// only if it would block; the async calls make it first (through the non-blocking calls) and again each time the socket
    /// may be ready. A signal (EINTR) is retried at once, "would block" (EAGAIN) is a value, any other error throws.
    /// </summary>
    internal static class TransferStep
    {
        /// <summary>What <see cref="TryOnce"/> returns when the call would block.</summary>
        internal const int WouldBlock = -1;

        /// <summary>
        /// Makes <paramref name="op"/> once with <c>ZMQ_DONTWAIT</c> added to <paramref name="flags"/>. Returns libzmq's result
        /// (bytes, 0 or more) or <see cref="WouldBlock"/>; throws <see cref="ZmqException"/> for any other error. The caller holds
        /// the socket. Inlined, so a call that succeeds costs the native call and one compare; everything else is out of line.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal static int TryOnce<T>(ref T op, nint socket, int flags)
            where T : struct, INativeTransfer
        {
            int rc = op.Invoke(socket, flags | Interop.Zmq.ZMQ_DONTWAIT);
            return rc >= 0 ? rc : AfterFailure(op, socket, flags);
        }

        /// <summary>The call failed: errno decides (read first, before anything can overwrite it). Takes a copy of the
        /// transfer, not a reference, so that the caller's stays in registers (the transfers are one to three words).</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static int AfterFailure<T>(T op, nint socket, int flags)
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
    }
}
