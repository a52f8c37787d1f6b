using System;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// Reports the connection events of one socket (<c>zmq_socket_monitor</c>, v1 protocol, or <c>zmq_socket_monitor_versioned</c>,
    /// v2, see <see cref="MonitorProtocol"/>): made by
    /// <see cref="SocketMonitorExtensions.Monitor(Socket, MonitorEvents, MonitorProtocol)"/>, read with <see cref="Recv(TimeSpan)"/> or <see cref="TryRecv(out MonitorEvent)"/>,
    /// or waited for in a <see cref="Poller"/> through <see cref="Socket"/>.
    /// See <see href="http://api.zeromq.org/4-3:zmq-socket-monitor">zmq_socket_monitor</see>.
    /// </summary>
    /// <remarks>
    /// <para><b>How it works.</b> libzmq publishes the events on a PAIR socket of its own bound to a unique
    /// <c>inproc://netzeromq-monitor-…</c> endpoint (never reused, because reusing a monitor endpoint can hang libzmq); this class
    /// connects a PAIR of the monitored socket's context to it before monitoring starts, so no early event is missed. That PAIR
    /// has no receive high-water mark: an unread monitor costs memory but never blocks libzmq's threads.</para>
    /// <para><b>Threading.</b> Read a monitor from one thread at a time (not necessarily the monitored socket's thread).
    /// <see cref="Dispose"/> may be called from any thread; a receive in progress elsewhere then ends with
    /// <see cref="ObjectDisposedException"/>.</para>
    /// <para><b>Dispose order.</b> Monitoring is stopped first, then the PAIR is closed: closing it while libzmq still sends
    /// events could block libzmq's I/O or reaper thread. Stopping is a call on the monitored socket, so it takes that socket's
    /// guard. (1) Free socket: <c>zmq_socket_monitor(s, NULL, 0)</c> under the guard; libzmq stops at once. (2) Disposed
    /// socket: its <c>zmq_close</c> ends monitoring when libzmq destroys it (after its linger); Dispose waits for libzmq's
    /// <see cref="MonitorEvents.MonitorStopped"/> (always requested internally, and only reported if asked for), at most
    /// <see cref="StopWait"/>. (3) Socket in use by another thread (for example blocked in a receive): Dispose waits up to
    /// <see cref="BusyWait"/> for it to become free, then stops monitoring while holding a native reference instead of the
    /// guard, so the socket cannot be closed meanwhile. That is the one call this library makes on a socket another thread is
    /// using; it is safe because libzmq serialises starting, stopping and emitting monitor events with a mutex of its own
    /// (<c>_monitor_sync</c>), and it is preferred to the alternative of closing the PAIR under a live monitor. Dispose never
    /// waits longer than these bounds.</para>
    /// </remarks>
    public sealed partial class SocketMonitor : IDisposable
    {
        /// <summary>How long <see cref="Dispose"/> waits for a monitored socket that another thread is using to become free.</summary>
        public static readonly TimeSpan BusyWait = TimeSpan.FromMilliseconds(100);

        /// <summary>How long <see cref="Dispose"/> waits for libzmq to stop monitoring a socket that was disposed already.</summary>
        public static readonly TimeSpan StopWait = TimeSpan.FromSeconds(2);

        /// <summary>Serialises starting and stopping monitors, so a Dispose never stops a newer monitor of the same socket.</summary>
        private static readonly object StartStopLock = new object();

        private static long s_counter;

        /// <summary>Each socket's active monitor (the one started last), read and written under <see cref="StartStopLock"/>.</summary>
        private static readonly System.Runtime.CompilerServices.ConditionalWeakTable<Socket, SocketMonitor> s_active =
            new System.Runtime.CompilerServices.ConditionalWeakTable<Socket, SocketMonitor>();

        private readonly Socket _monitored;
        private readonly Socket _pair;
        private readonly Message _header = new Message();
        private readonly Message _address = new Message();
        private readonly Poller _poller = new Poller();
        private readonly MonitorEvents _events;
        private readonly MonitorProtocol _protocol;
        private int _disposed;
        private int _receiving;
        private volatile bool _stopSeen;

        internal SocketMonitor(Socket monitored, MonitorEvents events, MonitorProtocol protocol)
        {
            _monitored = monitored;
            _events = events;
            _protocol = protocol;
            Endpoint = "inproc://netzeromq-monitor-" + Environment.TickCount.ToString("x", System.Globalization.CultureInfo.InvariantCulture)
                + "-" + Interlocked.Increment(ref s_counter).ToString(System.Globalization.CultureInfo.InvariantCulture);
            _pair = new Socket(monitored.Context, SocketType.Pair);
            try
            {
                _pair.Linger = TimeSpan.Zero;
                _pair.ReceiveHighWatermark = 0;
                _pair.Connect(Endpoint);
                _poller.Add(_pair, PollEvents.In);

                // Last: once this succeeds, the PAIR must not be closed before monitoring stops (see Dispose).
                Start((int)events | Interop.Zmq.ZMQ_EVENT_MONITOR_STOPPED);
            }
            catch
            {
                _pair.Dispose();
                _header.Dispose();
                _address.Dispose();
                _poller.Dispose();
                throw;
            }
        }

        /// <summary>The inproc endpoint libzmq publishes the events on (unique per monitor).</summary>
        public string Endpoint { get; }

        /// <summary>The events this monitor reports.</summary>
        public MonitorEvents Events => _events;

        /// <summary>The protocol libzmq reports the events in.</summary>
        public MonitorProtocol Protocol => _protocol;

        /// <summary>
        /// The PAIR socket the events arrive on, to register in a <see cref="Poller"/> for <see cref="PollEvents.In"/>. Read events
        /// with <see cref="TryRecv(out MonitorEvent)"/>, not from this socket directly; do not dispose it (the monitor does).
        /// </summary>
        public Socket Socket => _pair;

        /// <summary>Whether <see cref="Dispose"/> has been called.</summary>
        public bool IsDisposed => Volatile.Read(ref _disposed) != 0;

        /// <summary>Waits for the next event without a time limit (until one arrives, the monitor is disposed or the context shuts down).</summary>
        /// <returns>The event.</returns>
        /// <exception cref="ObjectDisposedException">The monitor was disposed, before or during the wait.</exception>
        /// <exception cref="InvalidOperationException">Another thread is reading this monitor.</exception>
        /// <exception cref="ZmqException">libzmq failed, for example <see cref="ZmqError.ContextTerminated"/>.</exception>
        public MonitorEvent Recv() => Recv(Timeout.InfiniteTimeSpan);

        /// <summary>Waits up to <paramref name="timeout"/> for the next event.</summary>
        /// <param name="timeout">How long to wait; <see cref="Timeout.InfiniteTimeSpan"/> for no limit.</param>
        /// <returns>The event.</returns>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite).</exception>
        /// <exception cref="ObjectDisposedException">The monitor was disposed, before or during the wait.</exception>
        /// <exception cref="InvalidOperationException">Another thread is reading this monitor.</exception>
        /// <exception cref="ZmqException"><see cref="ZmqError.TryAgain"/> when the time is up; other libzmq failures.</exception>
        public MonitorEvent Recv(TimeSpan timeout)
        {
            if (!TryRecv(timeout, out MonitorEvent? monitorEvent))
            {
                ZmqThrow.Timeout("monitor receive");
            }

            return monitorEvent;
        }

        /// <summary>Reads the next event if one is waiting; never blocks.</summary>
        /// <param name="monitorEvent">The event, or null when false is returned.</param>
        /// <returns>True if an event was read.</returns>
        /// <exception cref="ObjectDisposedException">The monitor was disposed.</exception>
        /// <exception cref="InvalidOperationException">Another thread is reading this monitor.</exception>
        public bool TryRecv([NotNullWhen(true)] out MonitorEvent? monitorEvent) => TryRecv(TimeSpan.Zero, out monitorEvent);

        /// <summary>Waits up to <paramref name="timeout"/> for the next event.</summary>
        /// <param name="timeout">How long to wait; <see cref="TimeSpan.Zero"/> to check and return.</param>
        /// <param name="monitorEvent">The event, or null when false is returned.</param>
        /// <returns>True if an event was read; false if none came in time.</returns>
        /// <exception cref="ObjectDisposedException">The monitor was disposed, before or during the wait.</exception>
        /// <exception cref="InvalidOperationException">Another thread is reading this monitor.</exception>
        public bool TryRecv(TimeSpan timeout, [NotNullWhen(true)] out MonitorEvent? monitorEvent)
        {
            Deadline deadline = Deadline.After(timeout);
            BeginReceive();
            try
            {
                while (true)
                {
                    while (TryReadOne(out MonitorEvent? next))
                    {
                        if (((int)next.Kind & (int)_events) != 0)
                        {
                            monitorEvent = next;
                            return true;
                        }
                    }

                    int wait = deadline.RemainingMilliseconds;
                    if (wait == 0)
                    {
                        monitorEvent = null;
                        return false;
                    }

                    _poller.Poll(wait);
                }
            }
            finally
            {
                EndReceive();
            }
        }

        /// <summary>
        /// Stops monitoring and closes the PAIR, in that order, within the bounds described in the remarks. Callable from any
        /// thread, more than once. Does not dispose the monitored socket.
        /// </summary>
        public void Dispose()
        {
            if (Interlocked.Exchange(ref _disposed, 1) != 0)
            {
                return;
            }

            Stop();
            _pair.Dispose();
            _header.Dispose();
            _address.Dispose();
            if (Interlocked.CompareExchange(ref _receiving, -1, 0) == 0)
            {
                _poller.Dispose();
            }
        }

        /// <inheritdoc/>
        public override string ToString() => "SocketMonitor(" + Endpoint + (IsDisposed ? ", disposed)" : ")");

        private void Stop()
        {
            Deadline busy = Deadline.After(BusyWait);
            while (true)
            {
                if (_monitored.TryLease(out SocketLease lease, out bool disposed))
                {
                    using (lease)
                    {
                        StopNative(lease.Native);
                    }

                    return;
                }

                if (disposed)
                {
                    WaitUntilLibzmqStopped();
                    return;
                }

                if (busy.IsExpired)
                {
                    break;
                }

                Thread.Sleep(1);
            }

            // In use by another thread for longer than BusyWait: see remarks, case (3).
            if (_monitored.TryHoldNative(out SocketNativeHold hold))
            {
                using (hold)
                {
                    StopNative(hold.Native);
                }
            }
            else
            {
                WaitUntilLibzmqStopped();
            }
        }

        /// <summary>Starts monitoring to <see cref="Endpoint"/> under the monitored socket's lease; throws on failure.</summary>
        private unsafe void Start(int events)
        {
            using var text = new Utf8.CString(Endpoint, stackalloc byte[Utf8.StackLimit]);
            using SocketLease lease = _monitored.Lease();

            // libzmq's own PAIR opens a mailbox: not from the descriptors left to the runtime (see DescriptorHeadroom).
            DescriptorHeadroom.ThrowIfLow("zmq_socket_monitor", Endpoint);
            lock (StartStopLock)
            {
                fixed (byte* p = text)
                {
                    // libzmq 4.1 replaces a running monitor without stopping it: its PAIR is never closed (zmq_ctx_term then
                    // waits for it for ever) and its reader never sees MONITOR_STOPPED. Stop it first, as 4.2 does itself.
                    if (LibzmqVersions.MonitorReplacesWithoutStopping(Libzmq.Version) && s_active.TryGetValue(_monitored, out _))
                    {
                        Interop.Zmq.zmq_socket_monitor(lease.Native, null, 0);
                    }

                    // libzmq creates the monitor's own PAIR here, so a full context (closed sockets not yet reaped) fails it.
                    Deadline? reaper = null;
                    while (StartNative(lease.Native, p, events) != 0)
                    {
                        int errno = Interop.Zmq.zmq_errno();
                        if (!SocketSlots.WaitForReaper(errno, ref reaper, lease.AllContextSlotsHeld))
                        {
                            ZmqThrow.Error(errno, "zmq_socket_monitor", Endpoint);
                        }
                    }
                }

                s_active.Remove(_monitored);
                s_active.Add(_monitored, this);
            }
        }

        /// <summary>
        /// Stops this monitor if it is still its socket's active one (<c>zmq_socket_monitor(s, NULL, 0)</c>). The caller holds a
        /// lease on the socket or its native handle. libzmq stops synchronously: when this returns it sends no further event.
        /// </summary>
        private unsafe void StopNative(nint socket)
        {
            lock (StartStopLock)
            {
                if (!s_active.TryGetValue(_monitored, out SocketMonitor? active) || !ReferenceEquals(active, this))
                {
                    return;
                }

                // Fails only with ETERM after a context shutdown, which has stopped the monitor already.
                Interop.Zmq.zmq_socket_monitor(socket, null, 0);
                s_active.Remove(_monitored);
            }
        }

        /// <summary>Drains the PAIR until libzmq's MONITOR_STOPPED arrives (or <see cref="StopWait"/> passes).</summary>
        private void WaitUntilLibzmqStopped()
        {
            Deadline stop = Deadline.After(StopWait);
            try
            {
                while (!_stopSeen && !stop.IsExpired)
                {
                    if (!TryReadOne(out _))
                    {
                        Thread.Sleep(1);
                    }
                }
            }
            catch (Exception e) when (e is ZmqException || e is ObjectDisposedException || e is InvalidOperationException)
            {
                // Context shut down (libzmq's monitor socket was stopped with it), or the PAIR is gone or busy: nothing to wait for.
            }
        }

        /// <summary>Reads one event from the PAIR if one is waiting.</summary>
        private bool TryReadOne([NotNullWhen(true)] out MonitorEvent? monitorEvent)
        {
            monitorEvent = null;
            if (!_pair.TryRecv(_header))
            {
                return false;
            }

            // libzmq sends all frames of an event together: the others are already here. The header is copied out under the
            // message's guard: a Dispose on another thread may release _header as soon as the copy is done.
            MonitorEvents kind;
            if (_protocol == MonitorProtocol.V2)
            {
                monitorEvent = ReadV2();
                kind = monitorEvent.Kind;
            }
            else
            {
                bool more = _header.HasMore;
                Span<byte> header = stackalloc byte[6];
                int size = _header.CopyTo(header);
                if (!more || size != header.Length)
                {
                    throw new InvalidOperationException("Malformed monitor event (" + size + " bytes): not libzmq's v1 monitor protocol.");
                }

                kind = (MonitorEvents)MemoryMarshal.Read<ushort>(header);
                uint value = MemoryMarshal.Read<uint>(header.Slice(2));
                _pair.Recv(_address);
                monitorEvent = new MonitorEvent(kind, value, _address.GetString());
            }

            if (kind == MonitorEvents.MonitorStopped)
            {
                _stopSeen = true;
            }
            else if ((kind & MonitorEvents.HandshakeFailed) != 0 && NetZeroMQEventSource.Log.IsEnabled())
            {
                NetZeroMQEventSource.Log.HandshakeFailed(monitorEvent.Endpoint, HandshakeFailure(monitorEvent));
            }

            return true;
        }

        /// <summary>What a handshake failure event says: its kind and its detail (the protocol error, the ZAP status or the error).</summary>
        private static string HandshakeFailure(MonitorEvent e) =>
            e.Kind + ": " + (e.ProtocolError?.ToString()
                ?? (e.ZapStatusCode is int status ? "ZAP status " + status.ToString(System.Globalization.CultureInfo.InvariantCulture) : null)
                ?? e.Error?.ToString() ?? "no detail");

        private void BeginReceive()
        {
            int state = Interlocked.CompareExchange(ref _receiving, 1, 0);
            if (state < 0 || IsDisposed)
            {
                if (state == 0)
                {
                    Volatile.Write(ref _receiving, 0);
                }

                ZmqThrow.Disposed(this);
            }

            if (state != 0)
            {
                ZmqThrow.ConcurrentUse(this);
            }
        }

        private void EndReceive()
        {
            Volatile.Write(ref _receiving, 0);
            if (IsDisposed && Interlocked.CompareExchange(ref _receiving, -1, 0) == 0)
            {
                _poller.Dispose();
            }
        }
    }
}
