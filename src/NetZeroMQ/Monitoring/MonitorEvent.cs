using System;
using System.Collections.Generic;

namespace NetZeroMQ
{
    /// <summary>
    /// One event of a monitored socket: the kind, its value and the endpoint; with the v2 protocol (<see cref="MonitorProtocol.V2"/>)
    /// also every 64-bit value and both endpoints of the connection.
    /// See <see href="http://api.zeromq.org/4-3:zmq-socket-monitor">zmq_socket_monitor</see>.
    /// </summary>
    /// <remarks>Immutable. A file descriptor in <see cref="Value"/> may already be closed when the event is read: treat it as
    /// an identifier, never use it.</remarks>
    public sealed class MonitorEvent
    {
        /// <summary>
        /// Creates an event of the v1 protocol. A monitor makes its events itself; this constructor is public for code that
        /// records events and replays them later (a log, a recorded session) and for code that hands events to a handler of
        /// its own, such as an application's tests of how it reacts to a disconnect.
        /// </summary>
        /// <param name="kind">The event: one flag of <see cref="MonitorEvents"/>.</param>
        /// <param name="value">The raw value.</param>
        /// <param name="endpoint">The endpoint.</param>
        /// <exception cref="ArgumentNullException"><paramref name="endpoint"/> is null.</exception>
        public MonitorEvent(MonitorEvents kind, uint value, string endpoint)
        {
            Kind = kind;
            Value = value;
            Endpoint = endpoint ?? throw new ArgumentNullException(nameof(endpoint));
            Protocol = MonitorProtocol.V1;
            Values = new ulong[] { value };
        }

        /// <summary>Creates an event of the v2 protocol, for the same uses as the v1 constructor
        /// (<see cref="MonitorEvent(MonitorEvents, uint, string)"/>): replaying recorded events, or handing one to an event
        /// handler.</summary>
        /// <param name="kind">The event: one flag of <see cref="MonitorEvents"/>.</param>
        /// <param name="values">The values (copied).</param>
        /// <param name="localEndpoint">The local endpoint, empty when none.</param>
        /// <param name="remoteEndpoint">The remote endpoint, empty when none.</param>
        /// <exception cref="ArgumentNullException">An argument is null.</exception>
        public MonitorEvent(MonitorEvents kind, IReadOnlyList<ulong> values, string localEndpoint, string remoteEndpoint)
        {
            if (values is null)
            {
                throw new ArgumentNullException(nameof(values));
            }

            Kind = kind;
            Protocol = MonitorProtocol.V2;
            Values = new List<ulong>(values).ToArray();
            LocalEndpoint = localEndpoint ?? throw new ArgumentNullException(nameof(localEndpoint));
            RemoteEndpoint = remoteEndpoint ?? throw new ArgumentNullException(nameof(remoteEndpoint));

            // The v1 members keep their meaning for the events both protocols have: their values fit 32 bits.
            Value = Values.Count > 0 ? unchecked((uint)Values[0]) : 0;
            Endpoint = remoteEndpoint.Length != 0 ? remoteEndpoint : localEndpoint;
        }

        /// <summary>The protocol the event came in.</summary>
        public MonitorProtocol Protocol { get; }

        /// <summary>Every value of the event: with v1 the one <see cref="Value"/>; with v2 all of them, 64-bit (for
        /// <see cref="MonitorEvents.PipesStats"/>, the messages queued outbound, then inbound).</summary>
        public IReadOnlyList<ulong> Values { get; }

        /// <summary>With v2, the local endpoint of the connection or listener (for a tcp connection, the local address and
        /// port); empty when the event has none. Null with v1, which does not report it.</summary>
        public string? LocalEndpoint { get; }

        /// <summary>With v2, the remote endpoint of the connection (for a tcp connection, the peer's address and port); empty
        /// when the event has none (a listener's events). Null with v1, which does not report it.</summary>
        public string? RemoteEndpoint { get; }

        /// <summary>What happened: one flag of <see cref="MonitorEvents"/>.</summary>
        public MonitorEvents Kind { get; }

        /// <summary>The raw event value: a descriptor, an errno, an interval, a protocol error or a ZAP status, depending on
        /// <see cref="Kind"/>. With v2, the first of <see cref="Values"/> cut to 32 bits (0 when there is none).</summary>
        public uint Value { get; }

        /// <summary>The endpoint the event concerns (for example <c>tcp://127.0.0.1:5555</c>); empty for
        /// <see cref="MonitorEvents.MonitorStopped"/>. With v2, <see cref="RemoteEndpoint"/> when there is one, else
        /// <see cref="LocalEndpoint"/> (v1 reports the bound endpoint for the connections a listener accepted).</summary>
        public string Endpoint { get; }

        /// <summary>For <see cref="MonitorEvents.HandshakeFailedProtocol"/>, the protocol error; otherwise null.</summary>
        public ProtocolError? ProtocolError =>
            Kind == MonitorEvents.HandshakeFailedProtocol ? (ProtocolError)Value : null;

        /// <summary>For <see cref="MonitorEvents.HandshakeFailedAuth"/>, the ZAP status code (300, 400 or 500); otherwise null.</summary>
        public int? ZapStatusCode => Kind == MonitorEvents.HandshakeFailedAuth ? (int)Value : null;

        /// <summary>For the failure events that carry an errno (bind, accept, close, handshake without detail), the error; otherwise null.</summary>
        public ZmqError? Error =>
            Kind == MonitorEvents.BindFailed || Kind == MonitorEvents.AcceptFailed || Kind == MonitorEvents.CloseFailed
            || Kind == MonitorEvents.HandshakeFailedNoDetail
                ? ErrorMap.ToPortable((int)Value)
                : null;

        /// <summary>For <see cref="MonitorEvents.ConnectRetried"/>, the reconnect interval; otherwise null.</summary>
        public TimeSpan? ReconnectInterval =>
            Kind == MonitorEvents.ConnectRetried ? TimeSpan.FromMilliseconds(Value) : null;

        /// <inheritdoc/>
        public override string ToString()
        {
            string detail = ProtocolError?.ToString() ?? ZapStatusCode?.ToString(System.Globalization.CultureInfo.InvariantCulture)
                ?? Error?.ToString() ?? Value.ToString(System.Globalization.CultureInfo.InvariantCulture);
            return Protocol == MonitorProtocol.V1
                ? Kind + " " + Endpoint + " (" + detail + ")"
                : Kind + " " + LocalEndpoint + " <-> " + RemoteEndpoint + " (" + string.Join(", ", Values) + ")";
        }
    }
}
