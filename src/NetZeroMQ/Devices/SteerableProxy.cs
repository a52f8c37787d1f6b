using System;
using System.Threading;
using System.Threading.Tasks;

namespace NetZeroMQ
{
    /// <summary>
    /// A proxy that can be paused, resumed, terminated and asked for statistics while it runs: it forwards whole messages
    /// between a frontend and a backend socket in both directions (and copies them to an optional capture socket), like
    /// <see cref="Proxy"/>, with a loop of NetZeroMQ's own in place of libzmq's <c>zmq_proxy_steerable</c>, so that it
    /// behaves the same on every libzmq version. See
    /// <see href="http://api.zeromq.org/4-3:zmq-proxy-steerable">zmq_proxy_steerable</see> for the model it follows.
    /// </summary>
    /// <remarks>
    /// <para><b>Running.</b> Call <see cref="Run"/> on a thread of your choosing, or <see cref="Start"/> to run it on a thread
    /// of its own. It runs once: it ends on <see cref="Terminate"/> (or <see cref="Dispose"/>) or when the context is shut
    /// down, and returns normally in both cases. While it runs it holds the guards of its sockets (see <see cref="Proxy.Run"/>);
    /// they are released when it ends.</para>
    /// <para><b>Steering.</b> <see cref="Pause"/>, <see cref="Resume"/>, <see cref="Terminate"/> and
    /// <see cref="GetStatistics(TimeSpan)"/> may be called from any thread; they are serialised, and each returns once the
    /// proxy has acted on it: after <see cref="Pause"/> returns no message is forwarded until <see cref="Resume"/>, and after
    /// <see cref="Terminate"/> returns the proxy has ended and released its sockets. The proxy takes a command between two
    /// messages, after at most one burst of forwarding (a thousand messages each way). Pause, Resume and Terminate may be given
    /// before the proxy starts (it then starts paused, or ends as soon as it starts); after it ended they do nothing.
    /// Statistics need a running proxy.</para>
    /// <para><b>Forwarding.</b> Each message is moved with libzmq's message calls (<c>zmq_msg_recv</c>, <c>zmq_msg_send</c>:
    /// the content is handed over, not copied) without waiting: a destination that cannot take a message now (its high-water
    /// mark, no peer) keeps it in the source socket's queue until it can, while commands and the other direction go on. A
    /// paused proxy waits only for commands, so messages waiting on its sockets cost no CPU. The capture socket gets a copy of
    /// each message it can take at once; one it cannot take (its high-water mark, or no peer for PUSH, DEALER or PAIR) it
    /// misses, rather than stall the proxy. When the frontend is the backend, messages go one way only: from that socket back
    /// to itself.</para>
    /// <para><b>Ownership.</b> The frontend, backend and capture sockets stay the caller's; <see cref="Dispose"/> terminates
    /// the proxy and closes only the control sockets.</para>
    /// </remarks>
    public sealed class SteerableProxy : IDisposable
    {
        /// <summary>How long <see cref="Dispose"/> waits for a running proxy to end after it was told to terminate.</summary>
        public static readonly TimeSpan TerminateWait = TimeSpan.FromSeconds(5);

        private const string AlreadyStarted = "A steerable proxy runs once; this one was started already.";

        /// <summary>Numbers the control endpoints of the proxies of this process.</summary>
        private static long s_counter;

        /// <summary>The caller's sockets (not owned).</summary>
        private readonly Socket _frontend;
        private readonly Socket _backend;
        private readonly Socket? _capture;

        /// <summary>The loop's end of the inproc PAIR the steering threads wake it through (owned).</summary>
        private readonly Socket _control;

        /// <summary>The steering threads' end of that PAIR: one empty frame per command (owned).</summary>
        private readonly Socket _controller;

        /// <summary>The proxy's life and the command exchange with its loop.</summary>
        private readonly ProxySteering _steering = new ProxySteering();

        /// <summary>Held by the one caller whose command is under way (and by Dispose), so that commands never overlap.</summary>
        private readonly object _commands = new object();

        /// <summary>1 once Dispose began.</summary>
        private int _disposed;

        /// <summary>Prepares a steerable proxy over the given sockets; nothing runs until <see cref="Run"/> or <see cref="Start"/>.</summary>
        /// <param name="frontend">The socket clients talk to.</param>
        /// <param name="backend">The socket workers talk to; may be the frontend itself.</param>
        /// <param name="capture">A socket that receives a copy of every message it can take at once, or null.</param>
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

        /// <summary>Whether the proxy is running now (from when <see cref="Start"/> returns until it ends).</summary>
        public bool IsRunning => _steering.State == ProxyState.Running;

