using System;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// Owns a libzmq context. Every socket handle holds a reference on it, so <c>zmq_ctx_term</c> runs only after the last socket
    /// of the context was closed, whatever order Dispose calls and finalizers come in.
    /// </summary>
    internal sealed class ContextHandle : SafeHandle
    {
        internal ContextHandle(nint context)
            : base(IntPtr.Zero, ownsHandle: true)
        {
            SetHandle(context);
        }

        public override bool IsInvalid => handle == IntPtr.Zero;

        /// <summary>
        /// Set by <see cref="Context.Dispose()"/>: terminate on the releasing thread. Left false when the context was abandoned and
        /// reaches the finalizer; then <c>zmq_ctx_term</c> runs on a background thread, because it blocks until linger expires and
        /// a finalizer must never block.
        /// </summary>
        internal volatile bool TerminateInline;

        protected override bool ReleaseHandle()
        {
            nint context = handle;
            if (TerminateInline)
            {
                Terminate(context);
            }
            else
            {
                var thread = new Thread(static state => Terminate((nint)state!)) { IsBackground = true, Name = "NetZeroMQ context term" };
                thread.Start(context);
            }

            return true;
        }

        private static void Terminate(nint context)
        {
            // zmq_ctx_term returns EINTR when a signal arrives while it waits; the contract is to call it again.
            while (Interop.Zmq.zmq_ctx_term(context) != 0 && Interop.Zmq.zmq_errno() == ErrorMap.EINTR)
            {
            }

            ResourceCounters.ContextTerminated();
        }
    }
}
