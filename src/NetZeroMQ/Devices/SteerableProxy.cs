using System;
using System.Threading;
using System.Threading.Tasks;

namespace NetZeroMQ
{
    /// <summary>
    /// A proxy that can be paused, resumed, terminated and asked for statistics while it runs (<c>zmq_proxy_steerable</c>,
    /// steered through an inproc PAIR pair this class owns).
    /// See <see href="http://api.zeromq.org/4-3:zmq-proxy-steerable">zmq_proxy_steerable</see>.
    /// </summary>
    /// <remarks>
    /// <para><b>Running.</b> Call <see cref="Run"/> on a thread of your choosing, or <see cref="Start"/> to run it on a dedicated
    /// long-running thread. It runs once: it ends on <see cref="Terminate"/> (or <see cref="Dispose"/>) or when the context is
    /// shut down, and returns normally in both cases. While it runs it holds the guards of its sockets (see
    /// <see cref="Proxy.Run"/>); they are released when it returns. A signal (EINTR) restarts it, which resets its counters and
    /// resumes it if it was paused.</para>
    /// <para><b>Steering.</b> <see cref="Pause"/>, <see cref="Resume"/>, <see cref="Terminate"/> and
    /// <see cref="GetStatistics(TimeSpan)"/> may be called from any thread; they are serialised internally. The three
    /// commands may also be given before the proxy starts (they wait for it); statistics need a running proxy.</para>
    /// <para><b>Ownership.</b> The frontend, backend and capture sockets stay the caller's; <see cref="Dispose"/> terminates
    /// the proxy and closes only the control sockets.</para>
    /// </remarks>
    public sealed class SteerableProxy : IDisposable
    {
        /// <summary>How long <see cref="Dispose"/> waits for a running proxy to end after it was told to terminate.</summary>
        public static readonly TimeSpan TerminateWait = TimeSpan.FromSeconds(5);

        private const int NotStarted = 0;
        private const int Running = 1;
        private const int Finished = 2;

        private static long s_counter;

        private readonly Socket _frontend;
        private readonly Socket _backend;
        private readonly Socket? _capture;
        private readonly Socket _control;
        private readonly Socket _controller;
        private readonly MultipartMessage _reply = new MultipartMessage();
        private readonly ManualResetEventSlim _finished = new ManualResetEventSlim(false);
        private readonly object _steering = new object();
        private int _state;
        private int _disposed;

        /// <summary>Prepares a steerable proxy over the given sockets; nothing runs until <see cref="Run"/> or <see cref="Start"/>.</summary>
        /// <param name="frontend">The socket clients talk to.</param>
        /// <param name="backend">The socket workers talk to; may be the frontend itself.</param>
        /// <param name="capture">A socket that receives a copy of every message, or null.</param>
        /// <exception cref="ArgumentNullException"><paramref name="frontend"/> or <paramref name="backend"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="capture"/> is the frontend or the backend.</exception>
        /// <exception cref="ObjectDisposedException">The sockets' context was disposed.</exception>
        public SteerableProxy(Socket frontend, Socket backend, Socket? capture = null)
        {
            ProxySockets.Validate(frontend, backend, capture);
            _frontend = frontend;
            _backend = backend;
            _capture = capture;
            string endpoint = "inproc://netzeromq-proxy-control-" + Interlocked.Increment(ref s_counter).ToString(System.Globalization.CultureInfo.InvariantCulture);
            _control = new Socket(frontend.Context, SocketType.Pair);
            _controller = new Socket(frontend.Context, SocketType.Pair);
            try
            {
                _control.Linger = TimeSpan.Zero;
                _controller.Linger = TimeSpan.Zero;
                _controller.SendTimeout = TerminateWait;
                _control.Bind(endpoint);
                _controller.Connect(endpoint);
            }
            catch
            {
                _control.Dispose();
                _controller.Dispose();
                throw;
            }
        }

        /// <summary>Whether the proxy is running now.</summary>
        public bool IsRunning => Volatile.Read(ref _state) == Running;

        /// <summary>Whether the proxy has run and ended.</summary>
        public bool IsFinished => Volatile.Read(ref _state) == Finished;

