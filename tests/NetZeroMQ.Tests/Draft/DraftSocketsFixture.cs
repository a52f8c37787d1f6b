using System;
using System.Net;
using System.Net.Sockets;
using NetZeroMQ.Draft;
using Xunit;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// Draft sockets for the tests. Every draft test runs against both libraries CI uses: with the draft API it checks the real
    /// behaviour; without it, that creating the socket throws the clear <see cref="NotSupportedException"/>, and nothing else.
    /// </summary>
    public static class DraftSocketsFixture
    {
        /// <summary>
        /// A draft socket with both timeouts set to <see cref="TestTimeouts.Expected"/>, or null after asserting the
        /// NotSupportedException when the loaded libzmq has no draft API (the test then ends: there is nothing more to check).
        /// </summary>
        public static Socket? NewOrAssertUnsupported(Context context, DraftSocketType type)
        {
            if (!DraftApi.IsAvailable)
            {
                var error = Assert.Throws<NotSupportedException>(() => DraftSockets.Create(context, type));
                Assert.Contains("Socket type " + type, error.Message);
                Assert.Contains("draft API", error.Message);
                return null;
            }

            Socket socket = DraftSockets.Create(context, type);
            socket.ReceiveTimeout = TestTimeouts.Expected;
            socket.SendTimeout = TestTimeouts.Expected;
            return socket;
        }

        /// <summary>
        /// The connected <paramref name="client"/> says hello and the <paramref name="server"/> receives it: returns the routing id
        /// the server knows the client by (a SERVER learns it only from a message).
        /// </summary>
        public static uint IntroduceClient(Socket client, Socket server)
        {
            client.Send("hello");
            using var first = new Message();
            server.Recv(first);
            Assert.Equal("hello", first.GetString());
            return first.RoutingId;
        }

        /// <summary>
        /// A udp port on loopback that was free a moment ago: udp binds report no resolved port, so the tests find one the
        /// way the system does (bind port 0, read it, let go) instead of using a fixed number.
        /// </summary>
        public static int FreeUdpPort()
        {
            using var probe = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Dgram, ProtocolType.Udp);
            probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
            return ((IPEndPoint)probe.LocalEndPoint!).Port;
        }
    }
}
