namespace NetZeroMQ
{
    /// <summary>
    /// The format libzmq reports monitor events in.
    /// See <see href="http://api.zeromq.org/master:zmq-socket-monitor-versioned">zmq_socket_monitor_versioned (draft)</see>.
    /// </summary>
    public enum MonitorProtocol
    {
        /// <summary>
        /// libzmq's stable protocol (<c>zmq_socket_monitor</c>), the default: a 16-bit event, one 32-bit value and one endpoint.
        /// </summary>
        V1 = 1,

        /// <summary>
        /// The draft protocol (<c>zmq_socket_monitor_versioned</c>, version 2; only libzmq builds with the draft API): a 64-bit
        /// event, any number of 64-bit values, and both the local and the remote endpoint of the connection
        /// (<see cref="MonitorEvent.LocalEndpoint"/>, <see cref="MonitorEvent.RemoteEndpoint"/>); it adds
        /// <see cref="MonitorEvents.PipesStats"/>.
        /// </summary>
        V2 = 2,
    }
}