        /// <summary>Runs the proxy on a new dedicated thread (<see cref="TaskCreationOptions.LongRunning"/>).</summary>
        /// <returns>A task that completes when the proxy ends, or faults with what <see cref="Run"/> threw.</returns>
        /// <exception cref="ObjectDisposedException">The proxy was disposed.</exception>
        public Task Start()
        {
            ThrowIfDisposed();
            return Task.Factory.StartNew(Run, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        }

        /// <summary>
        /// Runs the proxy on the calling thread (<c>zmq_proxy_steerable</c>) until <see cref="Terminate"/> or the context's shutdown;
        /// returns normally in both cases.
        /// </summary>
        /// <exception cref="InvalidOperationException">The proxy was started before (it runs once), or a socket is in use by
        /// another thread.</exception>
        /// <exception cref="ObjectDisposedException">The proxy or one of its sockets was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed for another reason.</exception>
        public void Run()
        {
            ThrowIfDisposed();
            if (Interlocked.CompareExchange(ref _state, Running, NotStarted) != NotStarted)
            {
                throw new InvalidOperationException("A steerable proxy runs once; this one was started already.");
            }

            try
            {
                ProxySockets sockets = ProxySockets.Enter(_frontend, _backend, _capture, _control);
                try
                {
                    while (Interop.Zmq.zmq_proxy_steerable(sockets.Frontend, sockets.Backend, sockets.Capture, sockets.Control) != 0)
                    {
                        int errno = Interop.Zmq.zmq_errno();
                        if (errno == ErrorMap.ETERM)
                        {
                            return;
                        }

                        if (errno != ErrorMap.EINTR)
                        {
                            ZmqThrow.Error(errno, "zmq_proxy_steerable");
                        }
                    }
                }
                finally
                {
                    sockets.Exit();
                }
            }
            finally
            {
                Volatile.Write(ref _state, Finished);
                _finished.Set();
            }
        }

        /// <summary>Stops forwarding (<c>PAUSE</c>); messages wait in the sockets' queues until <see cref="Resume"/>.</summary>
        /// <remarks>
        /// Like every command it is queued and returns at once: the proxy takes it at its next turn of its loop, which reads
        /// the control socket before forwarding, so at most the one message each way that the turn under way is forwarding
        /// still goes through (a proxy blocked sending to a peer at its high-water mark finishes that message first). <see cref="GetStatistics(TimeSpan)"/> after <see cref="Pause"/> returns once the pause has been taken,
        /// because the proxy answers its commands in order.
        /// </remarks>
        /// <exception cref="ObjectDisposedException">The proxy was disposed.</exception>
        public void Pause() => Command("PAUSE");

        /// <summary>Starts forwarding again after <see cref="Pause"/> (<c>RESUME</c>).</summary>
        /// <exception cref="ObjectDisposedException">The proxy was disposed.</exception>
        public void Resume() => Command("RESUME");

        /// <summary>Tells the proxy to end (<c>TERMINATE</c>); <see cref="Run"/> then returns. Does not wait.</summary>
        /// <exception cref="ObjectDisposedException">The proxy was disposed.</exception>
        public void Terminate() => Command("TERMINATE");

        /// <summary>Asks the running proxy for its counters (<c>STATISTICS</c>), waiting up to five seconds for the reply.</summary>
        /// <returns>The counters.</returns>
        /// <exception cref="InvalidOperationException">The proxy is not running.</exception>
        /// <exception cref="ObjectDisposedException">The proxy was disposed.</exception>
        /// <exception cref="ZmqException"><see cref="ZmqError.TryAgain"/> if no reply came in time.</exception>
        public ProxyStatistics GetStatistics() => GetStatistics(TimeSpan.FromSeconds(5));

        /// <summary>Asks the running proxy for its counters (<c>STATISTICS</c>).</summary>
        /// <param name="timeout">How long to wait for the reply.</param>
        /// <returns>The counters.</returns>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite).</exception>
        /// <exception cref="InvalidOperationException">The proxy is not running.</exception>
        /// <exception cref="ObjectDisposedException">The proxy was disposed.</exception>
        /// <exception cref="ZmqException"><see cref="ZmqError.TryAgain"/> if no reply came in time.</exception>
        public ProxyStatistics GetStatistics(TimeSpan timeout)
        {
            lock (_steering)
            {
                ThrowIfDisposed();
                if (!IsRunning)
                {
                    throw new InvalidOperationException("The proxy is not running.");
                }

                // A reply that arrived after an earlier call timed out must not be taken for this one.
                while (_controller.TryRecvMultipart(_reply))
                {
                }

                _controller.Send("STATISTICS");
                _controller.ReceiveTimeout = timeout;
                _controller.RecvMultipart(_reply);
                if (_reply.Count != 8)
                {
                    throw new InvalidOperationException("The proxy's statistics reply has " + _reply.Count + " frames instead of 8.");
                }

                return new ProxyStatistics(
                    Counter(0), Counter(1), Counter(2), Counter(3), Counter(4), Counter(5), Counter(6), Counter(7));
            }
        }

        /// <summary>
        /// Terminates a running proxy and waits up to <see cref="TerminateWait"/> for it to end, then closes the control sockets.
        /// The frontend, backend and capture sockets are not disposed. Callable from any thread, more than once.
        /// </summary>
        public void Dispose()
        {
            lock (_steering)
            {
                if (Interlocked.Exchange(ref _disposed, 1) != 0)
                {
                    return;
                }

                if (Volatile.Read(ref _state) == Running)
                {
                    try
                    {
                        _controller.Send("TERMINATE");
                    }
                    catch (ZmqException)
                    {
                        // Context shut down: the proxy is ending with ETERM anyway.
                    }

                    _finished.Wait(TerminateWait);
                }

                // If the proxy still runs, it holds the control socket's guard and closes it as it returns.
                _controller.Dispose();
                _control.Dispose();
                _reply.Dispose();
            }
        }

        /// <inheritdoc/>
        public override string ToString() =>
            "SteerableProxy(" + (IsRunning ? "running" : IsFinished ? "finished" : "not started") + ")";

        private ulong Counter(int index)
        {
            Span<byte> frame = stackalloc byte[sizeof(ulong)];
            int size = _reply[index].CopyTo(frame);
            if (size != sizeof(ulong))
            {
                throw new InvalidOperationException("Statistics frame " + index + " has " + size + " bytes instead of 8.");
            }

            return System.Runtime.InteropServices.MemoryMarshal.Read<ulong>(frame);
        }

        private void Command(string command)
        {
            lock (_steering)
            {
                ThrowIfDisposed();
                _controller.Send(command);
            }
        }

        private void ThrowIfDisposed()
        {
            if (Volatile.Read(ref _disposed) != 0)
            {
                ZmqThrow.Disposed(this);
            }
        }
    }
}
