namespace NetZeroMQ
{
    /// <summary>
    /// Machinery a feature attaches to a socket (through <see cref="SocketLease.Attach"/>) that must act at moments only the
    /// core sees: as any call on the socket ends, when it is disposed, and when it closes. The async side is one: every call
    /// may consume the readiness notification its pending operations wait for, so it retries them as the call leaves.
    /// </summary>
    /// <remarks>The core names no feature: it only calls these methods on whatever was attached. The last,
    /// <see cref="SocketCloseHook.OnClosing"/>, is called by the socket's handle just before <c>zmq_close</c>, so it runs for a
    /// socket abandoned to the finalizer too.</remarks>
    internal abstract class SocketAttachment : SocketCloseHook
    {
        /// <summary>
        /// The thread ending a call still holds the guard (the socket is not being disposed). <paramref name="held"/> is that
        /// call's claim, lent for the duration of this method: use it, do not dispose it (the call ends it).
        /// </summary>
        internal abstract void OnLeaving(SocketLease held);

        /// <summary>The thread ending a call has released the guard, with a full fence.</summary>
        internal abstract void OnLeft();

        /// <summary><c>Dispose</c> was called (any thread, before the native socket is closed).</summary>
        internal abstract void OnDisposing();
    }
}
