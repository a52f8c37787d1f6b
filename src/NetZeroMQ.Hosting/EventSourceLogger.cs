using System;
using System.Collections.ObjectModel;
using System.Diagnostics.Tracing;
using System.Threading;
using Microsoft.Extensions.Logging;

namespace NetZeroMQ.Hosting
{
    /// <summary>
    /// Forwards the <c>NetZeroMQ</c> event source's rare events (sockets opened, bound with the port a wildcard chose,
    /// connected, closed; handshake failures; ZAP denials; zero-copy release failures) to <see cref="ILogger"/> under the
    /// category <c>NetZeroMQ</c>, with the event source's ids as event ids.
    /// </summary>
    /// <remarks>
    /// Why an <see cref="EventListener"/> rather than a socket monitor: the event source sees every socket of the process
    /// (also those an application makes itself with <c>new Socket(context, type)</c>), the port a wildcard bind chose, and
    /// what no monitor reports (ZAP denials, zero-copy release failures); a monitor would cost a PAIR socket and a thread per
    /// socket for the same records. Zero cost when disabled: the source is enabled only at the most detailed level the logger
    /// has enabled when the host starts, and not at all when the category is off, so with logging off every event stays one
    /// <c>IsEnabled()</c> check in the library, which writes nothing per message in any case. Events arrive on the thread
    /// that wrote them (a bind logs on the binding thread).
    /// </remarks>
    internal sealed class EventSourceLogger : EventListener
    {
        /// <summary>Where NetZeroMQ's socket monitors publish (their PAIR connects there).</summary>
        private const string MonitorEndpointPrefix = "inproc://netzeromq-monitor-";

        private readonly ILogger _logger;
        private readonly EventLevel? _level;
        private EventSource? _source;
        private int _ready;

        internal EventSourceLogger(ILogger logger)
        {
            // OnEventSourceCreated may run inside the base constructor, before this body: it only records the source
            // then, and the events are enabled below once the fields are set.
            _logger = logger;
            _level = LevelFor(logger);
            Volatile.Write(ref _ready, 1);
            if (Volatile.Read(ref _source) is { } source)
            {
                Enable(source);
            }
        }

        /// <summary>The event level that matches the most detailed log level enabled, or null when none is.</summary>
        private static EventLevel? LevelFor(ILogger logger) =>
            logger.IsEnabled(LogLevel.Debug) ? EventLevel.Informational
            : logger.IsEnabled(LogLevel.Information) ? EventLevel.Informational
            : logger.IsEnabled(LogLevel.Warning) ? EventLevel.Warning
            : logger.IsEnabled(LogLevel.Error) ? EventLevel.Error
            : null;

        protected override void OnEventSourceCreated(EventSource eventSource)
        {
            if (eventSource.Name != ZmqTelemetry.EventSourceName)
            {
                return;
            }

            Volatile.Write(ref _source, eventSource);
            if (Volatile.Read(ref _ready) == 1)
            {
                Enable(eventSource);
            }
        }

        private void Enable(EventSource source)
        {
            if (_level is { } level)
            {
                EnableEvents(source, level, EventKeywords.All);
            }
        }

        protected override void OnEventWritten(EventWrittenEventArgs e)
        {
            ReadOnlyCollection<object?>? p = e.Payload;
            if (p is null || Volatile.Read(ref _ready) == 0)
            {
                return;
            }

            switch (e.EventId)
            {
                case 1 when p.Count >= 2:
                    Log.SocketOpened(_logger, Convert.ToInt64(p[0]), Text(p[1]));
                    break;
                case 2 when p.Count >= 2:
                    Log.SocketClosed(_logger, Convert.ToInt64(p[0]), Text(p[1]));
                    break;
                case 3 when p.Count >= 3:
                    Log.SocketBound(_logger, Convert.ToInt64(p[0]), Text(p[1]), Text(p[2]));
                    break;
                case 4 when p.Count >= 3:
                    string endpoint = Text(p[2]);
                    LogLevel level = endpoint.StartsWith(MonitorEndpointPrefix, StringComparison.Ordinal) ? LogLevel.Debug : LogLevel.Information;
                    Log.SocketConnected(_logger, level, Convert.ToInt64(p[0]), Text(p[1]), endpoint);
                    break;
                case 5 when p.Count >= 2:
                    Log.HandshakeFailed(_logger, Text(p[0]), Text(p[1]));
                    break;
                case 6 when p.Count >= 4:
                    Log.AuthenticationDenied(_logger, Text(p[0]), Text(p[1]), Text(p[2]), Convert.ToInt32(p[3]));
                    break;
                case 7 when p.Count >= 2:
                    Log.ZeroCopyReleaseFailed(_logger, Text(p[0]), Text(p[1]));
                    break;
            }
        }

        private static string Text(object? value) => value as string ?? string.Empty;
    }
}
