using System;
using System.Collections.Generic;

namespace NetZeroMQ.Hosting
{
    /// <summary>
    /// A socket described in configuration (<c>NetZeroMQ:Sockets:&lt;name&gt;</c>): its type, where it binds and connects, its
    /// CURVE keys, whether it carries trace context, and what its worker does with a handler that throws.
    /// </summary>
    public sealed class SocketDefinition
    {
        /// <summary>The socket's type (<c>"Router"</c>, <c>"Dealer"</c>, <c>"Pull"</c>, ...). Required.</summary>
        public SocketType? Type { get; set; }

        /// <summary>Endpoints to bind, in order (<c>tcp://127.0.0.1:*</c> takes a free port; the log says which).</summary>
        public IList<string> Bind { get; } = new List<string>();

        /// <summary>Endpoints to connect to, in order.</summary>
        public IList<string> Connect { get; } = new List<string>();

        /// <summary>
        /// This socket's CURVE secret key, Z85 (40 characters). With <see cref="CurveServerKey"/> the socket is a CURVE client,
        /// without it a CURVE server. Keep it in a secret store (user secrets, a vault provider, an environment variable):
        /// anything that feeds <c>IConfiguration</c> works.
        /// </summary>
        public string? CurveSecretKey { get; set; }

        /// <summary>The server's CURVE public key, Z85 (40 characters), for a CURVE client; needs <see cref="CurveSecretKey"/>.</summary>
        public string? CurveServerKey { get; set; }

        /// <summary>
        /// For a CURVE server: the public keys (Z85) of the clients it admits. CURVE servers fail closed: a ZAP authenticator
        /// (one per host, the socket's name as its ZAP domain) admits only these keys, or any key with
        /// <see cref="AllowAnyCurveClient"/>; a denial is logged (event id 6).
        /// </summary>
        public IList<string> CurveClientKeys { get; } = new List<string>();

        /// <summary>For a CURVE server: admit every client that knows the server's public key (encryption without client authentication).</summary>
        public bool AllowAnyCurveClient { get; set; }

        /// <summary>
        /// Whether messages on this socket follow the trace-context convention (see <see cref="TraceContextFrame"/>): the
        /// worker removes a trailing trace frame and parents its consumer span on it. Off by default.
        /// </summary>
        public bool TraceContext { get; set; }

        /// <summary>
        /// How long the socket may be without a connected peer before the health check reports Degraded; null (the default):
        /// the socket needs no peer. Counted from the first handshake of tcp and ipc connections (inproc has no handshake events).
        /// </summary>
        public TimeSpan? RequirePeerWithin { get; set; }

        /// <summary>What a worker on this socket does when its handler throws. Default: <see cref="HandlerErrorPolicy.LogAndContinue"/>.</summary>
        public HandlerErrorPolicy HandlerErrors { get; set; } = HandlerErrorPolicy.LogAndContinue;

        /// <summary>The receive high-water mark (<see cref="Socket.ReceiveHighWatermark"/>), 0 or more; null keeps libzmq's default (1000).</summary>
        public int? ReceiveHighWatermark { get; set; }

        /// <summary>The send high-water mark (<see cref="Socket.SendHighWatermark"/>), 0 or more; null keeps libzmq's default (1000).</summary>
        public int? SendHighWatermark { get; set; }
    }

    /// <summary>What a socket worker does when its handler throws (an exception other than a cancellation while stopping).</summary>
    public enum HandlerErrorPolicy
    {
        /// <summary>Log the exception (event id 100, <c>HandlerFailed</c>) and go on with the next message. The default.</summary>
        LogAndContinue = 0,

        /// <summary>Log the exception (event id 101, <c>HandlerFailedStoppingHost</c>) and stop the host (<c>StopApplication</c>).</summary>
        StopHost = 1,
    }
}
