using System;

namespace NetZeroMQ
{
    /// <summary>Starts monitors on sockets: <see cref="Monitor(Socket, MonitorEvents)"/>.</summary>
    public static class SocketMonitorExtensions
    {
        /// <summary>
        /// Starts reporting <paramref name="socket"/>'s connection events (<c>zmq_socket_monitor</c>). Read them from the returned
        /// <see cref="SocketMonitor"/>, and dispose it to stop. See <see href="http://api.zeromq.org/4-3:zmq-socket-monitor">zmq_socket_monitor</see>.
        /// </summary>
        /// <remarks>
        /// <para>Only connection-oriented transports (tcp, ipc, tipc) report events; inproc reports none.</para>
        /// <para>A socket has one monitor at a time: monitoring it again stops the previous monitor (which then reports
        /// <see cref="MonitorEventKind.MonitorStopped"/>, if it asked for that, and nothing more). Monitoring again after a monitor
        /// was disposed works as the first time.</para>
        /// <para>This is a call on the socket: make it from the thread that uses the socket.</para>
        /// </remarks>
        /// <param name="socket">The socket to monitor.</param>
        /// <param name="events">The events to report; <see cref="MonitorEvents.All"/> by default.</param>
        /// <returns>The monitor, owned by the caller.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="events"/> is empty or has bits outside <see cref="MonitorEvents.All"/>.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq refused (for example <see cref="ZmqError.ContextTerminated"/>), or, with
        /// <see cref="ZmqError.TooManyOpenFiles"/>, the process is within a few file descriptors of its limit (a monitor opens two).</exception>
        public static SocketMonitor Monitor(this Socket socket, MonitorEvents events = MonitorEvents.All)
        {
            if (socket is null)
            {
                throw new ArgumentNullException(nameof(socket));
            }

            if (events == MonitorEvents.None || ((int)events & ~(int)MonitorEvents.All) != 0)
            {
                throw new ArgumentOutOfRangeException(nameof(events), events, "Choose one or more events of MonitorEvents.All.");
            }

            if (socket.IsDisposed)
            {
                throw new ObjectDisposedException(socket.GetType().FullName);
            }

            return new SocketMonitor(socket, events);
        }
    }
}
