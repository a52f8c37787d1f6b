using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Monitoring
{
    public class SocketMonitorTests
    {
        public static TheoryData<string> ConnectionTransports => new TheoryData<string> { "ipc", "tcp" };

        [Theory]
        [MemberData(nameof(ConnectionTransports))]
        public void Monitor_ConnectHandshakeDisconnectClose_ReportsEventsWithEndpoint(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket server = Zmq.NewSocket(context, SocketType.Pair);
            using SocketMonitor serverMonitor = server.Monitor();
            string endpoint = Transports.BindAnywhere(server, transport);
            Socket client = Zmq.NewSocket(context, SocketType.Pair);
            using SocketMonitor clientMonitor = client.Monitor();
            client.Connect(endpoint);

            var serverSeen = new List<MonitorEvent>();
            var clientSeen = new List<MonitorEvent>();
            string listener = LoadedLibzmq.ListenerEventEndpoint(endpoint); // port 0 for tcp before 4.3.2
            Assert.Equal(listener, serverMonitor.WaitFor(MonitorEvents.Listening, serverSeen).Endpoint);
            Assert.Equal(listener, serverMonitor.WaitFor(MonitorEvents.Accepted, serverSeen).Endpoint);
            bool handshakeEvents = LoadedLibzmq.Sends(MonitorEvents.HandshakeSucceeded);
            if (handshakeEvents)
            {
                Assert.Equal(listener, serverMonitor.WaitFor(MonitorEvents.HandshakeSucceeded, serverSeen).Endpoint);
            }

            Assert.Equal(endpoint, clientMonitor.WaitFor(MonitorEvents.Connected, clientSeen).Endpoint);
            if (handshakeEvents)
            {
                Assert.Equal(endpoint, clientMonitor.WaitFor(MonitorEvents.HandshakeSucceeded, clientSeen).Endpoint);
            }
            else
            {
                // A libzmq 4.2 release build never reports a success (All still means every event it sends): asking for it is
                // refused (the active monitors stay), and the ping below crosses only after both handshakes succeeded.
                LoadedLibzmq.AssertMonitorRefused(MonitorEvents.HandshakeSucceeded, () => server.Monitor(MonitorEvents.HandshakeSucceeded));
                LoadedLibzmq.AssertMonitorRefused(MonitorEvents.HandshakeSucceeded, () => client.Monitor(MonitorEvents.HandshakeSucceeded | MonitorEvents.Connected));
            }

            client.Send("ping");
            Assert.Equal("ping", server.RecvString());
            clientMonitor.Dispose();
            client.Dispose();
            Assert.Equal(listener, serverMonitor.WaitFor(MonitorEvents.Disconnected, serverSeen).Endpoint);

            server.Unbind(endpoint);
            MonitorEvent closed = serverMonitor.WaitFor(MonitorEvents.Closed, serverSeen);
            Assert.Equal(listener, closed.Endpoint);
        }

        [Fact]
        public void Monitor_CurveWithWrongServerKey_ReportsHandshakeFailed()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            var serverKeys = CurveTestKeys.NewPair();
            var clientKeys = CurveTestKeys.NewPair();
            var wrongKeys = CurveTestKeys.NewPair();
            using Context context = Zmq.NewContext();
            using Socket server = Zmq.NewSocket(context, SocketType.Rep);
            server.SetOption(SocketOptions.CurveServer, true);
            server.SetOption(SocketOptions.CurveSecretKey, serverKeys.SecretKey);
            // A libzmq 4.2 release build never reports a success: its refusal asserted, the failures monitored.
            using SocketMonitor monitor = LoadedLibzmq.MonitorOrAssertRefused(server, MonitorEvents.HandshakeFailed | MonitorEvents.HandshakeSucceeded)!;
            string endpoint = Transports.BindAnywhere(server, "tcp");
            using Socket client = Zmq.NewSocket(context, SocketType.Req);
            client.SetOption(SocketOptions.CurveServerKey, wrongKeys.PublicKey);
            client.SetOption(SocketOptions.CurvePublicKey, clientKeys.PublicKey);
            client.SetOption(SocketOptions.CurveSecretKey, clientKeys.SecretKey);
            client.Connect(endpoint);

            MonitorEvent failure = monitor.Recv(TestTimeouts.Expected);

            Assert.NotEqual(MonitorEvents.HandshakeSucceeded, failure.Kind);
            Assert.Equal(MonitorEvents.HandshakeFailedProtocol, failure.Kind);
            Assert.Equal(ProtocolError.ZmtpCryptographic, failure.ProtocolError);
            Assert.Equal(LoadedLibzmq.ListenerEventEndpoint(endpoint), failure.Endpoint);
        }

        [Fact]
        public void TryRecv_NoEvent_ReturnsFalseAndRecvTimesOut()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pair);
            using SocketMonitor monitor = socket.Monitor();

            Assert.False(monitor.TryRecv(out MonitorEvent? none));
            Assert.Null(none);
            var clock = Stopwatch.StartNew();
            Assert.Equal(ZmqError.TryAgain, Assert.Throws<ZmqException>(() => monitor.Recv(TestTimeouts.Absent)).Error);
            Assert.True(clock.Elapsed >= TestTimeouts.Absent - TimeSpan.FromMilliseconds(20), clock.Elapsed.ToString());
        }

        [Fact]
        public void Socket_InPoller_BecomesReadableOnEvent()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);
            using SocketMonitor monitor = socket.Monitor(MonitorEvents.Listening);
            using var poller = new Poller();
            int index = poller.Add(monitor.Socket, PollEvents.In);
            Assert.Equal(0, poller.Poll(TimeSpan.Zero));

            string endpoint = Transports.BindAnywhere(socket, "tcp");

            Assert.Equal(1, poller.Poll(TestTimeouts.Expected));
            Assert.True(poller.IsReadable(index));
            Assert.True(monitor.TryRecv(out MonitorEvent? listening));
            Assert.Equal(MonitorEvents.Listening, listening.Kind);
            Assert.Equal(LoadedLibzmq.ListenerEventEndpoint(endpoint), listening.Endpoint);
        }

        [Fact]
        public void Monitor_AgainAfterDispose_ReportsEventsOnNewEndpoint()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);
            SocketMonitor first = socket.Monitor(MonitorEvents.Listening);
            string firstEndpoint = first.Endpoint;
            first.Dispose();
            Assert.Throws<ObjectDisposedException>(() => first.TryRecv(out _));

            using SocketMonitor second = socket.Monitor(MonitorEvents.Listening | MonitorEvents.MonitorStopped);
            string endpoint = Transports.BindAnywhere(socket, "tcp");

            Assert.NotEqual(firstEndpoint, second.Endpoint);
            Assert.Equal(LoadedLibzmq.ListenerEventEndpoint(endpoint), second.Recv(TestTimeouts.Expected).Endpoint);
        }

        [Fact]
        public void Monitor_Twice_StopsFirstMonitor()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);
            using SocketMonitor first = socket.Monitor(MonitorEvents.Listening | MonitorEvents.MonitorStopped);
            using SocketMonitor second = socket.Monitor(MonitorEvents.Listening);

            Assert.Equal(MonitorEvents.MonitorStopped, first.Recv(TestTimeouts.Expected).Kind);
            Transports.BindAnywhere(socket, "tcp");
            Assert.Equal(MonitorEvents.Listening, second.Recv(TestTimeouts.Expected).Kind);
            Assert.False(first.TryRecv(TestTimeouts.Absent, out _));
            first.Dispose();
            Assert.False(second.TryRecv(TestTimeouts.Absent, out _)); // the older monitor's Dispose did not stop the newer one
        }

        [Fact]
        public void Dispose_MonitoredSocketAlreadyDisposed_ReturnsPromptly()
        {
            using Context context = Zmq.NewContext();
            Socket socket = Zmq.NewSocket(context, SocketType.Pull);
            SocketMonitor monitor = socket.Monitor();
            Transports.BindAnywhere(socket, "tcp");
            socket.Dispose();

            var clock = Stopwatch.StartNew();
            monitor.Dispose();

            Assert.True(clock.Elapsed < SocketMonitor.StopWait, clock.Elapsed.ToString());
            Assert.True(monitor.Socket.IsDisposed);
        }

        [Fact]
        public void Dispose_MonitoredSocketBlockedOnAnotherThread_ReturnsAndSocketStillWorks()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            string endpoint = Transports.BindAnywhere(pull, "tcp");
            SocketMonitor monitor = pull.Monitor();
            using var receiving = new ManualResetEventSlim();
            string? received = null;
            var blocked = new Thread(() =>
            {
                receiving.Set();
                received = pull.RecvString();
            });
            blocked.Start();
            Assert.True(receiving.Wait(TestTimeouts.Expected));
            Thread.Sleep(50);

            var clock = Stopwatch.StartNew();
            monitor.Dispose();
            Assert.True(clock.Elapsed < SocketMonitor.BusyWait + TimeSpan.FromSeconds(2), clock.Elapsed.ToString());

            push.Connect(endpoint);
            push.Send("still works");
            Assert.True(blocked.Join(TestTimeouts.Expected));
            Assert.Equal("still works", received);
            using SocketMonitor again = pull.Monitor(MonitorEvents.Listening);
            Transports.BindAnywhere(pull, "tcp");
            Assert.Equal(MonitorEvents.Listening, again.Recv(TestTimeouts.Expected).Kind);
        }

        [Fact]
        public void Monitor_InvalidArguments_Throw()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pair);
            Assert.Throws<ArgumentOutOfRangeException>(() => socket.Monitor(MonitorEvents.None));
            Assert.Throws<ArgumentOutOfRangeException>(() => socket.Monitor((MonitorEvents)0x10000));
            socket.Dispose();
            Assert.Throws<ObjectDisposedException>(() => socket.Monitor());
        }
    }
}
