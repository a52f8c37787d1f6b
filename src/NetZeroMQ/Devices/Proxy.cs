namespace NetZeroMQ
{
    /// <summary>
    /// libzmq's built-in proxy (<c>zmq_proxy</c>): forwards messages between a frontend and a backend socket, and copies them
    /// to an optional capture socket. For a proxy that can be paused, resumed, stopped and asked for statistics, see
    /// <see cref="SteerableProxy"/>. See <see href="http://api.zeromq.org/4-3:zmq-proxy">zmq_proxy</see>.
    /// </summary>
    public static class Proxy
    {
        /// <summary>
        /// Runs the proxy on the calling thread until the context of its sockets is shut down (<see cref="Context.Shutdown"/>
        /// or <see cref="Context.Dispose"/>), then returns normally.
        /// </summary>
        /// <remarks>
        /// <para><b>Threading.</b> The proxy uses the sockets from the calling thread for as long as it runs: it holds their
        /// guards, so any other thread that uses one meanwhile gets <see cref="System.InvalidOperationException"/>. Run it on a
        /// thread of your own (for example <c>Task.Factory.StartNew(..., TaskCreationOptions.LongRunning)</c>).</para>
        /// <para><b>Stopping.</b> libzmq's proxy returns only when the context terminates, so shut the context down to stop it.
        /// Disposing one of its sockets does not stop it: the socket is closed when the proxy returns. Use
        /// <see cref="SteerableProxy"/> to stop a proxy and keep the context. A signal (EINTR) restarts the proxy.</para>
        /// <para>The sockets are not disposed; the caller still owns them.</para>
        /// </remarks>
        /// <param name="frontend">The socket clients talk to (for example a ROUTER or an XSUB).</param>
        /// <param name="backend">The socket workers talk to (for example a DEALER or an XPUB); may be the frontend itself.</param>
        /// <param name="capture">A socket that receives a copy of every message (PUB, PUSH, DEALER or PAIR), or null.</param>
        /// <exception cref="System.ArgumentNullException"><paramref name="frontend"/> or <paramref name="backend"/> is null.</exception>
        /// <exception cref="System.ArgumentException"><paramref name="capture"/> is the frontend or the backend.</exception>
        /// <exception cref="System.ObjectDisposedException">A socket was disposed before the proxy started.</exception>
        /// <exception cref="System.InvalidOperationException">A socket is in use by another thread.</exception>
        /// <exception cref="ZmqException">libzmq failed for a reason other than the context's shutdown.</exception>
        public static void Run(Socket frontend, Socket backend, Socket? capture = null)
        {
            ProxySockets.Validate(frontend, backend, capture);
            ProxySockets sockets = ProxySockets.Enter(frontend, backend, capture, control: null);
            try
            {
                while (true)
                {
                    // zmq_proxy always returns -1.
                    Interop.Zmq.zmq_proxy(sockets.Frontend, sockets.Backend, sockets.Capture);
                    int errno = Interop.Zmq.zmq_errno();
                    if (errno == ErrorMap.ETERM)
                    {
                        return;
                    }

                    if (errno != ErrorMap.EINTR)
                    {
                        ZmqThrow.Error(errno, "zmq_proxy");
                    }
                }
            }
            finally
            {
                sockets.Exit();
            }
        }
    }
}
