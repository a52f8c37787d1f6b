using System;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// Owns a libzmq socket and keeps its context alive (a reference on the <see cref="ContextHandle"/>), so <c>zmq_close</c>
    /// always runs before <c>zmq_ctx_term</c>. It also owns the socket's wake-up descriptor, if one was made.
    /// </summary>
    /// <remarks>
    /// Per-call protection is <see cref="UsageGuard"/> in <see cref="Socket"/>, not this handle's reference count: the count is
    /// touched only at creation and close, never per message.
    /// </remarks>
    internal sealed class SocketHandle : SafeHandle
    {
        private readonly ContextHandle _context;
        private WakerHandle? _waker;

        internal SocketHandle(ContextHandle context, nint socket)
            : base(IntPtr.Zero, ownsHandle: true)
        {
            bool added = false;
            context.DangerousAddRef(ref added);
            _context = context;
            SetHandle(socket);
            ResourceCounters.SocketOpened();
        }

        public override bool IsInvalid => handle == IntPtr.Zero;

        /// <summary>
        /// Set by <see cref="Socket.Dispose"/>: the socket is closed with its configured linger. Left false when the socket was
        /// abandoned and reaches the finalizer: then nobody can read or wait for its queued messages, so linger is set to 0
        /// first and the abandoned socket can never hold <c>zmq_ctx_term</c> up.
        /// </summary>
        internal volatile bool ClosedByOwner;

        /// <summary>The wake-up descriptor, or null if none was made yet.</summary>
        internal WakerHandle? Waker => Volatile.Read(ref _waker);

        /// <summary>
        /// Publishes the waker with a full fence. The thread that is about to wait re-checks for Dispose after this, and Dispose
        /// reads <see cref="Waker"/> after marking the socket disposed, so one of the two always sees the other.
        /// </summary>
        internal WakerHandle AttachWaker(WakerHandle waker)
        {
            // Several threads of a thread-safe socket may make one at once: the first one kept is the one every waiter and
            // Dispose use, and the others are closed.
            WakerHandle? kept = Interlocked.CompareExchange(ref _waker, waker, null);
            if (kept is null)
            {
                return waker;
            }

            waker.Dispose();
            return kept;
        }

        protected override unsafe bool ReleaseHandle()
        {
            if (!ClosedByOwner)
            {
                int zero = 0;
                Interop.Zmq.zmq_setsockopt(handle, Interop.Zmq.ZMQ_LINGER, &zero, sizeof(int));
            }

            Interop.Zmq.zmq_close(handle);
            ResourceCounters.SocketClosed();
            _waker?.Dispose();
            _context.DangerousRelease();
            return true;
        }
    }
}
