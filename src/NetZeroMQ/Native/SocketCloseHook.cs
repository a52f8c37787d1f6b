namespace NetZeroMQ
{
    /// <summary>
    /// What runs on the thread that closes a native socket, just before <c>zmq_close</c> (<see cref="SocketHandle"/>'s
    /// release), whether the socket's owner disposed it or abandoned it to the finalizer: machinery that holds native objects
    /// tied to the socket (a draft poller that names it, a reactor registration of its descriptor) lets go of them here, since
    /// after the close they would name a freed socket or a closed descriptor.
    /// </summary>
    /// <remarks>
    /// The hook is what the handle holds, so it must not be what keeps the socket alive: machinery that the process holds
    /// elsewhere (the async reactor's registration table) holds it weakly, or an abandoned socket would never be finalized and
    /// everything it owns would leak.
    /// </remarks>
    internal abstract class SocketCloseHook
    {
        /// <summary>
        /// The native socket is about to be closed, on the thread that closes it; no call is in flight. With
        /// <paramref name="abandoned"/> this is the finalizer thread: never block for long, never throw, and touch no other
        /// finalizable object (it may be finalized already).
        /// </summary>
        internal abstract void OnClosing(bool abandoned);
    }
}
