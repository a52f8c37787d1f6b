#if NET
using System;
using System.Diagnostics;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// Waits on descriptors (the sockets' <c>ZMQ_FD</c>) for the async API, on one background thread for the whole process: no
    /// thread, timer or sleep per pending operation. A registration is armed once per wait (one-shot), so every wake-up is
    /// asked for by someone who found the socket not ready after draining it (libzmq's descriptor is edge-like).
    /// </summary>
    /// <remarks>
    /// <para>The contract, for every user of the reactor: <see cref="Register"/> adds a descriptor, disarmed, on the caller's
    /// thread (a failure throws there and keeps nothing); <see cref="Arm"/> asks for one <see cref="IReactorClient.OnReadable"/>
    /// when the descriptor is readable (at once if it already is), never throws, and returns the exception to end the
    /// caller's waiting operations with when it could not arm; <see cref="Unregister"/> removes the descriptor and must run
    /// before the descriptor is closed. If the reactor cannot wait any more, every registered client gets
    /// <see cref="IReactorClient.OnReactorFailed"/> and every later Arm and Register fails with the same reason.</para>
    /// <para>The reactor holds its clients weakly: a registration never keeps a socket alive. A client is the async side of a
    /// socket, which holds the socket; held strongly here, a socket its owner abandoned with an async call pending (or once
    /// used) would stay reachable from this process-wide table for ever, and its native socket, descriptors and draft poller
    /// would never be released. The socket keeps its client alive instead, and its handle's release (on Dispose or
    /// finalization) unregisters it before the descriptor closes; a client collected in between is skipped.</para>
    /// <para>The reactor never touches a libzmq socket's state on its own initiative: when a descriptor fires it tells the
    /// client, which takes the socket's guard like any other call. Two implementations: <see cref="EpollReactor"/> (Linux) and
    /// <see cref="PollReactor"/> (<c>zmq_poll</c>, wherever libzmq runs), chosen by <see cref="ReactorChoice"/>.</para>
    /// </remarks>
    internal abstract class Reactor
    {
        /// <summary>The reactor thread's name (both implementations).</summary>
        internal const string ThreadName = "NetZeroMQ reactor";

        private static readonly object s_startLock = new object();
        private static Reactor? s_shared;

        /// <summary>Guards the registration table (and, in a subclass, what it keeps beside it).</summary>
        private protected readonly object _lock = new object();

        private WeakReference<IReactorClient>?[] _clients = new WeakReference<IReactorClient>?[64];
        private nint[] _fds = new nint[64];
        private int _freeHead = -1;
        private int _count;
        private int _registered;
        private ZmqException? _failure;
        private Thread? _thread;

        /// <summary>
        /// The process-wide reactor, started by the first async operation that has to wait, on that operation's thread: if it
        /// cannot start (no descriptor, no thread), that operation throws and the next one tries again.
        /// </summary>
        /// <exception cref="ZmqException">No descriptor could be had (<see cref="ZmqError.TooManyOpenFiles"/>), or the
        /// reactor's wait could not be set up.</exception>
        /// <exception cref="InvalidOperationException">The reactor switch holds a value that names no reactor.</exception>
        internal static Reactor Shared => Volatile.Read(ref s_shared) ?? Start();

        /// <summary>The running reactor, if any (for diagnostics and tests; never starts one).</summary>
        internal static Reactor? Current => Volatile.Read(ref s_shared);

        /// <summary>"epoll" or "poll": which implementation this is.</summary>
        internal abstract string Kind { get; }

        /// <summary>How many descriptors are registered now.</summary>
        internal int RegisteredCount => Volatile.Read(ref _registered);

        /// <summary>Why the reactor stopped, or null while it runs.</summary>
        internal ZmqException? Failure => Volatile.Read(ref _failure);

        /// <summary>Whether the calling thread is the reactor thread.</summary>
        private protected bool OnReactorThread => Thread.CurrentThread == _thread;

        /// <summary>Adds a descriptor, disarmed; returns the token to arm and unregister it with.</summary>
        /// <exception cref="ZmqException">The descriptor could not be added, or the reactor has stopped (the reactor is
        /// unchanged: the token is free again).</exception>
        internal int Register(nint fd, IReactorClient client)
        {
            int token;
            lock (_lock)
            {
                if (_failure is not null)
                {
                    throw Stopped(_failure);
                }

                if (_freeHead >= 0)
                {
                    token = _freeHead;
                    _freeHead = (int)_fds[token];
                }
                else
                {
                    if (_count == _clients.Length)
                    {
                        Grow(_count * 2);
                    }

                    token = _count++;
                }

                _fds[token] = fd;
                Volatile.Write(ref _clients[token], new WeakReference<IReactorClient>(client));
                _registered++;
            }

            ZmqException? failure = Add(token, fd);
            if (failure is not null)
            {
                // ENOMEM, or ENOSPC past fs.epoll.max_user_watches: the caller's async call fails, the token is free again.
                lock (_lock)
                {
                    Free(token);
                }

                throw failure;
            }

            return token;
        }

        /// <summary>
        /// Asks for one <see cref="IReactorClient.OnReadable"/> when the descriptor is readable (soon, if it already is). Never
        /// throws (it runs on the reactor thread too): returns null, or the exception to end the caller's operations with.
        /// </summary>
        internal Exception? Arm(int token)
        {
            Exception? failure = Volatile.Read(ref _failure) is { } stopped ? Stopped(stopped) : ArmCore(token, _fds[token]);

            // A stop that raced with this arm: the stop's sweep may have run before the caller's operation was pending, so the
            // caller hears of it here (ending an operation twice is harmless: the first end wins).
            Interlocked.MemoryBarrier();
            return failure ?? (Volatile.Read(ref _failure) is { } late ? Stopped(late) : null);
        }

        /// <summary>
        /// Removes the descriptor; must run before the descriptor is closed. Never throws; may wait for the reactor thread to
        /// leave its current wait (<see cref="PollReactor"/>), which never takes long, so a finalizer may call it.
        /// </summary>
        internal void Unregister(int token)
        {
            Remove(token, _fds[token]);
            lock (_lock)
            {
                Free(token);
            }
        }

        /// <summary>
        /// Starts <paramref name="run"/> as the reactor thread: a library thread, started without the caller's execution
        /// context (<see cref="Thread.UnsafeStart()"/>, like <c>ExecutionContext.SuppressFlow</c>), so the first async caller's
        /// <see cref="AsyncLocal{T}"/> values do not ride on it (nor on what it runs: retries, zero-copy release callbacks).
        /// </summary>
        /// <exception cref="ZmqException">No descriptor for the runtime to start the thread with.</exception>
        private protected void StartThread(ThreadStart run)
        {
            var thread = new Thread(run) { IsBackground = true, Name = ThreadName };
            _thread = thread;
            try
            {
                thread.UnsafeStart();
            }
            catch (Exception e)
            {
                // Decided here, not in a 'when' filter: src/NetZeroMQ/README.md, "Exception filters".
                if (!(e is OutOfMemoryException || e is ThreadStartException))
                {
                    throw;
                }

                // The runtime reports a thread it could not start as OutOfMemoryException; on Linux the usual cause is the two
                // descriptors a new thread needs.
                if (DescriptorHeadroom.TryMeasure(out long open, out long limit) && limit - open < DescriptorHeadroom.Reserved)
                {
                    ZmqException refusal = DescriptorHeadroom.Refusal(open, limit, 0, "starting the async reactor thread");
                    throw new ZmqException(refusal.Error, refusal.NativeErrorNumber, refusal.Message, innerException: e);
                }

                throw;
            }
        }

        /// <summary>The descriptor registered under <paramref name="token"/>; the caller holds the lock.</summary>
        private protected nint DescriptorOf(int token) => _fds[token];

        /// <summary>
        /// The client registered under <paramref name="token"/>, or null (none, or collected before its socket's finalizer
        /// unregistered it); for the reactor thread (lock-free).
        /// </summary>
        private protected IReactorClient? ClientOf(int token) =>
            Volatile.Read(ref Volatile.Read(ref _clients)[token]) is { } weak && weak.TryGetTarget(out IReactorClient? client) ? client : null;

        /// <summary>
        /// The reactor thread: tells a client (null: none, or collected) that its descriptor fired, through
        /// <see cref="InlineCompletions"/>, which decides where the continuations of what it completes run. Never throws.
        /// </summary>
        private protected static void Dispatch(IReactorClient? client)
        {
            if (client is not null)
            {
                InlineCompletions.Dispatch(client);
            }
        }

        /// <summary>
        /// The reactor thread, when its wait failed with something other than EINTR: it records why, ends every registered
        /// client's waiting operations with that reason and returns; the thread then ends. Waiting again would fail the same
        /// way and spin a core; ending the process would take down everything the blocking API still serves. From now on every
        /// Arm and Register fails with the reason, so no async operation waits for a wake-up that cannot come.
        /// </summary>
        private protected void Stop(ZmqException failure)
        {
            WeakReference<IReactorClient>?[] clients;
            lock (_lock)
            {
                Volatile.Write(ref _failure, failure);
                clients = (WeakReference<IReactorClient>?[])_clients.Clone();
                OnStopped();
            }

            Interlocked.MemoryBarrier();
            foreach (WeakReference<IReactorClient>? weak in clients)
            {
                if (weak is not null && weak.TryGetTarget(out IReactorClient? client))
                {
                    client.OnReactorFailed(Stopped(failure));
                }
            }
        }

        /// <summary>Adds the descriptor to the wait set, disarmed; null, or why it could not be added.</summary>
        private protected abstract ZmqException? Add(int token, nint fd);

        /// <summary>Arms the registration; null, or why it could not be armed. Never throws.</summary>
        private protected abstract Exception? ArmCore(int token, nint fd);

        /// <summary>Takes the descriptor out of the wait set; when this returns, the reactor no longer waits on it.</summary>
        private protected abstract void Remove(int token, nint fd);

        /// <summary>Under the lock, when the reactor stops: release whoever waits for the reactor thread.</summary>
        private protected virtual void OnStopped()
        {
        }

        /// <summary>The exception an operation ends with once the reactor has stopped (one per operation).</summary>
        private static ZmqException Stopped(ZmqException failure) =>
            new ZmqException(failure.Error, failure.NativeErrorNumber, "NetZeroMQ's async reactor has stopped: " + failure.Message, innerException: failure);

        private static Reactor Start()
        {
            lock (s_startLock)
            {
                if (s_shared is null)
                {
                    Volatile.Write(ref s_shared, ReactorChoice.Portable() ? PollReactor.Start() : EpollReactor.Start());
                }

                return s_shared;
            }
        }

        private void Grow(int capacity)
        {
            Array.Resize(ref _fds, capacity);
            WeakReference<IReactorClient>?[] grown = new WeakReference<IReactorClient>?[capacity];
            Array.Copy(_clients, grown, _count);
            Volatile.Write(ref _clients, grown);
        }

        /// <summary>Returns a token to the free list; the caller holds the lock.</summary>
        private void Free(int token)
        {
            Debug.Assert(Monitor.IsEntered(_lock), "the registration table changes under the lock");
            Volatile.Write(ref _clients[token], null);
            _fds[token] = _freeHead;
            _freeHead = token;
            _registered--;
        }
    }
}
#endif
