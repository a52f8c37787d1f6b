using System;
using System.Diagnostics;
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

        /// <summary>How long <see cref="TerminateAfterRelease"/> waits for calls still inside the context's sockets to leave.</summary>
        internal static readonly TimeSpan ReleaseWait = TimeSpan.FromSeconds(2);

        private readonly object _gate = new object();
        private Termination _termination;
        private nint _released;

        private enum Termination
        {
            /// <summary>Abandoned (or not yet disposed): whoever releases last starts the termination on a background thread.</summary>
            Background,

            /// <summary>The owner's <see cref="Context.Dispose()"/> waits to terminate the context on its own thread.</summary>
            AwaitedByOwner,

            /// <summary>Released while the owner waits: the owner terminates.</summary>
            HandedToOwner,
        }

        /// <summary>
        /// For <see cref="Context.Dispose()"/>, before it releases its reference: from now on the last release hands the
        /// termination to <see cref="TerminateAfterRelease"/> instead of running it wherever that release happens.
        /// </summary>
        internal void AwaitTerminationByOwner()
        {
            lock (_gate)
            {
                _termination = Termination.AwaitedByOwner;
            }
        }

        /// <summary>
        /// For <see cref="Context.Dispose()"/>, after it released its reference: waits (at most <see cref="ReleaseWait"/>) for the
        /// last reference to go, which a socket still inside a call on another thread holds until that call leaves (promptly,
        /// once the context is shut down), then terminates the context on this thread (<c>zmq_ctx_term</c>, bounded by linger).
        /// So when Dispose returns, libzmq's threads are gone: a process that exits next cannot run libzmq's static destructors
        /// under a termination still running on another thread (libzmq built with tweetnacl locks a static mutex in
        /// <c>zmq_ctx_term</c>, and aborts if exit destroyed it first). Returns false if the wait ran out: the context is then
        /// terminated on a background thread once the last call leaves.
        /// </summary>
        internal bool TerminateAfterRelease()
        {
            nint context;
            lock (_gate)
            {
                Stopwatch waited = Stopwatch.StartNew();
                while (_termination == Termination.AwaitedByOwner)
                {
                    long left = (long)ReleaseWait.TotalMilliseconds - waited.ElapsedMilliseconds;
                    if (left <= 0)
                    {
                        _termination = Termination.Background;
                        return false;
                    }

                    Monitor.Wait(_gate, (int)left);
                }

                context = _released;
            }

            Terminate(context);
            return true;
        }

        protected override bool ReleaseHandle()
        {
            nint context = handle;
            lock (_gate)
            {
                if (_termination == Termination.AwaitedByOwner)
                {
                    _released = context;
                    _termination = Termination.HandedToOwner;
                    Monitor.PulseAll(_gate);
                    return true;
                }
            }

            // Abandoned, or the owner stopped waiting: zmq_ctx_term blocks until linger expires, and this may be the finalizer
            // thread, the async reactor's thread or a caller's, none of which may block that long.
            try
            {
                var thread = new Thread(static state => Terminate((nint)state!)) { IsBackground = true, Name = "NetZeroMQ context term" };
                thread.Start(context);
            }
            catch (Exception e) when (e is OutOfMemoryException || e is ThreadStartException)
            {
                // No thread to be had (at the descriptor limit a new thread needs two): terminating here beats an exception
                // out of a finalizer, which would end the process.
                Terminate(context);
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
