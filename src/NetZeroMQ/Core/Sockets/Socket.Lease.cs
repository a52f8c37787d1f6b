using System.Runtime.CompilerServices;

namespace NetZeroMQ
{
    public sealed unsafe partial class Socket
    {
        /// <summary>Claims the socket for code outside the core; throws as any call would (disposed, or in use elsewhere).</summary>
        internal SocketLease Lease()
        {
            Enter();
            return new SocketLease(this);
        }

        /// <summary>
        /// Claims the socket without throwing: false when it is disposed (then <paramref name="disposed"/> is true) or in use by
        /// another thread. For callers that must not fail, such as a monitor stopping itself.
        /// </summary>
        internal bool TryLease(out SocketLease lease, out bool disposed)
        {
            if (_guard.TryEnter(out disposed))
            {
                // TryEnter reads the Dispose flag before it claims: a Dispose landing in between may already have left the
                // release to this claim (the interleaving model of UsageGuardModelTests reaches it), so the lease would
                // reach a socket that is closing. Give the claim back (the exit releases if it must) and say disposed.
                if (_guard.IsDisposeRequested)
                {
                    Exit();
                    disposed = true;
                    lease = default;
                    return false;
                }

                lease = new SocketLease(this);
                return true;
            }

            lease = default;
            return false;
        }

        /// <summary>
        /// The attached machinery's own claim (the reactor retrying pending operations): false if any call holds the socket. A
        /// caller's call that meets this claim waits for it instead of failing with concurrent use. A true result must be
        /// disposed even if a Dispose raced in: the release is then left to it.
        /// </summary>
        internal bool TryLeaseForMachinery(out SocketLease lease)
        {
            if (_guard.TryEnter())
            {
                lease = new SocketLease(this);
                return true;
            }

            lease = default;
            return false;
        }

        /// <summary>
        /// The one native hold: keeps the native socket from being closed during a call made without the guard (a monitor
        /// stopped from another thread while this socket's owner is inside a call); false if it is closed already. Dispose
        /// <paramref name="hold"/> to end it.
        /// </summary>
        internal bool TryHoldNative(out SocketNativeHold hold)
        {
            bool added = false;
            try
            {
                _handle.DangerousAddRef(ref added);
            }
            catch (System.ObjectDisposedException)
            {
                hold = default;
                return false;
            }

            hold = added ? new SocketNativeHold(_handle, _socket) : default;
            return added;
        }

        // What a SocketLease gives (SocketLease.cs forwards to these): its holder holds the guard, hence the suffix.

        internal nint NativeUnguarded => _socket;

        internal PollEvents EventsUnguarded => (PollEvents)GetInt32Unguarded(Interop.Zmq.ZMQ_EVENTS, "Events");

        /// <summary>
        /// <c>ZMQ_FD</c>: an int on POSIX, but a SOCKET on Windows, where libzmq refuses a 4-byte buffer with EINVAL; read at the
        /// platform's size (the transfer path's poll items make the same distinction).
        /// </summary>
        internal nint FdUnguarded
        {
            get
            {
                nint fd = 0;
                GetFixedUnguarded(Interop.Zmq.ZMQ_FD, "Fd", &fd, s_windowsPollItems ? sizeof(nint) : sizeof(int));
                return fd;
            }
        }

        internal SocketAttachment? AttachmentUnguarded => _attachment;

        internal void AttachUnguarded(SocketAttachment attachment)
        {
            System.Diagnostics.Debug.Assert(_attachment is null, "a socket takes one attachment");

            // The attached machinery claims the socket with a compare-exchange, which a biased owner's plain stores cannot exclude.
            _guard.RequireChecks();
            _attachment = attachment;

            // The handle calls it just before zmq_close, on Dispose and on finalization alike.
            _handle.SetCloseHook(attachment);

            // Every exit from now on lets the machinery act (ExitWithAttachment).
            _guard.RequireSlowExit();
        }

        internal void EndLease() => Exit();

        /// <summary>One attempt at <paramref name="op"/> without blocking, by the lease's holder: the socket's own transfer step,
        /// so the frame is counted in the socket's traffic as any other.</summary>
        internal int TryTransferUnguarded<T>(ref T op, int flags)
            where T : struct, INativeTransfer => Transfer(ref op, flags, TransferWait.None);

        /// <summary>
        /// Exit for a socket with attached machinery: let it act while the guard is still held (this call may have consumed the
        /// readiness notification it waits for), release with a full fence, let it act again (work it deferred while the guard
        /// was taken), and close the socket if a Dispose arrived meanwhile.
        /// </summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private void ExitWithAttachment(SocketAttachment attachment)
        {
            if (!_guard.IsDisposeRequested)
            {
                attachment.OnLeaving(new SocketLease(this));
            }

            bool release = _guard.ExitFenced();
            attachment.OnLeft();
            if (release)
            {
                ReleaseNative();
            }
        }
    }
}
