using System;

namespace NetZeroMQ
{
    /// <summary>
    /// When a ROUTER tells the application about its peers (<see cref="SocketOptions.RouterNotify"/>, draft API only): it then
    /// delivers an empty message with the peer's routing id as the first frame.
    /// See <see href="http://api.zeromq.org/master:zmq-setsockopt">zmq_setsockopt (ZMQ_ROUTER_NOTIFY)</see>.
    /// </summary>
    [Flags]
    public enum RouterNotifications
    {
        /// <summary>No notifications (the default).</summary>
        None = 0,

        /// <summary>When a peer connects (ZMQ_NOTIFY_CONNECT).</summary>
        Connect = 1,

        /// <summary>When a peer disconnects (ZMQ_NOTIFY_DISCONNECT).</summary>
        Disconnect = 2,
    }
}