        /// <summary>Whether the proxy has run and ended (terminated, stopped by the context's shutdown, or failed).</summary>
        public bool IsFinished => _steering.State == ProxyState.Finished;

        /// <summary>
        /// Runs the proxy on a thread of its own (a background thread named "NetZeroMQ proxy") and returns once it runs, so that
        /// every command and <see cref="GetStatistics()"/> can follow at once.
        /// </summary>
        /// <returns>A task that completes when the proxy ends, or faults with what <see cref="Run"/> would have thrown (for
        /// example <see cref="ObjectDisposedException"/> when one of its sockets was disposed before it could start).</returns>
        /// <exception cref="InvalidOperationException">The proxy was started before (it runs once).</exception>
        /// <exception cref="ObjectDisposedException">The proxy was disposed.</exception>
        public Task Start()
        {
            ThrowIfDisposed();
            if (!_steering.TryClaim())
            {
                throw new InvalidOperationException(AlreadyStarted);
            }

            var completion = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
            var thread = new Thread(() => RunClaimed(completion)) { IsBackground = true, Name = "NetZeroMQ proxy" };
            try
            {
                // A library thread must not carry the caller's AsyncLocals for as long as the proxy runs.
                using (ExecutionContext.SuppressFlow())
                {
                    thread.Start();
                }
            }
            catch (Exception e)
            {
                _steering.Finish(completion, e);
                throw;
            }

            _steering.WaitStarted();
            return completion.Task;
        }

        /// <summary>
        /// Runs the proxy on the calling thread until <see cref="Terminate"/> or the context's shutdown; returns normally in both
        /// cases.
        /// </summary>
        /// <exception cref="InvalidOperationException">The proxy was started before (it runs once), or a socket is in use by
        /// another thread.</exception>
        /// <exception cref="ObjectDisposedException">The proxy or one of its sockets was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed for another reason (for example a ROUTER backend with
        /// <c>RouterMandatory</c> given a message for an unknown peer); the proxy has then ended.</exception>
        public void Run()
        {
            ThrowIfDisposed();
            if (!_steering.TryClaim())
            {
                throw new InvalidOperationException(AlreadyStarted);
            }

            RunClaimed(completion: null);
        }

        /// <summary>Stops forwarding; messages wait in the sockets' queues until <see cref="Resume"/>.</summary>
        /// <remarks>Returns once the proxy has paused: no message is forwarded after it returns. Before the proxy starts, makes it
        /// start paused; after it ended, does nothing.</remarks>
        /// <exception cref="ObjectDisposedException">The proxy was disposed.</exception>
        public void Pause() => Steer(ProxyCommand.Pause);

        /// <summary>Starts forwarding again after <see cref="Pause"/>; returns once the proxy forwards again.</summary>
        /// <remarks>Before the proxy starts, undoes a <see cref="Pause"/> given before; after it ended, does nothing.</remarks>
        /// <exception cref="ObjectDisposedException">The proxy was disposed.</exception>
        public void Resume() => Steer(ProxyCommand.Resume);

        /// <summary>
        /// Ends the proxy and returns once it has ended and released its sockets (<see cref="Run"/> returns, the task of
        /// <see cref="Start"/> completes). A message whose destination could not take it yet is dropped.
        /// </summary>
        /// <remarks>Before the proxy starts, makes it end as soon as it starts; after it ended, does nothing.</remarks>
        /// <exception cref="ObjectDisposedException">The proxy was disposed.</exception>
        public void Terminate() => Steer(ProxyCommand.Terminate);

        /// <summary>Asks the running proxy for its counters, waiting up to five seconds for the answer.</summary>
        /// <returns>The counters (see <see cref="ProxyStatistics"/> for what they count).</returns>
        /// <exception cref="InvalidOperationException">The proxy is not running, or ended before it answered.</exception>
        /// <exception cref="ObjectDisposedException">The proxy was disposed.</exception>
        /// <exception cref="ZmqException"><see cref="ZmqError.TryAgain"/> if no answer came in time.</exception>
        public ProxyStatistics GetStatistics() => GetStatistics(TimeSpan.FromSeconds(5));

