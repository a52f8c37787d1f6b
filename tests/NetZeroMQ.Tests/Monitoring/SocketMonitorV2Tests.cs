using System;
using System.Collections.Generic;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Monitoring
{
    /// <summary>
    /// The v2 monitor protocol (draft API): events carry all their 64-bit values and both endpoints. Against a libzmq without
    /// the draft API, asking for it throws NotSupportedException and nothing else.
    /// </summary>
    public class SocketMonitorV2Tests
    {
        [Fact]
        public void Monitor_V2_AcceptedAndConnected_CarryTheLocalAndRemoteEndpointsOfTheConnection()
        {
            using Context context = Zmq.NewContext();
            using Socket server = Zmq.NewSocket(context, SocketType.Pair);
            using Socket client = Zmq.NewSocket(context, SocketType.Pair);
            using SocketMonitor? serverMonitor = NewV2OrAssertUnsupported(server, MonitorEvents.All);
            if (serverMonitor is null)
            {
                return;
            }

            using SocketMonitor clientMonitor = client.Monitor(MonitorEvents.All, MonitorProtocol.V2);
            Assert.Equal(MonitorProtocol.V2, clientMonitor.Protocol);
            string endpoint = Transports.BindAnywhere(server, "tcp");
            client.Connect(endpoint);

            MonitorEvent listening = serverMonitor.WaitFor(MonitorEvents.Listening);
            MonitorEvent accepted = serverMonitor.WaitFor(MonitorEvents.Accepted);
            MonitorEvent connected = clientMonitor.WaitFor(MonitorEvents.Connected);

            Assert.Equal(MonitorProtocol.V2, accepted.Protocol);
            Assert.Equal(endpoint, listening.LocalEndpoint);
            Assert.Equal(string.Empty, listening.RemoteEndpoint);
            Assert.Equal(endpoint, accepted.LocalEndpoint);
            Assert.Equal(endpoint, connected.RemoteEndpoint);

            // The client's end of the connection, as each side sees it: the same address and ephemeral port.
            Assert.StartsWith("tcp://127.0.0.1:", connected.LocalEndpoint);
            Assert.NotEqual(endpoint, connected.LocalEndpoint);
            Assert.Equal(connected.LocalEndpoint, accepted.RemoteEndpoint);

            // One value each, the descriptor, which v1's Value also carries.
            Assert.Single(accepted.Values);
            Assert.Equal(accepted.Values[0], (ulong)accepted.Value);
            Assert.True(accepted.Value > 2);
            Assert.Equal(accepted.RemoteEndpoint, accepted.Endpoint);

            client.Send("ping");
            Assert.Equal("ping", server.RecvString());
        }

        [Fact]
        public void RequestPipesStats_V2MonitorWithPipesStats_ReportsBothQueueLengthsOfTheConnection()
        {
            using Context context = Zmq.NewContext();
            using Socket server = Zmq.NewSocket(context, SocketType.Pair);
            using Socket client = Zmq.NewSocket(context, SocketType.Pair);
            using SocketMonitor? monitor = NewV2OrAssertUnsupported(client, MonitorEvents.AllV2);
            if (monitor is null)
            {
                return;
            }

            string endpoint = Transports.BindAnywhere(server, "tcp");
            client.Connect(endpoint);
            monitor.WaitFor(MonitorEvents.HandshakeSucceeded);
            client.Send("one");
            Assert.Equal("one", server.RecvString());

            Assert.True(monitor.RequestPipesStats());

            // The answer reaches the client socket as a command, handled when the socket is next used: read its Events.
            MonitorEvent? stats = null;
            var seen = new List<MonitorEvent>();
            var deadline = DateTime.UtcNow + TestTimeouts.Expected;
            while (stats is null)
            {
                Assert.True(DateTime.UtcNow < deadline, "no PipesStats event; saw: " + string.Join(", ", seen));
                _ = client.GetOption(SocketOptions.Events);
                while (stats is null && monitor.TryRecv(TimeSpan.FromMilliseconds(20), out MonitorEvent? next))
                {
                    seen.Add(next);
                    stats = next.Kind == MonitorEvents.PipesStats ? next : null;
                }
            }

            // Two queue lengths (outbound, inbound); the pipe is known by the endpoint the client connected to.
            Assert.Equal(MonitorProtocol.V2, stats.Protocol);
            Assert.Equal(2, stats.Values.Count);
            Assert.Equal(endpoint, stats.RemoteEndpoint);
        }

        [Fact]
        public void RequestPipesStats_MonitorWithoutPipesStats_ThrowsInvalidOperation()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pair);
            using SocketMonitor monitor = socket.Monitor();

            var e = Assert.Throws<InvalidOperationException>(() => monitor.RequestPipesStats());

            Assert.Contains("MonitorProtocol.V2", e.Message);
        }

        [Fact]
        public void Monitor_V1WithPipesStats_ThrowsArgumentOutOfRange()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pair);

            var e = Assert.Throws<ArgumentOutOfRangeException>(() => socket.Monitor(MonitorEvents.AllV2));

            Assert.Equal("events", e.ParamName);
        }

        [Fact]
        public void Monitor_V1Event_HasItsValueAndNoSeparateEndpoints()
        {
            using Context context = Zmq.NewContext();
            using Socket server = Zmq.NewSocket(context, SocketType.Pair);
            using SocketMonitor monitor = server.Monitor(MonitorEvents.Listening);
            string endpoint = Transports.BindAnywhere(server, "tcp");

            MonitorEvent listening = monitor.Recv(TestTimeouts.Expected);

            Assert.Equal(MonitorProtocol.V1, listening.Protocol);
            Assert.Equal(LoadedLibzmq.ListenerEventEndpoint(endpoint), listening.Endpoint); // port 0 for tcp before 4.3.2
            Assert.Equal(new ulong[] { listening.Value }, listening.Values);
            Assert.Null(listening.LocalEndpoint);
            Assert.Null(listening.RemoteEndpoint);
        }

        /// <summary>A v2 monitor, or null after asserting the NotSupportedException where the loaded libzmq has no draft API.</summary>
        private static SocketMonitor? NewV2OrAssertUnsupported(Socket socket, MonitorEvents events)
        {
            if (!Context.Has("draft"))
            {
                var e = Assert.Throws<NotSupportedException>(() => socket.Monitor(events, MonitorProtocol.V2));
                Assert.Contains("The v2 monitor protocol needs libzmq's draft API", e.Message);
                return null;
            }

            return socket.Monitor(events, MonitorProtocol.V2);
        }
    }
}
