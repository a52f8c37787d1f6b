using System;
using Microsoft.Extensions.Logging;

namespace NetZeroMQ.Hosting
{
    /// <summary>
    /// Every log record of the package, through the <c>LoggerMessage</c> source generator (no boxing, no formatting unless the
    /// level is enabled). Event ids are a contract: add records, never renumber one. 1-7 are the <c>NetZeroMQ</c> event
    /// source's events under the same ids (category <c>NetZeroMQ</c>); 100 and up are this package's own (category
    /// <c>NetZeroMQ.Hosting</c>). docs/hosting.md lists them.
    /// </summary>
    internal static partial class Log
    {
        // The NetZeroMQ event source's rare events (EventSourceLogger forwards them).
        [LoggerMessage(1, LogLevel.Debug, "Socket {SocketId} ({SocketType}) opened", EventName = "SocketOpened")]
        internal static partial void SocketOpened(ILogger logger, long socketId, string socketType);

        [LoggerMessage(2, LogLevel.Debug, "Socket {SocketId} ({SocketType}) closed", EventName = "SocketClosed")]
        internal static partial void SocketClosed(ILogger logger, long socketId, string socketType);

        [LoggerMessage(3, LogLevel.Information, "Socket {SocketId} ({SocketType}) bound to {Endpoint}", EventName = "SocketBound")]
        internal static partial void SocketBound(ILogger logger, long socketId, string socketType, string endpoint);

        /// <summary>Information, or Debug for the PAIR of a socket monitor (its own inproc endpoint, no news to an operator).</summary>
        [LoggerMessage(EventId = 4, Message = "Socket {SocketId} ({SocketType}) connecting to {Endpoint}", EventName = "SocketConnected")]
        internal static partial void SocketConnected(ILogger logger, LogLevel level, long socketId, string socketType, string endpoint);

        [LoggerMessage(5, LogLevel.Warning, "Handshake with {Endpoint} failed: {Reason}", EventName = "HandshakeFailed")]
        internal static partial void HandshakeFailed(ILogger logger, string endpoint, string reason);

        [LoggerMessage(6, LogLevel.Warning, "ZAP denied {Mechanism} from {Address} (domain '{Domain}'): {StatusCode}", EventName = "AuthenticationDenied")]
        internal static partial void AuthenticationDenied(ILogger logger, string mechanism, string address, string domain, int statusCode);

        [LoggerMessage(7, LogLevel.Error, "A zero-copy release callback threw {ExceptionType}: {Message}", EventName = "ZeroCopyReleaseFailed")]
        internal static partial void ZeroCopyReleaseFailed(ILogger logger, string exceptionType, string message);

        // The package's own records.
        [LoggerMessage(100, LogLevel.Error, "The handler of socket '{SocketName}' threw; the worker goes on with the next message", EventName = "HandlerFailed")]
        internal static partial void HandlerFailed(ILogger logger, string socketName, Exception exception);

        [LoggerMessage(101, LogLevel.Critical, "The handler of socket '{SocketName}' threw; stopping the host (HandlerErrors = StopHost)", EventName = "HandlerFailedStoppingHost")]
        internal static partial void HandlerFailedStoppingHost(ILogger logger, string socketName, Exception exception);

        [LoggerMessage(102, LogLevel.Warning, "A message on socket '{SocketName}' carried a malformed trace frame ({Reason}); it was removed and the message handled without a parent span", EventName = "TraceFrameMalformed")]
        internal static partial void TraceFrameMalformed(ILogger logger, string socketName, string reason);

        [LoggerMessage(103, LogLevel.Information, "Worker of socket '{SocketName}' ({SocketType}) receiving on {Endpoint}", EventName = "WorkerStarted")]
        internal static partial void WorkerStarted(ILogger logger, string socketName, SocketType socketType, string endpoint);

        [LoggerMessage(104, LogLevel.Information, "Worker of socket '{SocketName}' stopped after {Messages} messages", EventName = "WorkerStopped")]
        internal static partial void WorkerStopped(ILogger logger, string socketName, long messages);

        [LoggerMessage(105, LogLevel.Error, "The receive loop of socket '{SocketName}' stopped on an error; the health check reports Unhealthy", EventName = "ReceiveLoopFailed")]
        internal static partial void ReceiveLoopFailed(ILogger logger, string socketName, Exception exception);

        [LoggerMessage(106, LogLevel.Information, "Socket '{SocketName}' has {Peers} peers", EventName = "PeersChanged")]
        internal static partial void PeersChanged(ILogger logger, string socketName, int peers);

        [LoggerMessage(107, LogLevel.Warning, "The NetZeroMQ context did not terminate within the host's shutdown timeout; it goes on terminating in the background", EventName = "ContextTerminationTimedOut")]
        internal static partial void ContextTerminationTimedOut(ILogger logger);

        [LoggerMessage(108, LogLevel.Debug, "NetZeroMQ context shut down: pending and future receives end", EventName = "ContextShutDown")]
        internal static partial void ContextShutDown(ILogger logger);

        [LoggerMessage(109, LogLevel.Warning, "The peer monitor of socket '{SocketName}' stopped: {Reason}; its peer count no longer changes", EventName = "PeerMonitorFailed")]
        internal static partial void PeerMonitorFailed(ILogger logger, string socketName, string reason);
    }
}
