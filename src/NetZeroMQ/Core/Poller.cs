using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// Waits for several sockets at once (<c>zmq_poll</c>, the only multiplexer stable libzmq builds export). Build it once,
    /// then call <see cref="Poll(TimeSpan)"/> in a loop: a poll allocates nothing.
    /// See <see href="http://api.zeromq.org/4-3:zmq-poll">zmq_poll</see>.
    /// </summary>
    /// <remarks>
    /// A poll is a use of each of its sockets, so the poller follows the sockets' threading rule: poll on the thread that uses
    /// the sockets. Disposing one of the sockets from another thread ends a poll in progress at once with
    /// <see cref="ObjectDisposedException"/>; shutting down the context ends it with <see cref="ZmqError.ContextTerminated"/>.
    /// </remarks>
    public sealed unsafe class Poller : IDisposable
    {
        private static readonly bool s_windows = RuntimeInformation.IsOSPlatform(OSPlatform.Windows);

        private readonly List<Socket> _sockets = new List<Socket>();
        private readonly List<PollEvents> _requested = new List<PollEvents>();
        private readonly List<WakerHandle?> _wakers = new List<WakerHandle?>();
        private PollEvents[] _returned = Array.Empty<PollEvents>();

        /// <summary>The sockets' leases during a poll, one slot per socket (kept between polls so that a poll allocates nothing).</summary>
        private SocketLease[] _leases = Array.Empty<SocketLease>();
        private nint _items;
        private int _capacity;
        private UsageGuard _guard;

        /// <summary>
        /// Lets Dispose from another thread end a poll in progress. Made by the first poll, so a poller that never polls costs
        /// no descriptor; null until then, on Windows, and while no descriptor can be spared (polls then wait in slices).
        /// </summary>
        private WakerHandle? _waker;

        /// <summary>The number of sockets registered.</summary>
        public int Count => ThrowIfDisposedThen(_sockets).Count;

        /// <summary>The socket registered at <paramref name="index"/>.</summary>
        /// <param name="index">The index <see cref="Add"/> returned.</param>
        public Socket this[int index] => ThrowIfDisposedThen(_sockets)[index];

        /// <summary>Registers a socket.</summary>
        /// <param name="socket">The socket.</param>
        /// <param name="events">What to wait for: <see cref="PollEvents.In"/>, <see cref="PollEvents.Out"/> or both.</param>
        /// <returns>The socket's index, for <see cref="GetReturnedEvents"/> and friends.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
        /// <exception cref="ArgumentException">The socket is already registered, or <paramref name="events"/> is empty or unknown.</exception>
        public int Add(Socket socket, PollEvents events)
        {
            if (socket is null)
            {
                throw new ArgumentNullException(nameof(socket));
            }

            ThrowIfInvalid(events);
            Enter();
            try
            {
                return AddUnguarded(socket, events);
            }
            finally
            {
                Exit();
            }
        }

        private int AddUnguarded(Socket socket, PollEvents events)
        {
            if (_sockets.Contains(socket))
            {
                throw new ArgumentException("The socket is already registered with this poller.", nameof(socket));
            }

            // Claimed only to refuse a disposed socket or one in use elsewhere; its waker is made by the first poll.
            using (socket.Lease())
            {
            }

            _sockets.Add(socket);
            _requested.Add(events);
            _wakers.Add(null);
            Array.Resize(ref _returned, _sockets.Count);
            Array.Resize(ref _leases, _sockets.Count);
            EnsureCapacity((_sockets.Count * 2) + 1);
            return _sockets.Count - 1;
        }

        /// <summary>Changes what to wait for on a registered socket.</summary>
        /// <param name="index">The socket's index.</param>
        /// <param name="events">What to wait for.</param>
        public void Update(int index, PollEvents events)
        {
            ThrowIfInvalid(events);
            Enter();
            try
            {
                _requested[index] = events;
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Unregisters a socket; the indexes of the sockets after it move down by one.</summary>
        /// <param name="socket">The socket.</param>
        /// <returns>True if it was registered.</returns>
        public bool Remove(Socket socket)
        {
            Enter();
            try
            {
                int index = _sockets.IndexOf(socket);
                if (index < 0)
                {
                    return false;
                }

                _sockets.RemoveAt(index);
                _requested.RemoveAt(index);
                _wakers.RemoveAt(index);
                Array.Resize(ref _returned, _sockets.Count);
                Array.Resize(ref _leases, _sockets.Count);
                return true;
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>
        /// Waits until at least one socket is ready or <paramref name="timeout"/> passes; a signal does not end the wait early.
        /// </summary>
        /// <param name="timeout">How long to wait: <see cref="TimeSpan.Zero"/> to check and return,
        /// <see cref="Timeout.InfiniteTimeSpan"/> to wait until something is ready.</param>
        /// <returns>The number of sockets that are ready (0 on timeout).</returns>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or too long.</exception>
        /// <exception cref="ObjectDisposedException">The poller or one of its sockets was disposed, before or during the wait.</exception>
        /// <exception cref="InvalidOperationException">Another thread is using the poller or one of its sockets.</exception>
        /// <exception cref="ZmqException">libzmq failed, for example <see cref="ZmqError.ContextTerminated"/>.</exception>
        public int Poll(TimeSpan timeout) => Poll(Milliseconds.FromTimeSpan(timeout, nameof(timeout)));

        /// <summary>Waits until at least one socket is ready or <paramref name="timeoutMilliseconds"/> pass (-1: no limit).</summary>
        /// <param name="timeoutMilliseconds">Milliseconds to wait; 0 checks and returns; -1 waits without limit.</param>
        /// <returns>The number of sockets that are ready (0 on timeout).</returns>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeoutMilliseconds"/> is below -1.</exception>
        /// <exception cref="ObjectDisposedException">The poller or one of its sockets was disposed, before or during the wait.</exception>
        /// <exception cref="InvalidOperationException">Another thread is using the poller or one of its sockets.</exception>
        /// <exception cref="ZmqException">libzmq failed, for example <see cref="ZmqError.ContextTerminated"/>.</exception>
        public int Poll(int timeoutMilliseconds)
        {
            if (timeoutMilliseconds < -1)
            {
                throw new ArgumentOutOfRangeException(nameof(timeoutMilliseconds), timeoutMilliseconds, "Use -1 for no limit.");
            }

            Enter();
            try
            {
                return PollUnguarded(timeoutMilliseconds);
            }
            finally
            {
                Exit();
            }
        }

        private int PollUnguarded(int timeoutMilliseconds)
        {
            int count = _sockets.Count;
            EnsureCapacity((count * 2) + 1);
            int entered = 0;
            try
            {
                for (; entered < count; entered++)
                {
                    _leases[entered] = _sockets[entered].Lease();
                    SetItem(entered, _leases[entered].Native, 0, (short)_requested[entered]);
                }

                // A poll that cannot be woken (no waker for the poller or for one of its sockets) waits in slices instead.
                bool interruptible = EnsureWaker();
                int items = count;
                for (int i = 0; i < count; i++)
                {
                    WakerHandle? waker = _wakers[i];
                    if (waker is null)
                    {
                        waker = _wakers[i] = _leases[i].GetOrCreateWaker();

                        // Published before this read, and Dispose reads it after its request: either Dispose signals the new
                        // waker, or this poll sees the request.
                        if (waker is not null && _sockets[i].IsDisposeRequested)
                        {
                            _sockets[i].ThrowDisposed();
                        }
                    }

                    if (waker is not null)
                    {
                        SetItem(items++, 0, waker.ReadFd, Interop.Zmq.ZMQ_POLLIN);
                    }
                    else
                    {
                        interruptible = false;
                    }
                }

                if (_waker is not null)
                {
                    SetItem(items++, 0, _waker.ReadFd, Interop.Zmq.ZMQ_POLLIN);
                }

                return Wait(count, items, timeoutMilliseconds, interruptible);
            }
            finally
            {
                for (int i = 0; i < entered; i++)
                {
                    _leases[i].Dispose();
                    _leases[i] = default;
                }
            }
        }

        /// <summary>
        /// Makes the poller's waker if it has none yet; false when there is none. Publishing it and then reading the dispose
        /// request pairs with Dispose's request-then-read, so either Dispose signals the new waker or this poll sees the request.
        /// </summary>
        private bool EnsureWaker()
        {
            if (_waker is null && WakerHandle.IsSupported)
            {
                WakerHandle? waker = WakerHandle.TryCreate();
                if (waker is null)
                {
                    return false;
                }

                Interlocked.Exchange(ref _waker, waker);
                if (_guard.IsDisposeRequested)
                {
                    ZmqThrow.Disposed(this);
                }
            }

            return _waker is not null;
        }

        /// <summary>What the last poll found for a socket.</summary>
        /// <param name="index">The socket's index.</param>
        /// <returns>The ready events (a subset of those asked for).</returns>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is not the index of a registered socket.</exception>
        /// <exception cref="ObjectDisposedException">The poller was disposed.</exception>
        public PollEvents GetReturnedEvents(int index)
        {
            ThrowIfDisposed();
            PollEvents[] returned = _returned;
            if ((uint)index >= (uint)returned.Length)
            {
                ThrowNoSocketAt(index);
            }

            return returned[index];
        }

        /// <summary>Whether the last poll found the socket readable.</summary>
        /// <param name="index">The socket's index.</param>
        /// <returns>True if a receive would not block.</returns>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is not the index of a registered socket.</exception>
        /// <exception cref="ObjectDisposedException">The poller was disposed.</exception>
        public bool IsReadable(int index) => (GetReturnedEvents(index) & PollEvents.In) != 0;

        /// <summary>Whether the last poll found the socket writable.</summary>
        /// <param name="index">The socket's index.</param>
        /// <returns>True if a send would not block.</returns>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is not the index of a registered socket.</exception>
        /// <exception cref="ObjectDisposedException">The poller was disposed.</exception>
        public bool IsWritable(int index) => (GetReturnedEvents(index) & PollEvents.Out) != 0;

        /// <summary>
        /// Frees the poll set; the sockets are not disposed. Callable from any thread: a poll in progress on another thread ends
        /// with <see cref="ObjectDisposedException"/> and that thread frees the set as it leaves.
        /// </summary>
        public void Dispose()
        {
            if (_guard.RequestDispose())
            {
                FreeNative();
            }
            else
            {
                Volatile.Read(ref _waker)?.Signal();
            }

            GC.SuppressFinalize(this);
        }

        /// <summary>Frees the poll set of a poller that was not disposed.</summary>
        ~Poller()
        {
            FreeNative();
        }

        private void Enter()
        {
            if (!_guard.Enter(this))
            {
                // Disposed, possibly by a Dispose that left the release to this thread: exit (releasing) before throwing.
                Exit();
                ZmqThrow.Disposed(this);
            }
        }

        private void Exit()
        {
            if (_guard.Exit())
            {
                FreeNative();
            }
        }

        /// <summary>Runs once, after the last call: frees the native poll items and the waker.</summary>
        private void FreeNative()
        {
            nint items = Interlocked.Exchange(ref _items, IntPtr.Zero);
            if (items != 0)
            {
                Marshal.FreeHGlobal(items);
            }

            _waker?.Dispose();
        }

        private int Wait(int sockets, int items, int timeoutMs, bool interruptible)
        {
            Deadline deadline = Deadline.After(timeoutMs);
            while (true)
            {
                // Without wakers (this platform, or no descriptor to spare) wait in slices so that a Dispose elsewhere is noticed.
                int wait = interruptible
                    ? deadline.RemainingMilliseconds
                    : deadline.SliceMilliseconds(Socket.UninterruptibleSliceMs);

                int rc = Interop.Zmq.zmq_poll((void*)_items, items, wait);
                if (rc < 0)
                {
                    int errno = Interop.Zmq.zmq_errno();
                    if (errno == ErrorMap.EINTR)
                    {
                        continue;
                    }

                    ZmqThrow.Error(errno, "zmq_poll");
                }

                if (_guard.IsDisposeRequested)
                {
                    ZmqThrow.Disposed(this);
                }

                for (int i = 0; i < sockets; i++)
                {
                    if (_sockets[i].IsDisposeRequested)
                    {
                        _sockets[i].ThrowDisposed();
                    }
                }

                int ready = 0;
                for (int i = 0; i < sockets; i++)
                {
                    var events = (PollEvents)GetRevents(i);
                    _returned[i] = events;
                    if (events != PollEvents.None)
                    {
                        ready++;
                    }
                }

                if (ready > 0 || deadline.IsExpired)
                {
                    return ready;
                }
            }
        }

        private void SetItem(int index, nint socket, int fd, short events)
        {
            if (s_windows)
            {
                ((Interop.Zmq.PollItemWindows*)_items)[index] = new Interop.Zmq.PollItemWindows { Socket = socket, Fd = (nuint)fd, Events = events };
            }
            else
            {
                ((Interop.Zmq.PollItemPosix*)_items)[index] = new Interop.Zmq.PollItemPosix { Socket = socket, Fd = fd, Events = events };
            }
        }

        private short GetRevents(int index) =>
            s_windows ? ((Interop.Zmq.PollItemWindows*)_items)[index].Revents : ((Interop.Zmq.PollItemPosix*)_items)[index].Revents;

        private void EnsureCapacity(int items)
        {
            if (items <= _capacity)
            {
                return;
            }

            int capacity = Math.Max(items, Math.Max(8, _capacity * 2));
            int size = s_windows ? sizeof(Interop.Zmq.PollItemWindows) : sizeof(Interop.Zmq.PollItemPosix);
            _items = Marshal.ReAllocHGlobal(_items == 0 ? Marshal.AllocHGlobal(1) : _items, (IntPtr)(capacity * size));
            _capacity = capacity;
        }

        private void ThrowIfDisposed()
        {
            if (_guard.IsDisposeRequested)
            {
                ZmqThrow.Disposed(this);
            }
        }

        private T ThrowIfDisposedThen<T>(T value)
        {
            ThrowIfDisposed();
            return value;
        }

        [System.Diagnostics.CodeAnalysis.DoesNotReturn]
        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
        private static void ThrowNoSocketAt(int index) =>
            throw new ArgumentOutOfRangeException(nameof(index), index, "No socket is registered at this index.");

        private static void ThrowIfInvalid(PollEvents events)
        {
            if (events == PollEvents.None || (events & ~(PollEvents.In | PollEvents.Out)) != 0)
            {
                throw new ArgumentException("Poll for In, Out or both.", nameof(events));
            }
        }
    }
}
