using System;

namespace NetZeroMQ
{
    public sealed unsafe partial class Socket
    {
        /// <summary>The monitor started last on this socket, or null; read and written under <see cref="SocketMonitor.StartStopLock"/>.</summary>
        private SocketMonitor? _activeMonitor;

        /// <summary>
        /// Starts reporting this socket's connection events (<c>zmq_socket_monitor</c>). Read them from the returned
        /// <see cref="SocketMonitor"/>, and dispose it to stop. See <see href="http://api.zeromq.org/4-3:zmq-socket-monitor">zmq_socket_monitor</see>.
        /// </summary>
        /// <remarks>
        /// <para>Only connection-oriented transports (tcp, ipc, tipc) report events; inproc reports none.</para>
        /// <para>A socket has one monitor at a time: monitoring it again stops the previous monitor (which then reports
        /// <see cref="MonitorEventKind.MonitorStopped"/>, if it asked for that, and nothing more). Monitoring again after a monitor
        /// was disposed works as the first time.</para>
        /// <para>This is a call on the socket: make it from the thread that uses the socket.</para>
        /// </remarks>
        /// <param name="events">The events to report; <see cref="MonitorEvents.All"/> by default.</param>
        /// <returns>The monitor, owned by the caller.</returns>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="events"/> is empty or has bits outside <see cref="MonitorEvents.All"/>.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq refused (for example <see cref="ZmqError.ContextTerminated"/>).</exception>
        public SocketMonitor Monitor(MonitorEvents events = MonitorEvents.All)
        {
            if (events == MonitorEvents.None || ((int)events & ~(int)MonitorEvents.All) != 0)
            {
                throw new ArgumentOutOfRangeException(nameof(events), events, "Choose one or more events of MonitorEvents.All.");
            }

            if (IsDisposed)
            {
                ThrowDisposed();
            }

            return new SocketMonitor(this, events);
        }

        /// <summary>Starts monitoring to <paramref name="endpoint"/> under this socket's guard; throws on failure.</summary>
        internal void StartMonitor(SocketMonitor monitor, string endpoint, int events)
        {
            using var text = new Utf8.CString(endpoint, stackalloc byte[Utf8.StackLimit]);
            nint socket = Enter();
            try
            {
                lock (SocketMonitor.StartStopLock)
                {
                    fixed (byte* p = text)
                    {
                        // libzmq creates the monitor's own PAIR here, so a full context (closed sockets not yet reaped) fails it.
                        int attempt = 0;
                        while (Interop.Zmq.zmq_socket_monitor(socket, p, events) != 0)
                        {
                            if (!SocketSlots.WaitForReaper(ref attempt))
                            {
                                ZmqThrow.LastError("zmq_socket_monitor", endpoint);
                            }
                        }
                    }

                    _activeMonitor = monitor;
                }
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>
        /// Stops <paramref name="monitor"/> if it is still this socket's active monitor (<c>zmq_socket_monitor(s, NULL, 0)</c>).
        /// The caller holds the guard or a native reference on the socket. libzmq stops synchronously: when this returns it
        /// sends no further event to the monitor's endpoint.
        /// </summary>
        internal void StopMonitorUnguarded(SocketMonitor monitor)
        {
            lock (SocketMonitor.StartStopLock)
            {
                if (!ReferenceEquals(_activeMonitor, monitor))
                {
                    return;
                }

                // Fails only with ETERM after a context shutdown, which has stopped the monitor already.
                Interop.Zmq.zmq_socket_monitor(_socket, null, 0);
                _activeMonitor = null;
            }
        }
    }
}
