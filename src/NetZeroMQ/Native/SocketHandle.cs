using System;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// Owns a libzmq socket and keeps its context alive (a reference on the <see cref="ContextHandle"/>), so <c>zmq_close</c>
    /// always runs before <c>zmq_ctx_term</c>. It also owns the socket's wake-up descriptor, if one was made, and keeps the
    /// socket's <see cref="SocketTraffic"/> in <see cref="SocketTrafficRegistry"/> from open to close: the close runs here
    /// whether the socket was disposed or abandoned to the finalizer, so its counts are folded into the totals either way.
    /// </summary>
    /// <remarks>
    /// Per-call protection is <see cref="UsageGuard"/> in <see cref="Socket"/>, not this handle's reference count: the count is
    /// touched only at creation and close, never per message.
    /// </remarks>
    internal sealed class SocketHandle : SafeHandle
    {
        private readonly ContextHandle _context;
        private readonly SocketTraffic _traffic;
        private WakerHandle? _waker;

        /// <summary>What must let go of the socket just before it closes (the async side), or null.</summary>
        private SocketCloseHook? _closeHook;

        /// <summary>
        /// The socket files of wildcard ipc listeners (<c>ipc://*</c>) that the loaded libzmq would leave behind at close, which
        /// are unlinked just before <c>zmq_close</c> (<see cref="UnlinkAtClose"/>); null until there is one. Written under the
        /// socket's usage guard, read at the release, which follows every call.
        /// </summary>
        private System.Collections.Generic.List<string>? _unlinkAtClose;

        internal SocketHandle(ContextHandle context, nint socket, SocketTraffic traffic)
            : base(IntPtr.Zero, ownsHandle: true)
        {
            bool added = false;
            context.DangerousAddRef(ref added);
            _context = context;
            _traffic = traffic;
            SetHandle(socket);
            ResourceCounters.SocketOpened();
            SocketTrafficRegistry.Add(traffic);
            if (NetZeroMQEventSource.Log.IsEnabled())
            {
                NetZeroMQEventSource.Log.SocketOpened(traffic.Id, SocketTypeNames.Of(traffic.Type));
            }
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

        /// <summary>
        /// Sets what runs just before the close, on whichever path it comes (<see cref="SocketCloseHook"/>); once, by the one
        /// thread attaching machinery to the socket.
        /// </summary>
        internal void SetCloseHook(SocketCloseHook hook)
        {
            System.Diagnostics.Debug.Assert(_closeHook is null, "a socket takes one close hook");
            Volatile.Write(ref _closeHook, hook);
        }

        /// <summary>
        /// Unlinks <paramref name="path"/>, the socket file of a wildcard ipc listener of this socket, just before the socket
        /// closes: libzmq 4.2.3 to 4.3.1 leave it (and so also the directory they made for it, whose removal at the listener's
        /// close then fails on the file). The caller holds the socket's guard.
        /// </summary>
        internal void UnlinkAtClose(string path)
        {
            // A thread-safe (draft) socket lets several threads bind at once: the list is made once and changed under its lock.
            System.Collections.Generic.List<string> paths = Volatile.Read(ref _unlinkAtClose)
                ?? Interlocked.CompareExchange(ref _unlinkAtClose, new System.Collections.Generic.List<string>(), null)
                ?? _unlinkAtClose!;
            lock (paths)
            {
                paths.Add(path);
            }
        }

        /// <summary>
        /// Unlinks <paramref name="path"/> now if it is a file <see cref="UnlinkAtClose"/> took (its listener is about to be
        /// unbound), and forgets it. The caller holds the socket's guard.
        /// </summary>
        internal void UnlinkBeforeUnbind(string path)
        {
            System.Collections.Generic.List<string>? paths = Volatile.Read(ref _unlinkAtClose);
            bool taken;
            if (paths is null)
            {
                return;
            }

            lock (paths)
            {
                taken = paths.Remove(path);
            }

            if (taken)
            {
                Unlink(path);
            }
        }

        /// <summary>
        /// Removes a listener's socket file before libzmq closes the listener, so that libzmq's own removal of the directory it
        /// made for the file succeeds as the listener closes. Nothing connects through the file any more: its socket is
        /// being closed or unbound. Never throws (this runs in the release, possibly on the finalizer thread).
        /// </summary>
        private static void Unlink(string path)
        {
            try
            {
                System.IO.File.Delete(path);
            }
            catch (Exception e) when (e is System.IO.IOException || e is UnauthorizedAccessException)
            {
                // Gone already, or no longer ours to remove: libzmq's close reports the directory it could not remove
                // (MonitorEvents.CloseFailed), as it did before.
            }
        }

        protected override unsafe bool ReleaseHandle()
        {
            // First, while the socket still exists: machinery whose native objects name it lets go of them (an abandoned
            // socket's async side too, which nobody else would ever release).
            Volatile.Read(ref _closeHook)?.OnClosing(abandoned: !ClosedByOwner);

            if (!ClosedByOwner)
            {
                int zero = 0;
                Interop.Zmq.zmq_setsockopt(handle, Interop.Zmq.ZMQ_LINGER, &zero, sizeof(int));
            }

            if (Volatile.Read(ref _unlinkAtClose) is { } paths)
            {
                foreach (string path in paths)
                {
                    Unlink(path);
                }
            }

            Interop.Zmq.zmq_close(handle);
            ResourceCounters.SocketClosed();
            SocketTrafficRegistry.Remove(_traffic);
            if (NetZeroMQEventSource.Log.IsEnabled())
            {
                NetZeroMQEventSource.Log.SocketClosed(_traffic.Id, SocketTypeNames.Of(_traffic.Type));
            }

            _waker?.Dispose();
            _context.DangerousRelease();
            return true;
        }
    }
}
