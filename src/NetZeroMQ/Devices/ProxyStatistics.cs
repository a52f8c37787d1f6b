namespace NetZeroMQ
{
    /// <summary>
    /// The counters a steerable proxy reports for its <c>STATISTICS</c> command: messages and bytes in and out of the frontend
    /// and the backend. A multipart message counts once, with the bytes of all its frames.
    /// See <see href="http://api.zeromq.org/4-3:zmq-proxy-steerable">zmq_proxy_steerable</see>.
    /// </summary>
    public sealed record ProxyStatistics
    {
        /// <summary>Creates the statistics from libzmq's eight counters, in libzmq's order.</summary>
        /// <param name="frontendMessagesReceived">Messages received on the frontend.</param>
        /// <param name="frontendBytesReceived">Bytes received on the frontend.</param>
        /// <param name="frontendMessagesSent">Messages sent on the frontend.</param>
        /// <param name="frontendBytesSent">Bytes sent on the frontend.</param>
        /// <param name="backendMessagesReceived">Messages received on the backend.</param>
        /// <param name="backendBytesReceived">Bytes received on the backend.</param>
        /// <param name="backendMessagesSent">Messages sent on the backend.</param>
        /// <param name="backendBytesSent">Bytes sent on the backend.</param>
        public ProxyStatistics(
            ulong frontendMessagesReceived,
            ulong frontendBytesReceived,
            ulong frontendMessagesSent,
            ulong frontendBytesSent,
            ulong backendMessagesReceived,
            ulong backendBytesReceived,
            ulong backendMessagesSent,
            ulong backendBytesSent)
        {
            FrontendMessagesReceived = frontendMessagesReceived;
            FrontendBytesReceived = frontendBytesReceived;
            FrontendMessagesSent = frontendMessagesSent;
            FrontendBytesSent = frontendBytesSent;
            BackendMessagesReceived = backendMessagesReceived;
            BackendBytesReceived = backendBytesReceived;
            BackendMessagesSent = backendMessagesSent;
            BackendBytesSent = backendBytesSent;
        }

        /// <summary>Messages received on the frontend.</summary>
        public ulong FrontendMessagesReceived { get; }

        /// <summary>Bytes received on the frontend.</summary>
        public ulong FrontendBytesReceived { get; }

        /// <summary>Messages sent on the frontend (replies coming back from the backend).</summary>
        public ulong FrontendMessagesSent { get; }

        /// <summary>Bytes sent on the frontend.</summary>
        public ulong FrontendBytesSent { get; }

        /// <summary>Messages received on the backend.</summary>
        public ulong BackendMessagesReceived { get; }

        /// <summary>Bytes received on the backend.</summary>
        public ulong BackendBytesReceived { get; }

        /// <summary>Messages sent on the backend (forwarded from the frontend).</summary>
        public ulong BackendMessagesSent { get; }

        /// <summary>Bytes sent on the backend.</summary>
        public ulong BackendBytesSent { get; }
    }
}
