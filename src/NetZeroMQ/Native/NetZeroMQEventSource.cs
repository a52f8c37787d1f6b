using System;
using System.Diagnostics.CodeAnalysis;
using System.Diagnostics.Tracing;

namespace NetZeroMQ
{
    /// <summary>
    /// The EventSource <c>NetZeroMQ</c> (visible in <c>dotnet-trace</c>, PerfView and any <see cref="EventListener"/>):
    /// rare events only — sockets opened and closed, bound and connected, handshakes that failed (seen by a socket monitor),
    /// ZAP denials, zero-copy release callbacks that threw. Nothing is written per message. Every caller checks
    /// <see cref="EventSource.IsEnabled()"/> first, so with no listener an event costs one field read and builds no payload.
    /// </summary>
    /// <remarks>
    /// Event ids and payload names are the contract a trace reader depends on: add events, never renumber or rename one.
    /// A socket is named by a number unique in the process (<c>socketId</c>), which ties its events together.
    /// </remarks>
    [EventSource(Name = SourceName)]
    internal sealed unsafe class NetZeroMQEventSource : EventSource
    {
        /// <summary>The source's name, as tools are told to enable it.</summary>
        internal const string SourceName = "NetZeroMQ";

        /// <summary>WriteEventCore warns because an event's payload could be any object graph; these are strings and numbers.</summary>
        private const string PrimitivesOnly = "The payload is strings and integers only, which EventSource writes without reflection.";

        internal static readonly NetZeroMQEventSource Log = new NetZeroMQEventSource();

        private NetZeroMQEventSource()
        {
        }

        /// <summary>Event groups, to enable one part only.</summary>
        public static class Keywords
        {
            /// <summary>Sockets opened, closed, bound, connected.</summary>
            public const EventKeywords Sockets = (EventKeywords)1;

            /// <summary>Handshake failures and ZAP denials.</summary>
            public const EventKeywords Security = (EventKeywords)2;

            /// <summary>Zero-copy release failures.</summary>
            public const EventKeywords ZeroCopy = (EventKeywords)4;
        }

        [Event(1, Level = EventLevel.Informational, Keywords = Keywords.Sockets, Message = "Socket {0} ({1}) opened")]
        public void SocketOpened(long socketId, string socketType) => WriteEvent(1, socketId, socketType);

        [Event(2, Level = EventLevel.Informational, Keywords = Keywords.Sockets, Message = "Socket {0} ({1}) closed")]
        public void SocketClosed(long socketId, string socketType) => WriteEvent(2, socketId, socketType);

        [Event(3, Level = EventLevel.Informational, Keywords = Keywords.Sockets, Message = "Socket {0} ({1}) bound to {2}")]
        public void SocketBound(long socketId, string socketType, string endpoint) => Write(3, socketId, socketType, endpoint);

        [Event(4, Level = EventLevel.Informational, Keywords = Keywords.Sockets, Message = "Socket {0} ({1}) connecting to {2}")]
        public void SocketConnected(long socketId, string socketType, string endpoint) => Write(4, socketId, socketType, endpoint);

        [Event(5, Level = EventLevel.Warning, Keywords = Keywords.Security, Message = "Handshake with {0} failed: {1}")]
        public void HandshakeFailed(string endpoint, string reason) => WriteEvent(5, endpoint, reason);

        [UnconditionalSuppressMessage("ReflectionAnalysis", "IL2026", Justification = PrimitivesOnly)]
        [Event(6, Level = EventLevel.Warning, Keywords = Keywords.Security, Message = "ZAP denied {0} from {1} (domain '{2}'): {3}")]
        public void AuthenticationDenied(string mechanism, string address, string domain, int statusCode)
        {
            fixed (char* m = mechanism)
            fixed (char* a = address)
            fixed (char* d = domain)
            {
                EventData* data = stackalloc EventData[4];
                data[0] = Text(m, mechanism);
                data[1] = Text(a, address);
                data[2] = Text(d, domain);
                data[3] = new EventData { DataPointer = (IntPtr)(&statusCode), Size = sizeof(int) };
                WriteEventCore(6, 4, data);
            }
        }

        [Event(7, Level = EventLevel.Error, Keywords = Keywords.ZeroCopy, Message = "A zero-copy release callback threw {0}: {1}")]
        public void ZeroCopyReleaseFailed(string exceptionType, string message) => WriteEvent(7, exceptionType, message);

        /// <summary>An event of a socket number and two strings (WriteEvent has no such overload).</summary>
        [NonEvent]
        [UnconditionalSuppressMessage("ReflectionAnalysis", "IL2026", Justification = PrimitivesOnly)]
        private void Write(int eventId, long socketId, string first, string second)
        {
            fixed (char* f = first)
            fixed (char* s = second)
            {
                EventData* data = stackalloc EventData[3];
                data[0] = new EventData { DataPointer = (IntPtr)(&socketId), Size = sizeof(long) };
                data[1] = Text(f, first);
                data[2] = Text(s, second);
                WriteEventCore(eventId, 3, data);
            }
        }

        /// <summary>A string payload field: its UTF-16 characters and the terminating NUL, as EventSource writes strings.</summary>
        private static EventData Text(char* chars, string text) =>
            new EventData { DataPointer = (IntPtr)chars, Size = (text.Length + 1) * sizeof(char) };
    }
}
