using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics.Tracing;
using System.Linq;
using System.Runtime.InteropServices;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Diagnostics
{
    /// <summary>
    /// The NetZeroMQ event source, read by an <see cref="EventListener"/> (dotnet-trace reads the same events over EventPipe).
    /// Other tests make sockets at the same time, so each test picks out its own sockets by an endpoint only it uses, and
    /// follows them by the socket number the events carry.
    /// </summary>
    public class NetZeroMQEventSourceTests
    {
        [Fact]
        public void SocketEvents_OpenBindConnectClose_CarryTypeEndpointAndOneSocketNumber()
        {
            using var listener = new Listener();
            string inproc = "inproc://events-" + Guid.NewGuid().ToString("N");
            string tcp;
            using (Context context = Zmq.NewContext())
            {
                using Socket push = Zmq.NewSocket(context, SocketType.Push);
                using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
                push.Bind(inproc);
                push.Bind("tcp://127.0.0.1:*");
                tcp = push.LastEndpoint;
                pull.Connect(inproc);
            }

            Event bound = listener.Single("SocketBound", e => (string)e["endpoint"] == inproc);
            long pushId = (long)bound["socketId"];
            Assert.Equal("push", bound["socketType"]);

            // A wildcard bind reports the endpoint libzmq chose.
            Event boundTcp = listener.Single("SocketBound", e => (string)e["endpoint"] == tcp);
            Assert.Equal(pushId, boundTcp["socketId"]);

            Event connected = listener.Single("SocketConnected", e => (string)e["endpoint"] == inproc);
            long pullId = (long)connected["socketId"];
            Assert.Equal("pull", connected["socketType"]);
            Assert.NotEqual(pushId, pullId);

            foreach ((long id, string type) in new[] { (pushId, "push"), (pullId, "pull") })
            {
                Event opened = listener.Single("SocketOpened", e => (long)e["socketId"] == id);
                Event closed = listener.Single("SocketClosed", e => (long)e["socketId"] == id);
                Assert.Equal(type, opened["socketType"]);
                Assert.Equal(type, closed["socketType"]);
                Assert.True(opened.Sequence < closed.Sequence, "opened before closed");
                Assert.Equal(EventLevel.Informational, opened.Level);
            }
        }

        [Fact]
        public void SecurityEvents_WrongPlainPassword_WritesTheDenialAndTheMonitoredHandshakeFailure()
        {
            using var listener = new Listener();
            using Context context = Zmq.NewContext();
            using var authenticator = new ZapAuthenticator(context);
            authenticator.AddPlainUser("user", "right");
            using Socket server = Zmq.NewSocket(context, SocketType.Rep);
            if (!LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                // libzmq 4.1: the raw options (the authenticator still decides), and no handshake events to report.
                server.SetOption(SocketOptions.PlainServer, true);
                server.SetOption(SocketOptions.ZapDomain, "global");
                using Socket rejected = Zmq.NewSocket(context, SocketType.Req);
                rejected.SetOption(SocketOptions.ReconnectInterval, System.Threading.Timeout.InfiniteTimeSpan); // asked once, denied once
                rejected.SetPlainClient("user", "wrong");
                rejected.Connect(Transports.BindAnywhere(server, "tcp"));
                Event deniedOn41 = listener.Single("AuthenticationDenied", e => (string)e["domain"] == "global" && (int)e["statusCode"] == 400);
                Assert.Equal(("PLAIN", "127.0.0.1", EventLevel.Warning), ((string)deniedOn41["mechanism"], (string)deniedOn41["address"], deniedOn41.Level));
                return;
            }

            server.SetPlainServer();
            using SocketMonitor monitor = server.Monitor(MonitorEvents.HandshakeFailed);
            string endpoint = Transports.BindAnywhere(server, "tcp");
            using Socket client = Zmq.NewSocket(context, SocketType.Req);
            client.SetPlainClient("user", "wrong");
            client.Connect(endpoint);

            MonitorEvent outcome = monitor.Recv(TestTimeouts.Expected);
            Assert.Equal(MonitorEvents.HandshakeFailedAuth, outcome.Kind);

            Event denied = listener.Single("AuthenticationDenied", e => (string)e["domain"] == "global" && (int)e["statusCode"] == 400);
            Assert.Equal("PLAIN", denied["mechanism"]);
            Assert.Equal("127.0.0.1", denied["address"]);
            Assert.Equal(EventLevel.Warning, denied.Level);

            // The server's monitor reported the failure to this test; the event source wrote it as it was read.
            Event failed = listener.Single("HandshakeFailed", e => (string)e["endpoint"] == outcome.Endpoint);
            Assert.Equal("HandshakeFailedAuth: ZAP status 400", failed["reason"]);
        }

        [Fact]
        public void ZeroCopyEvents_ReleaseCallbackThrows_WritesTheExceptionAsAnError()
        {
            using var listener = new Listener();
            string marker = "release failed on purpose " + Guid.NewGuid().ToString("N");
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            IntPtr buffer = Marshal.AllocHGlobal(16);
            push.SendZeroCopy(buffer, 16, p =>
            {
                Marshal.FreeHGlobal(p);
                throw new InvalidOperationException(marker);
            });
            using (var received = new Message())
            {
                pull.Recv(received); // releasing the message releases the buffer
            }

            Event failed = listener.Single("ZeroCopyReleaseFailed", e => (string)e["message"] == marker);
            Assert.Equal(typeof(InvalidOperationException).FullName, failed["exceptionType"]);
            Assert.Equal(EventLevel.Error, failed.Level);
        }

        [Fact]
        public void EventSource_IsNamedAsZmqTelemetrySays()
        {
            using var listener = new Listener();
            Assert.True(Eventually.True(() => listener.SourceSeen), "no event source named " + ZmqTelemetry.EventSourceName);
            Assert.Equal("NetZeroMQ", ZmqTelemetry.EventSourceName);
        }

        internal sealed class Event
        {
            internal Event(EventWrittenEventArgs e, long sequence)
            {
                Name = e.EventName ?? string.Empty;
                Level = e.Level;
                Sequence = sequence;
                for (int i = 0; i < (e.PayloadNames?.Count ?? 0); i++)
                {
                    Payload[e.PayloadNames![i]] = e.Payload![i]!;
                }
            }

            internal string Name { get; }

            internal EventLevel Level { get; }

            internal long Sequence { get; }

            internal Dictionary<string, object> Payload { get; } = new Dictionary<string, object>();

            internal object this[string name] => Payload.TryGetValue(name, out object? value)
                ? value
                : throw new KeyNotFoundException(Name + " has no payload '" + name + "' (has " + string.Join(", ", Payload.Keys) + ")");
        }

        /// <summary>Listens to the NetZeroMQ source, every level and keyword, and keeps what it wrote.</summary>
        internal sealed class Listener : EventListener
        {
            private readonly ConcurrentQueue<Event> _events = new ConcurrentQueue<Event>();
            private long _sequence;

            internal bool SourceSeen { get; private set; }

            /// <summary>The one event named <paramref name="name"/> that matches (waits for it, bounded).</summary>
            internal Event Single(string name, Func<Event, bool> match)
            {
                Event[] found = Array.Empty<Event>();
                Eventually.True(() => (found = _events.Where(e => e.Name == name && match(e)).ToArray()).Length > 0);
                Assert.True(found.Length == 1, found.Length + " " + name + " events matched; all events: " +
                    string.Join("; ", _events.Select(e => e.Name + "(" + string.Join(", ", e.Payload.Select(p => p.Key + "=" + p.Value)) + ")")));
                return found[0];
            }

            protected override void OnEventSourceCreated(EventSource eventSource)
            {
                if (eventSource.Name == ZmqTelemetry.EventSourceName)
                {
                    SourceSeen = true;
                    EnableEvents(eventSource, EventLevel.Verbose, EventKeywords.All);
                }
            }

            protected override void OnEventWritten(EventWrittenEventArgs eventData) =>
                _events.Enqueue(new Event(eventData, System.Threading.Interlocked.Increment(ref _sequence)));
        }
    }
}
