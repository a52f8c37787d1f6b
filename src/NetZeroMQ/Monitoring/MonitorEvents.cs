using System;

namespace NetZeroMQ
{
    /// <summary>
    /// libzmq 4.3's socket events (<c>ZMQ_EVENT_*</c>, with libzmq's numbers), one flag each: a combination is the set a
    /// <see cref="SocketMonitor"/> reports (the <c>events</c> mask of <c>zmq_socket_monitor</c>), and
    /// <see cref="MonitorEvent.Kind"/> is the one flag of the event that arrived.
    /// See <see href="http://api.zeromq.org/4-3:zmq-socket-monitor">zmq_socket_monitor</see>.
    /// </summary>
    [Flags]
    public enum MonitorEvents
    {
        /// <summary>No events.</summary>
        None = 0,

        /// <summary>A connection was made; <see cref="MonitorEvent.Value"/> is the file descriptor.</summary>
        Connected = 0x0001,

        /// <summary>A connect could not complete at once and is being retried in the background.</summary>
        ConnectDelayed = 0x0002,

        /// <summary>A connect is retried; <see cref="MonitorEvent.Value"/> is the reconnect interval in milliseconds.</summary>
        ConnectRetried = 0x0004,

        /// <summary>The socket is listening on an endpoint; <see cref="MonitorEvent.Value"/> is the file descriptor.</summary>
        Listening = 0x0008,

        /// <summary>A bind failed; <see cref="MonitorEvent.Value"/> is the errno (see <see cref="MonitorEvent.Error"/>).</summary>
        BindFailed = 0x0010,

        /// <summary>A connection was accepted; <see cref="MonitorEvent.Value"/> is the file descriptor.</summary>
        Accepted = 0x0020,

        /// <summary>Accepting a connection failed; <see cref="MonitorEvent.Value"/> is the errno.</summary>
        AcceptFailed = 0x0040,

        /// <summary>A connection's descriptor was closed; <see cref="MonitorEvent.Value"/> is the (now closed) descriptor.</summary>
        Closed = 0x0080,

        /// <summary>Closing a descriptor failed (IPC only); <see cref="MonitorEvent.Value"/> is the errno.</summary>
        CloseFailed = 0x0100,

        /// <summary>A session was broken (the peer went away); <see cref="MonitorEvent.Value"/> is the descriptor.</summary>
        Disconnected = 0x0200,

        /// <summary>Monitoring of the socket stopped.</summary>
        MonitorStopped = 0x0400,

        /// <summary>
        /// The ZMTP handshake failed for a reason without detail, such as a transport error; the value is the errno. libzmq 4.2.3
        /// to 4.2.5 built without the draft API send it only when a ZAP handler is required but missing, not for transport
        /// errors; libzmq 4.2.1 and 4.2.2 built with the draft API send this number for every handshake failure (their
        /// <c>ZMQ_EVENT_HANDSHAKE_FAILED</c>, the value 0 or the connection's descriptor); earlier versions refuse it (see
        /// <see cref="SocketMonitorExtensions.Monitor(Socket, MonitorEvents, MonitorProtocol)"/>).
        /// </summary>
        HandshakeFailedNoDetail = 0x0800,

        /// <summary>
        /// The ZMTP handshake (including the security mechanism) succeeded. Sent by libzmq 4.3.0 and later, and by 4.2.1 to 4.2.5
        /// built with the draft API: elsewhere a monitor asked for it is refused with <see cref="NotSupportedException"/> (see
        /// <see cref="SocketMonitorExtensions.Monitor(Socket, MonitorEvents, MonitorProtocol)"/>), since it would never come.
        /// </summary>
        HandshakeSucceeded = 0x1000,

        /// <summary>The handshake failed on a protocol error; see <see cref="MonitorEvent.ProtocolError"/>. Sent since libzmq
        /// 4.2.3 (every build).</summary>
        HandshakeFailedProtocol = 0x2000,

        /// <summary>The handshake failed because the ZAP handler refused the peer; see <see cref="MonitorEvent.ZapStatusCode"/>.
        /// Sent since libzmq 4.2.3 (every build).</summary>
        HandshakeFailedAuth = 0x4000,

        /// <summary>The three handshake failures.</summary>
        HandshakeFailed = HandshakeFailedNoDetail | HandshakeFailedProtocol | HandshakeFailedAuth,

        /// <summary>Every event libzmq 4.3 defines (<c>ZMQ_EVENT_ALL</c>, 0xFFFF): on an older libzmq, every event it sends.</summary>
        All = 0xFFFF,

        /// <summary>
        /// The queue lengths of one connection, reported by the v2 protocol only (draft API) after
        /// <see cref="SocketMonitor.RequestPipesStats"/>: <see cref="MonitorEvent.Values"/> holds the messages queued outbound
        /// and inbound (ZMQ_EVENT_PIPES_STATS). Only with <see cref="MonitorProtocol.V2"/>.
        /// </summary>
        PipesStats = 0x10000,

        /// <summary>Every event of the v2 protocol (<c>ZMQ_EVENT_ALL_V2</c>): <see cref="All"/> and <see cref="PipesStats"/>.</summary>
        AllV2 = All | PipesStats,
    }
}
