using System;
using System.Collections.Generic;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// A ZeroMQ context: the container of sockets and of libzmq's I/O threads. Thread-safe. Create one per process (or per
    /// independent component) and dispose it last.
    /// </summary>
    /// <remarks>
    /// <para><b>Shutdown rules.</b> <see cref="Dispose"/> never blocks forever by default: every socket created from this context
    /// starts with <see cref="DefaultLinger"/> (1 second unless changed) instead of libzmq's infinite linger, so queued messages
    /// get that long to leave and no longer. Disposing the context shuts it down (blocked calls on its sockets end with
    /// <see cref="ZmqError.ContextTerminated"/>), disposes every socket of it that is still open, and waits until libzmq has
    /// terminated, which takes at most the longest linger among its sockets. An infinite wait must be asked for explicitly,
    /// with <c>DefaultLinger = Timeout.InfiniteTimeSpan</c> or a socket's own <see cref="Socket.Linger"/>.</para>
    /// <para>If a socket is in the middle of a call on another thread when the context is disposed, that call ends with an
    /// exception and the thread closes the socket as it leaves; <see cref="Dispose"/> waits for that (it takes milliseconds;
    /// the wait gives up after 2 seconds) and then terminates the context itself, so that when it returns libzmq's threads
    /// are gone and the process may exit. Only if the wait gives up (a call that does not leave, such as a disposal from
    /// inside a call on one of the context's sockets) does the termination complete on a background thread later.</para>
    /// <para>A context that is never disposed is terminated by its finalizer on a background thread, never on the finalizer
    /// thread, and abandoned sockets are closed with linger 0.</para>
    /// See <see href="http://api.zeromq.org/4-3:zmq-ctx-new">zmq_ctx_new</see>.
    /// </remarks>
    public sealed partial class Context : IDisposable
    {
        /// <summary>The linger every new socket starts with unless <see cref="DefaultLinger"/> is changed: one second.</summary>
        public static readonly TimeSpan StandardLinger = TimeSpan.FromSeconds(1);

        private readonly ContextHandle _handle;
        private readonly HashSet<WeakReference<Socket>> _sockets = new HashSet<WeakReference<Socket>>();
        private int _disposed;
        private int _shutdown;
        private int _defaultLingerMs = (int)StandardLinger.TotalMilliseconds;

        // libzmq 4.1 only (null elsewhere): the inproc endpoints connected to, bound before zmq_ctx_shutdown.
        private readonly PendingInprocConnects? _pendingInproc;

        /// <summary>Creates a context with libzmq's defaults (one I/O thread, 1023 sockets at most).</summary>
        /// <exception cref="DllNotFoundException">libzmq could not be loaded; the message lists every place tried.</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq is older than <see cref="Libzmq.MinimumVersion"/>.</exception>
        /// <exception cref="ZmqException">libzmq could not create the context (for example <see cref="ZmqError.TooManyOpenFiles"/>).</exception>
        public Context()
        {
            Libzmq.EnsureUsable();
            nint context = Interop.Zmq.zmq_ctx_new();
            if (context == 0)
            {
                ZmqThrow.LastError("zmq_ctx_new");
            }

            _handle = new ContextHandle(context);
            ResourceCounters.ContextCreated();
            _pendingInproc = LibzmqVersions.TermCrashesOnPendingInprocConnect(Libzmq.Version) ? new PendingInprocConnects() : null;
        }

        /// <summary>Creates a context with the given number of I/O threads.</summary>
        /// <param name="ioThreads">I/O threads, 0 or more (0 allows only inproc).</param>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="ioThreads"/> is negative.</exception>
        public Context(int ioThreads)
            : this()
        {
            IOThreads = ioThreads;
        }

        /// <summary>Creates a context with the given number of I/O threads and maximum number of sockets.</summary>
        /// <param name="ioThreads">I/O threads, 0 or more (0 allows only inproc).</param>
        /// <param name="maxSockets">Maximum number of sockets, 1 up to <see cref="SocketLimit"/>.</param>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="ioThreads"/> or <paramref name="maxSockets"/> is negative.</exception>
        /// <exception cref="ZmqException"><paramref name="maxSockets"/> is 0 or above <see cref="SocketLimit"/> (<see cref="ZmqError.InvalidArgument"/>).</exception>
        public Context(int ioThreads, int maxSockets)
            : this(ioThreads)
        {
            MaxSockets = maxSockets;
        }

        /// <summary>The version of the loaded libzmq (same as <see cref="Libzmq.Version"/>).</summary>
        public static Version Version => Libzmq.Version;

        /// <summary>Whether the loaded libzmq has a capability (same as <see cref="Libzmq.Has"/>).</summary>
        /// <param name="capability">"ipc", "pgm", "tipc", "norm", "curve", "gssapi", "draft", "WS", "WSS".</param>
        public static bool Has(string capability) => Libzmq.Has(capability);

        /// <summary>
        /// The linger that new sockets of this context start with (default <see cref="StandardLinger"/>, one second). Use
        /// <see cref="TimeSpan.Zero"/> to drop queued messages at close, <see cref="Timeout.InfiniteTimeSpan"/> for libzmq's own
        /// default (dispose then waits until every queued message is sent, possibly forever).
        /// </summary>
        public TimeSpan DefaultLinger
        {
            get
            {
                ThrowIfDisposed();
                return Milliseconds.ToTimeSpan(Volatile.Read(ref _defaultLingerMs));
            }

            set
            {
                ThrowIfDisposed();
                Volatile.Write(ref _defaultLingerMs, Milliseconds.FromTimeSpan(value, nameof(value)));
            }
        }

        /// <summary>
        /// Number of I/O threads. Set it before the first socket is created. 0 (inproc only) up to what the process can
        /// start: each I/O thread takes two file descriptors, and on Linux the limit follows from RLIMIT_NOFILE and the
        /// descriptors already open (libzmq aborts the process when they run out while it starts its threads); elsewhere up to
        /// int.MaxValue - 2 - <see cref="MaxSockets"/> (libzmq adds them in an int).
        /// </summary>
        /// <exception cref="ArgumentOutOfRangeException">The value is negative or more than the process can start; the
        /// message gives the limit and why.</exception>
        public int IOThreads
        {
            get => GetOption(ContextOptions.IOThreads);
            set => SetOption(ContextOptions.IOThreads, ThrowIfNegative(value));
        }

        /// <summary>Maximum number of sockets, 1 to <see cref="SocketLimit"/> (65535 with epoll). libzmq documents that limit
        /// but does not enforce it: it sizes a table by this value at the first socket, and int.MaxValue ends the process.</summary>
        /// <exception cref="ArgumentOutOfRangeException">The value is negative or above <see cref="SocketLimit"/>.</exception>
        public int MaxSockets
        {
            get => GetOption(ContextOptions.MaxSockets);
            set => SetOption(ContextOptions.MaxSockets, ThrowIfNegative(value));
        }

        /// <summary>Largest value <see cref="MaxSockets"/> may take.</summary>
        public int SocketLimit => GetOption(ContextOptions.SocketLimit);

        /// <summary>Largest message size, in bytes (ZMQ_MAX_MSGSZ, 0 to int.MaxValue). libzmq 4.3 stores it but does not use it:
        /// limit what a socket accepts with <see cref="Socket.MaxMessageSize"/>.</summary>
        public int MaxMessageSize
        {
            get => GetOption(ContextOptions.MaxMessageSize);
            set => SetOption(ContextOptions.MaxMessageSize, ThrowIfNegative(value));
        }

        /// <summary>Whether new sockets use IPv6 by default.</summary>
        public bool IPv6
        {
            get => GetOption(ContextOptions.IPv6);
            set => SetOption(ContextOptions.IPv6, value);
        }

        /// <summary>
        /// Whether <see cref="Dispose"/> has been called. A context that was only shut down (<see cref="Shutdown"/>) is not
        /// disposed: it still holds its native resources until <see cref="Dispose"/>; see <see cref="IsShutdown"/>.
        /// </summary>
        public bool IsDisposed => Volatile.Read(ref _disposed) != 0;

        /// <summary>
        /// Whether <see cref="Shutdown"/> or <see cref="Dispose"/> has been called: blocking calls on the context's sockets then
        /// end with <see cref="ZmqError.ContextTerminated"/> and no new socket can be created.
        /// </summary>
        public bool IsShutdown => Volatile.Read(ref _shutdown) != 0;

        internal ContextHandle Handle => _handle;

        /// <summary>Reads an integer context option (<c>zmq_ctx_get</c>).
        /// See <see href="http://api.zeromq.org/4-3:zmq-ctx-get">zmq_ctx_get</see>.</summary>
        /// <param name="option">A key from <see cref="ContextOptions"/>.</param>
        /// <returns>The value.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="option"/> is null.</exception>
        /// <exception cref="ObjectDisposedException">The context was disposed.</exception>
        /// <exception cref="InvalidOperationException">The option is write-only.</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq cannot read this option (it came in a later version; the
        /// message names both).</exception>
        /// <exception cref="ZmqException">libzmq rejected the option.</exception>
        public int GetOption(ContextOption<int> option)
        {
            ThrowIfNull(option);
            return GetNative(option.Id, option.Name, option.Access);
        }

        /// <summary>Reads a boolean context option (<c>zmq_ctx_get</c>; an integer, 0 or 1, in libzmq).</summary>
        /// <inheritdoc cref="GetOption(ContextOption{int})" path="/*[not(self::summary)]"/>
        public bool GetOption(ContextOption<bool> option)
        {
            ThrowIfNull(option);
            return GetNative(option.Id, option.Name, option.Access) != 0;
        }

        /// <summary>Sets an integer context option (<c>zmq_ctx_set</c>).
        /// See <see href="http://api.zeromq.org/4-3:zmq-ctx-set">zmq_ctx_set</see>.</summary>
        /// <param name="option">A key from <see cref="ContextOptions"/>.</param>
        /// <param name="value">The value.</param>
        /// <exception cref="ArgumentNullException"><paramref name="option"/> is null.</exception>
        /// <exception cref="ObjectDisposedException">The context was disposed.</exception>
        /// <exception cref="InvalidOperationException">The option is read-only (<see cref="ContextOptions.SocketLimit"/>,
        /// <see cref="ContextOptions.MessageStructSize"/>).</exception>
        /// <exception cref="ArgumentOutOfRangeException">A value libzmq would accept but cannot start its threads with (see each
        /// key of <see cref="ContextOptions"/>); the message names the option and the allowed values.</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq cannot set this option (it came in a later version; the
        /// message names both).</exception>
        /// <exception cref="ZmqException">libzmq rejected the option or value (<see cref="ZmqError.InvalidArgument"/>).</exception>
        public void SetOption(ContextOption<int> option, int value)
        {
            ThrowIfNull(option);
            ThrowIfNotWritable(option.Id, option.Name, option.Access);
            ContextOptionLimits.ThrowIfNotAllowed(this, option.Id, option.Name, value);
            SetNative(option.Id, option.Name, value);
            Remember(option.Id, value);
        }

        /// <summary>Sets a boolean context option (<c>zmq_ctx_set</c>; an integer, 0 or 1, in libzmq).</summary>
        /// <inheritdoc cref="SetOption(ContextOption{int}, int)" path="/*[not(self::summary)]"/>
        public void SetOption(ContextOption<bool> option, bool value)
        {
            ThrowIfNull(option);
            ThrowIfNotWritable(option.Id, option.Name, option.Access);
            SetNative(option.Id, option.Name, value ? 1 : 0);
        }

        /// <summary>
        /// Sets the scheduling priority of the I/O threads (ZMQ_THREAD_PRIORITY, POSIX, write-only; its number is shared with the
        /// read-only <see cref="ContextOptions.SocketLimit"/>, which is why it has its own method). Set it before creating sockets.
        /// </summary>
        /// <param name="priority">The priority: 1 to 99 with the real-time policies (SCHED_FIFO 1, SCHED_RR 2); with the others
        /// any value from 0 makes libzmq's threads call nice(-20) (which needs CAP_SYS_NICE or RLIMIT_NICE), whatever the value.
        /// On Linux 0 to 99; whether the system lets the threads apply it is checked when the first socket is created, which
        /// throws <see cref="InvalidOperationException"/> instead of letting libzmq abort the process.</param>
        /// <exception cref="ArgumentOutOfRangeException">Above 99 on Linux.</exception>
        /// <exception cref="ZmqException">libzmq rejected the value (<see cref="ZmqError.InvalidArgument"/> below 0).</exception>
        public void SetThreadPriority(int priority)
        {
            ContextOptionLimits.ThrowIfNotAllowed(this, ThreadPriorityOption, "ThreadPriority", priority);
            SetNative(ThreadPriorityOption, "ThreadPriority", priority);
            Remember(ThreadPriorityOption, priority);
        }

        private int GetNative(int option, string name, OptionAccess access)
        {
            if ((access & OptionAccess.Read) == 0)
            {
                throw new InvalidOperationException("Context option " + name + " is write-only.");
            }

            nint context = AddRef(out bool added);
            try
            {
                // After AddRef, so that a disposed context says so first, whatever the version.
                ThrowIfNotInLoadedVersion(option, name, write: false, value: 0);
                int value = Interop.Zmq.zmq_ctx_get(context, option);

                // -1 is libzmq's error return, but also a legitimate value of the thread options (the OS default).
                if (value == -1 && !CanBeNegative(option))
                {
                    ZmqThrow.Error(Interop.Zmq.zmq_errno(), "zmq_ctx_get", option: name);
                }

                return value;
            }
            finally
            {
                Release(added);
            }
        }

        private static void ThrowIfNotWritable(int option, string name, OptionAccess access)
        {
            if ((access & OptionAccess.Write) == 0)
            {
                throw new InvalidOperationException(
                    "Context option " + name + " is read-only." +
                    (option == ThreadPriorityOption ? " (To set the I/O threads' priority, which libzmq numbers the same, use SetThreadPriority.)" : string.Empty));
            }
        }

        private static void ThrowIfNull<T>(ContextOption<T> option)
        {
            if (option is null)
            {
                throw new ArgumentNullException(nameof(option));
            }
        }

        /// <summary>Refuses an option the loaded libzmq does not have (<see cref="LibzmqVersions.ContextOptionSince"/>).</summary>
        private static void ThrowIfNotInLoadedVersion(int option, string name, bool write, int value)
        {
            if (LibzmqVersions.ContextOptionRefusal(option, name, write, Libzmq.Version, value) is { } refusal)
            {
                throw refusal;
            }
        }

        private void SetNative(int option, string name, int value)
        {
            nint context = AddRef(out bool added);
            try
            {
                // After AddRef, so that a disposed context says so first, whatever the version.
                ThrowIfNotInLoadedVersion(option, name, write: true, value);
                if (Interop.Zmq.zmq_ctx_set(context, option, value) != 0)
                {
                    ZmqThrow.Error(Interop.Zmq.zmq_errno(), "zmq_ctx_set", option: name);
                }
            }
            finally
            {
                Release(added);
            }
        }

        /// <summary>
        /// Shuts the context down without freeing it (<c>zmq_ctx_shutdown</c>): every blocked call on its sockets returns with
        /// <see cref="ZmqError.ContextTerminated"/>, further operations fail the same way, and no new socket can be created.
        /// Sockets still have to be disposed; <see cref="Dispose"/> does that for any left open.
        /// </summary>
        /// <exception cref="ObjectDisposedException">The context was disposed.</exception>
        public void Shutdown()
        {
            nint context = AddRef(out bool added);
            try
            {
                _pendingInproc?.BindAll(context);
                Interop.Zmq.zmq_ctx_shutdown(context);
                Volatile.Write(ref _shutdown, 1);
            }
            finally
            {
                Release(added);
            }
        }

        /// <summary>
        /// Shuts the context down, disposes its open sockets and terminates it (<c>zmq_ctx_term</c>), waiting for calls still
        /// inside its sockets on other threads to leave (at most 2 seconds) and then at most the longest linger of its sockets
        /// (see the shutdown rules in the remarks of <see cref="Context"/>). Safe to call more than once and from any thread.
        /// </summary>
        public void Dispose()
        {
            if (Interlocked.Exchange(ref _disposed, 1) != 0)
            {
                return;
            }

            bool added = false;
            _handle.DangerousAddRef(ref added);
            try
            {
                _pendingInproc?.BindAll(_handle.DangerousGetHandle());
                Interop.Zmq.zmq_ctx_shutdown(_handle.DangerousGetHandle());
                Volatile.Write(ref _shutdown, 1);
            }
            finally
            {
                _handle.DangerousRelease();
            }

            foreach (Socket socket in TakeOpenSockets())
            {
                socket.DisposeWithContext();
            }

            _handle.AwaitTerminationByOwner();
            _handle.Dispose();
            _handle.TerminateAfterRelease();
        }

        internal int DefaultLingerMilliseconds => Volatile.Read(ref _defaultLingerMs);

        /// <summary>A socket of this context connected to an inproc endpoint (see <see cref="PendingInprocConnects"/>).</summary>
        internal void NoteInprocConnect(string endpoint) => _pendingInproc?.Add(endpoint);

        internal void Track(WeakReference<Socket> socket)
        {
            lock (_sockets)
            {
                _sockets.Add(socket);
            }

            MarkStarted();
        }

        /// <summary>
        /// Whether this context's open sockets fill every slot (<see cref="MaxSockets"/>): then a socket libzmq refuses for
        /// lack of slots would not get one by waiting for the reaper. Only called after such a refusal.
        /// </summary>
        internal bool AllSlotsHeldByOpenSockets()
        {
            int open;
            lock (_sockets)
            {
                open = _sockets.Count;
            }

            return open >= MaxSockets;
        }

        internal void Untrack(WeakReference<Socket> socket)
        {
            lock (_sockets)
            {
                _sockets.Remove(socket);
            }
        }

        /// <summary>Holds a reference on the native context for one call; pair with <see cref="Release"/>.</summary>
        internal nint AddRef(out bool added)
        {
            added = false;
            if (Volatile.Read(ref _disposed) != 0)
            {
                ZmqThrow.Disposed(this);
            }

            try
            {
                _handle.DangerousAddRef(ref added);
            }
            catch (ObjectDisposedException)
            {
                ZmqThrow.Disposed(this);
            }

            return _handle.DangerousGetHandle();
        }

        internal void Release(bool added)
        {
            if (added)
            {
                _handle.DangerousRelease();
            }
        }

        private List<Socket> TakeOpenSockets()
        {
            var open = new List<Socket>();
            lock (_sockets)
            {
                foreach (WeakReference<Socket> reference in _sockets)
                {
                    if (reference.TryGetTarget(out Socket? socket))
                    {
                        open.Add(socket);
                    }
                }

                _sockets.Clear();
            }

            return open;
        }

        private void ThrowIfDisposed()
        {
            if (Volatile.Read(ref _disposed) != 0)
            {
                ZmqThrow.Disposed(this);
            }
        }

        private static bool CanBeNegative(int option) =>
            option == ContextOptions.ThreadSchedulingPolicyId || option == ContextOptions.ThreadNamePrefixId;

        private static int ThrowIfNegative(int value) =>
            value >= 0 ? value : throw new ArgumentOutOfRangeException(nameof(value), value, "The value must not be negative.");
    }
}
