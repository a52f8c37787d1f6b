using System;

namespace NetZeroMQ
{
    /// <summary>
    /// The set of events a <see cref="SocketMonitor"/> reports (the <c>events</c> mask of <c>zmq_socket_monitor</c>); each flag
    /// has the value of the matching <see cref="MonitorEventKind"/>.
    /// See <see href="http://api.zeromq.org/4-3:zmq-socket-monitor">zmq_socket_monitor</see>.
    /// </summary>
    [Flags]
    public enum MonitorEvents
    {
        /// <summary>No events.</summary>
        None = 0,

        /// <summary><see cref="MonitorEventKind.Connected"/>.</summary>
        Connected = MonitorEventKind.Connected,

        /// <summary><see cref="MonitorEventKind.ConnectDelayed"/>.</summary>
        ConnectDelayed = MonitorEventKind.ConnectDelayed,

        /// <summary><see cref="MonitorEventKind.ConnectRetried"/>.</summary>
        ConnectRetried = MonitorEventKind.ConnectRetried,

        /// <summary><see cref="MonitorEventKind.Listening"/>.</summary>
        Listening = MonitorEventKind.Listening,

        /// <summary><see cref="MonitorEventKind.BindFailed"/>.</summary>
        BindFailed = MonitorEventKind.BindFailed,

        /// <summary><see cref="MonitorEventKind.Accepted"/>.</summary>
        Accepted = MonitorEventKind.Accepted,

        /// <summary><see cref="MonitorEventKind.AcceptFailed"/>.</summary>
        AcceptFailed = MonitorEventKind.AcceptFailed,

        /// <summary><see cref="MonitorEventKind.Closed"/>.</summary>
        Closed = MonitorEventKind.Closed,

        /// <summary><see cref="MonitorEventKind.CloseFailed"/>.</summary>
        CloseFailed = MonitorEventKind.CloseFailed,

        /// <summary><see cref="MonitorEventKind.Disconnected"/>.</summary>
        Disconnected = MonitorEventKind.Disconnected,

        /// <summary><see cref="MonitorEventKind.MonitorStopped"/>.</summary>
        MonitorStopped = MonitorEventKind.MonitorStopped,

        /// <summary><see cref="MonitorEventKind.HandshakeFailedNoDetail"/>.</summary>
        HandshakeFailedNoDetail = MonitorEventKind.HandshakeFailedNoDetail,

        /// <summary><see cref="MonitorEventKind.HandshakeSucceeded"/>.</summary>
        HandshakeSucceeded = MonitorEventKind.HandshakeSucceeded,

        /// <summary><see cref="MonitorEventKind.HandshakeFailedProtocol"/>.</summary>
        HandshakeFailedProtocol = MonitorEventKind.HandshakeFailedProtocol,

        /// <summary><see cref="MonitorEventKind.HandshakeFailedAuth"/>.</summary>
        HandshakeFailedAuth = MonitorEventKind.HandshakeFailedAuth,

        /// <summary>The three handshake failures.</summary>
        HandshakeFailed = HandshakeFailedNoDetail | HandshakeFailedProtocol | HandshakeFailedAuth,

        /// <summary>Every event libzmq 4.3 defines (<c>ZMQ_EVENT_ALL</c>, 0xFFFF).</summary>
        All = 0xFFFF,

        /// <summary><see cref="MonitorEventKind.PipesStats"/>: only with <see cref="MonitorProtocol.V2"/>.</summary>
        PipesStats = MonitorEventKind.PipesStats,

        /// <summary>Every event of the v2 protocol (<c>ZMQ_EVENT_ALL_V2</c>): <see cref="All"/> and <see cref="PipesStats"/>.</summary>
        AllV2 = All | PipesStats,
    }
}
