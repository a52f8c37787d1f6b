using System;

namespace NetZeroMQ
{
    /// <summary>Starts monitors on sockets: <see cref="Monitor(Socket, MonitorEvents, MonitorProtocol)"/>.</summary>
    public static class SocketMonitorExtensions
    {
        /// <summary>
        /// Starts reporting <paramref name="socket"/>'s connection events (<c>zmq_socket_monitor</c>). Read them from the returned
        /// <see cref="SocketMonitor"/>, and dispose it to stop. See <see href="http://api.zeromq.org/4-3:zmq-socket-monitor">zmq_socket_monitor</see>.
        /// </summary>
        /// <remarks>
        /// <para>Only connection-oriented transports (tcp, ipc, tipc) report events; inproc reports none.</para>
        /// <para>A socket has one monitor at a time: monitoring it again stops the previous monitor (which then reports
        /// <see cref="MonitorEvents.MonitorStopped"/>, if it asked for that, and nothing more). Monitoring again after a monitor
        /// was disposed works as the first time.</para>
        /// <para>This is a call on the socket: make it from the thread that uses the socket.</para>
        /// </remarks>
        /// <param name="socket">The socket to monitor.</param>
        /// <param name="events">The events to report; <see cref="MonitorEvents.All"/> (every event the loaded libzmq sends) by
        /// default. Within <see cref="MonitorEvents.All"/> for v1, <see cref="MonitorEvents.AllV2"/> for v2.</param>
        /// <param name="protocol">The protocol: <see cref="MonitorProtocol.V1"/> (the default, <c>zmq_socket_monitor</c>), or
        /// <see cref="MonitorProtocol.V2"/> (<c>zmq_socket_monitor_versioned</c>, draft API only,
        /// <see href="http://api.zeromq.org/master:zmq-socket-monitor-versioned">zmq_socket_monitor_versioned</see>), whose
        /// events carry all their 64-bit values and both endpoints of the connection.</param>
        /// <returns>The monitor, owned by the caller.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="events"/> is empty or has bits the protocol does not
        /// define, or <paramref name="protocol"/> is not defined.</exception>
        /// <exception cref="NotSupportedException"><paramref name="events"/> names an event the loaded libzmq never sends (the
        /// message names them and the version they need): <see cref="MonitorEvents.HandshakeSucceeded"/> before libzmq 4.3.0
        /// unless libzmq was built with the draft API, and every handshake event before 4.2.3 (see docs/libzmq-versions.md);
        /// <see cref="MonitorEvents.All"/> is never refused. Or <see cref="MonitorProtocol.V2"/> and the loaded libzmq lacks the
        /// draft API (<c>zmq_socket_monitor_versioned</c>), or this is the netstandard2.0 build.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq refused (for example <see cref="ZmqError.ContextTerminated"/>), or, with
        /// <see cref="ZmqError.TooManyOpenFiles"/>, the process is within a few file descriptors of its limit (a monitor opens two).</exception>
        public static SocketMonitor Monitor(this Socket socket, MonitorEvents events = MonitorEvents.All, MonitorProtocol protocol = MonitorProtocol.V1)
        {
            if (socket is null)
            {
                throw new ArgumentNullException(nameof(socket));
            }

            if (protocol != MonitorProtocol.V1 && protocol != MonitorProtocol.V2)
            {
                throw new ArgumentOutOfRangeException(nameof(protocol), protocol, "Not a monitor protocol.");
            }

            MonitorEvents defined = protocol == MonitorProtocol.V1 ? MonitorEvents.All : MonitorEvents.AllV2;
            if (events == MonitorEvents.None || ((int)events & ~(int)defined) != 0)
            {
                throw new ArgumentOutOfRangeException(nameof(events), events, "Choose one or more events of MonitorEvents." + defined + ".");
            }

            if (socket.IsDisposed)
            {
                throw new ObjectDisposedException(socket.GetType().FullName);
            }

            if (protocol == MonitorProtocol.V2 && !SocketMonitor.HasVersionedMonitor)
            {
                throw DraftRequirement.Missing("The v2 monitor protocol", "export zmq_socket_monitor_versioned", ", and the net8.0 build of NetZeroMQ");
            }

            // An event the loaded libzmq never sends (the handshake events of a 4.2 release build) would be waited for forever.
            if (LibzmqVersions.MonitorEventsRefusal((int)events, Libzmq.Version, DraftRequirement.HasDraftApi) is { } refusal)
            {
                throw refusal;
            }

            return new SocketMonitor(socket, events, protocol);
        }
    }
}
