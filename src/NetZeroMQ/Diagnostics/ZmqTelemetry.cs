namespace NetZeroMQ
{
    /// <summary>
    /// The names under which NetZeroMQ reports what it does to the platform's tools: a
    /// <see cref="System.Diagnostics.Metrics.Meter"/> for counts (read them with <c>dotnet-counters monitor --counters
    /// NetZeroMQ</c>, a <see cref="System.Diagnostics.Metrics.MeterListener"/> or OpenTelemetry's <c>AddMeter("NetZeroMQ")</c>)
    /// and an <see cref="System.Diagnostics.Tracing.EventSource"/> for rare events (<c>dotnet-trace collect --providers
    /// NetZeroMQ</c>, or an <see cref="System.Diagnostics.Tracing.EventListener"/>).
    /// </summary>
    /// <remarks>
    /// <para><b>Instruments</b> (all observable: read when a tool collects, never updated per message). Traffic and socket
    /// counts carry the attribute <c>netzeromq.socket.type</c> (libzmq's lower-case name: <c>push</c>, <c>router</c>, ...).</para>
    /// <list type="table">
    /// <item><term><c>netzeromq.contexts</c> ({context})</term><description>contexts not yet terminated.</description></item>
    /// <item><term><c>netzeromq.sockets</c> ({socket})</term><description>sockets open now.</description></item>
    /// <item><term><c>netzeromq.messages.sent</c>, <c>netzeromq.messages.received</c> ({message})</term><description>frames
    /// (message parts) sent and received, counted by the socket's own calls, sync and async (a <c>Proxy</c>'s forwarding
    /// inside libzmq is not seen).</description></item>
    /// <item><term><c>netzeromq.bytes.sent</c>, <c>netzeromq.bytes.received</c> (By)</term><description>the bytes of those
    /// frames (a received frame's full size, also when a buffer took only part of it).</description></item>
    /// <item><term><c>netzeromq.would_block</c> ({attempt})</term><description>sends and receives that found the socket not
    /// ready: a <c>Try</c> call that returned false, the start of a wait, an async attempt that has to wait.</description></item>
    /// <item><term><c>netzeromq.errors</c> ({error})</term><description><see cref="ZmqException"/>s raised for failed libzmq
    /// calls, by <c>error.type</c> (the <see cref="ZmqError"/> name).</description></item>
    /// <item><term><c>netzeromq.zerocopy.buffers</c> ({buffer})</term><description>zero-copy buffers libzmq still holds
    /// (<see cref="ZeroCopyDiagnostics.OutstandingBuffers"/>).</description></item>
    /// <item><term><c>netzeromq.async.pending</c> ({operation})</term><description>async sends and receives waiting for their
    /// socket.</description></item>
    /// <item><term><c>netzeromq.zap.decisions</c> ({decision})</term><description>answers of <c>ZapAuthenticator</c>s, by
    /// <c>netzeromq.zap.mechanism</c> (<c>null</c>, <c>plain</c>, <c>curve</c>, <c>gssapi</c>, <c>unknown</c>) and
    /// <c>netzeromq.zap.decision</c> (<c>allowed</c>, <c>denied</c>).</description></item>
    /// </list>
    /// <para>The counts of a socket stay in the totals after it is closed. <b>Events</b> of the event source: socket opened,
    /// closed, bound (with the endpoint a wildcard chose) and connected, each with a process-unique socket number and the
    /// socket type; handshake failures reported to a <c>SocketMonitor</c>; ZAP denials; zero-copy release callbacks that
    /// threw.</para>
    /// </remarks>
    public static class ZmqTelemetry
    {
        /// <summary>The name of NetZeroMQ's <see cref="System.Diagnostics.Metrics.Meter"/>: <c>NetZeroMQ</c>.</summary>
        public const string MeterName = "NetZeroMQ";

        /// <summary>The name of NetZeroMQ's <see cref="System.Diagnostics.Tracing.EventSource"/>: <c>NetZeroMQ</c>.</summary>
        public const string EventSourceName = NetZeroMQEventSource.SourceName;
    }
}
