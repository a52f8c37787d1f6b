using System;

namespace NetZeroMQ
{
    /// <summary>
    /// One event of a monitored socket, as libzmq's v1 monitor protocol reports it: the kind, one 32-bit value and the endpoint.
    /// See <see href="http://api.zeromq.org/4-3:zmq-socket-monitor">zmq_socket_monitor</see>.
    /// </summary>
    /// <remarks>Immutable. A file descriptor in <see cref="Value"/> may already be closed when the event is read: treat it as
    /// an identifier, never use it.</remarks>
    public sealed class MonitorEvent
    {
        /// <summary>Creates an event (for tests and for code that replays events).</summary>
        /// <param name="kind">The kind.</param>
        /// <param name="value">The raw value.</param>
        /// <param name="endpoint">The endpoint.</param>
        /// <exception cref="ArgumentNullException"><paramref name="endpoint"/> is null.</exception>
        public MonitorEvent(MonitorEventKind kind, uint value, string endpoint)
        {
            Kind = kind;
            Value = value;
            Endpoint = endpoint ?? throw new ArgumentNullException(nameof(endpoint));
        }

        /// <summary>What happened.</summary>
        public MonitorEventKind Kind { get; }

        /// <summary>The raw event value: a descriptor, an errno, an interval, a protocol error or a ZAP status, depending on <see cref="Kind"/>.</summary>
        public uint Value { get; }

        /// <summary>The endpoint the event concerns (for example <c>tcp://127.0.0.1:5555</c>); empty for <see cref="MonitorEventKind.MonitorStopped"/>.</summary>
        public string Endpoint { get; }

        /// <summary>For <see cref="MonitorEventKind.HandshakeFailedProtocol"/>, the protocol error; otherwise null.</summary>
        public ProtocolError? ProtocolError =>
            Kind == MonitorEventKind.HandshakeFailedProtocol ? (ProtocolError)Value : null;

        /// <summary>For <see cref="MonitorEventKind.HandshakeFailedAuth"/>, the ZAP status code (300, 400 or 500); otherwise null.</summary>
        public int? ZapStatusCode => Kind == MonitorEventKind.HandshakeFailedAuth ? (int)Value : null;

        /// <summary>For the failure events that carry an errno (bind, accept, close, handshake without detail), the error; otherwise null.</summary>
        public ZmqError? Error =>
            Kind == MonitorEventKind.BindFailed || Kind == MonitorEventKind.AcceptFailed || Kind == MonitorEventKind.CloseFailed
            || Kind == MonitorEventKind.HandshakeFailedNoDetail
                ? ErrorMap.ToPortable((int)Value)
                : null;

        /// <summary>For <see cref="MonitorEventKind.ConnectRetried"/>, the reconnect interval; otherwise null.</summary>
        public TimeSpan? ReconnectInterval =>
            Kind == MonitorEventKind.ConnectRetried ? TimeSpan.FromMilliseconds(Value) : null;

        /// <inheritdoc/>
        public override string ToString()
        {
            string detail = ProtocolError?.ToString() ?? ZapStatusCode?.ToString(System.Globalization.CultureInfo.InvariantCulture)
                ?? Error?.ToString() ?? Value.ToString(System.Globalization.CultureInfo.InvariantCulture);
            return Kind + " " + Endpoint + " (" + detail + ")";
        }
    }
}