        /// <summary>Asks the running proxy for its counters.</summary>
        /// <param name="timeout">How long to wait for the answer (the proxy answers between two messages).</param>
        /// <returns>The counters (see <see cref="ProxyStatistics"/> for what they count).</returns>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite).</exception>
        /// <exception cref="InvalidOperationException">The proxy is not running, or ended before it answered.</exception>
        /// <exception cref="ObjectDisposedException">The proxy was disposed.</exception>
        /// <exception cref="ZmqException"><see cref="ZmqError.TryAgain"/> if no answer came in time.</exception>
        public ProxyStatistics GetStatistics(TimeSpan timeout)
        {
            int milliseconds = Milliseconds.FromTimeSpan(timeout, nameof(timeout));
            lock (_commands)
            {
                ThrowIfDisposed();
                if (!Issue(ProxyCommand.Statistics, out long ticket))
                {
                    throw new InvalidOperationException("The proxy is not running.");
                }

                if (!_steering.WaitCompleted(ticket, milliseconds, "SteerableProxy.GetStatistics", out ProxyStatistics? statistics) ||
                    statistics is null)
                {
                    throw new InvalidOperationException("The proxy ended before it answered.");
                }

                return statistics;
            }
        }

        /// <summary>
        /// Terminates a running proxy and waits up to <see cref="TerminateWait"/> for it to end, then closes the control sockets.
        /// The frontend, backend and capture sockets are not disposed. Callable from any thread, more than once.
        /// </summary>
        public void Dispose()
        {
            lock (_commands)
            {
                if (Interlocked.Exchange(ref _disposed, 1) != 0)
                {
                    return;
                }

                Issue(ProxyCommand.Terminate, out _);
                ProxyState state = _steering.State;
                if (state == ProxyState.Starting || state == ProxyState.Running)
                {
                    _steering.WaitFinished(Milliseconds.FromTimeSpan(TerminateWait, nameof(TerminateWait)));
                }

                // If the proxy still runs, it holds the control socket's guard and closes it as it returns.
                _controller.Dispose();
                _control.Dispose();
            }
        }

        /// <inheritdoc/>
        public override string ToString() =>
            "SteerableProxy(" + _steering.State switch
            {
                ProxyState.Running => "running",
                ProxyState.Finished => "finished",
                ProxyState.Starting => "starting",
                _ => "not started",
            } + ")";

        /// <summary>
        /// Runs the claimed proxy on this thread: takes the sockets, runs the loop, releases them, and finishes. On Start's thread
        /// (<paramref name="completion"/> given) a failure goes to the task, since nothing else waits on that thread; on the
        /// caller's thread it is thrown.
        /// </summary>
        private void RunClaimed(TaskCompletionSource<bool>? completion)
        {
            Exception? failure = null;
            try
            {
                ProxySockets sockets = ProxySockets.Enter(_frontend, _backend, _capture, _control);
                try
                {
                    using var loop = new ProxyLoop(_steering, sockets, _frontend, _backend, _capture, _control);
                    if (_steering.TryEnterRunning(out bool paused))
                    {
                        loop.Run(paused);
                    }
                }
                finally
                {
                    sockets.Exit();
                }
            }
            catch (Exception e)
            {
                if (completion is null)
                {
                    throw;
                }

                failure = e;
            }
            finally
            {
                // After the sockets are released: Terminate, which waits for this, hands them back usable. The task completes
                // with the state, so that whoever sees one ended sees the other ended too.
                _steering.Finish(completion, failure);
            }
        }

        /// <summary>Gives the proxy a command and returns once it has acted on it (Terminate: once it has ended).</summary>
        private void Steer(ProxyCommand command)
        {
            lock (_commands)
            {
                ThrowIfDisposed();
                if (!Issue(command, out long ticket))
                {
                    // No loop to send it to. A Terminate given while the proxy takes its sockets makes it end as it starts:
                    // wait for that, so that the sockets are free when Terminate returns, as they are otherwise.
                    if (command == ProxyCommand.Terminate && _steering.State == ProxyState.Starting)
                    {
                        _steering.WaitFinished(Milliseconds.Infinite);
                    }

                    return;
                }

                if (command == ProxyCommand.Terminate)
                {
                    _steering.WaitFinished(Milliseconds.Infinite);
                }
                else
                {
                    _steering.WaitCompleted(ticket, Milliseconds.Infinite, "SteerableProxy." + command, out _);
                }
            }
        }

        /// <summary>Hands a command to the running loop and wakes it; false if no loop runs (see <see cref="ProxySteering.TryIssue"/>).</summary>
        private bool Issue(ProxyCommand command, out long ticket)
        {
            if (!_steering.TryIssue(command, out ticket))
            {
                return false;
            }

            try
            {
                // False: the control socket's queue is full of wake-ups the loop has not read yet; one of them will do.
                _controller.TrySend(ReadOnlySpan<byte>.Empty);
            }
            catch (ZmqException e) when (e.Error == ZmqError.ContextTerminated)
            {
                // The context is shutting down: the loop meets the shutdown too, ends, and every wait returns.
            }

            return true;
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
