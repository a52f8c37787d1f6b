namespace NetZeroMQ
{
    /// <summary>
    /// The counters of a <see cref="SteerableProxy"/> (<see cref="SteerableProxy.GetStatistics()"/>): messages and bytes in
    /// and out of the frontend and the backend since the proxy started. A multipart message counts once, when its last frame
    /// was received (or sent), with the bytes of all its frames; a frame's bytes count as sent once the destination took it.
    /// Copies to the capture socket are not counted, nor is anything the sockets move outside the proxy. The eight counters
    /// are those of libzmq's <c>STATISTICS</c> reply, in its order, with the meaning its documentation gives them (messages,
    /// not frames, on every libzmq version).
    /// See <see href="http://api.zeromq.org/4-3:zmq-proxy-steerable">zmq_proxy_steerable</see>.
    /// </summary>
    public sealed record ProxyStatistics
    {
        /// <summary>Creates the statistics from the eight counters, in the order of libzmq's <c>STATISTICS</c> reply.</summary>
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

        /// <summary>Messages sent on the frontend (coming back from the backend; 0 when the frontend is the backend).</summary>
        public ulong FrontendMessagesSent { get; }

        /// <summary>Bytes sent on the frontend.</summary>
        public ulong FrontendBytesSent { get; }

        /// <summary>Messages received on the backend (0 when the frontend is the backend: the proxy then only receives on it
        /// as the frontend).</summary>
        public ulong BackendMessagesReceived { get; }

        /// <summary>Bytes received on the backend.</summary>
        public ulong BackendBytesReceived { get; }

        /// <summary>Messages sent on the backend (forwarded from the frontend).</summary>
        public ulong BackendMessagesSent { get; }

        /// <summary>Bytes sent on the backend.</summary>
        public ulong BackendBytesSent { get; }
    }
}
