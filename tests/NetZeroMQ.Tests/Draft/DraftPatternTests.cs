using System;
using System.Collections.Generic;
using System.Text;
using NetZeroMQ.Draft;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Draft
{
    /// <summary>Each draft socket type carries real bytes over inproc, ipc and tcp (and udp for RADIO/DISH).</summary>
    public class DraftPatternTests
    {
        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void ClientServer_TwoClients_EachReplyReachesItsClientByRoutingId(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket? server = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Server);
            if (server is null)
            {
                return;
            }

            using Socket client1 = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client)!;
            using Socket client2 = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client)!;
            string endpoint = Transports.BindAnywhere(server, transport);
            client1.Connect(endpoint);
            client2.Connect(endpoint);
            client1.Send("from one");
            client2.Send("from two");

            var ids = new Dictionary<string, uint>();
            using var request = new Message();
            for (int i = 0; i < 2; i++)
            {
                server.Recv(request);
                Assert.NotEqual(0u, request.RoutingId);
                ids.Add(Encoding.UTF8.GetString(request.Data), request.RoutingId);
            }

            Assert.Equal(new[] { "from one", "from two" }, new SortedSet<string>(ids.Keys));
            Assert.NotEqual(ids["from one"], ids["from two"]);

            foreach (KeyValuePair<string, uint> pair in ids)
            {
                using var reply = new Message(Encoding.UTF8.GetBytes("reply to " + pair.Key));
                reply.RoutingId = pair.Value;
                server.Send(reply);
            }

            Assert.Equal("reply to from one", client1.RecvString());
            Assert.Equal("reply to from two", client2.RecvString());
            Assert.False(client1.TryRecvString(TestTimeouts.Absent, out _));
        }

        [Fact]
        public void Server_SendToUnknownRoutingId_ThrowsHostUnreachable()
        {
            using Context context = Zmq.NewContext();
            using Socket? server = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Server);
            if (server is null)
            {
                return;
            }

            using var message = new Message(new byte[] { 1 });
            message.RoutingId = 12345;
            var error = Assert.Throws<ZmqException>(() => server.Send(message));
            Assert.Equal(ZmqError.HostUnreachable, error.Error);
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void RadioDish_JoinedGroupOnly_ArrivesWithItsGroup(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket? dish = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Dish);
            if (dish is null)
            {
                return;
            }

            using Socket radio = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Radio)!;
            dish.Join("weather");
            radio.Connect(Transports.BindAnywhere(dish, transport));
            RadioDishTraffic.AssertJoinedGroupOnly(radio, dish);
        }

        [Theory]
        [InlineData(false)]
        [InlineData(true)]
        public void RadioDish_UdpUnicastAndMulticastOnLoopback_JoinedGroupOnly_ArrivesWithItsGroup(bool multicast)
        {
            using Context context = Zmq.NewContext();
            using Socket? dish = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Dish);
            if (dish is null)
            {
                return;
            }

            using Socket radio = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Radio)!;

            // Multicast is interface;multicast-address:port, the address random in the organisation-local scope (239.255/16).
            var random = new Random();
            string group = multicast ? "127.0.0.1;239.255." + random.Next(1, 255) + "." + random.Next(1, 255) : "127.0.0.1";
            string endpoint = "udp://" + group + ":" + DraftSocketsFixture.FreeUdpPort();
            dish.Bind(endpoint);
            dish.Join("weather");
            radio.Connect(endpoint);
            RadioDishTraffic.AssertJoinedGroupOnly(radio, dish);
        }

        [Fact]
        public void RadioDish_UdpOnOtherTypes_RefusedAsIncompatible()
        {
            using Context context = Zmq.NewContext();
            using Socket? radio = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Radio);
            if (radio is null)
            {
                return;
            }

            using Socket server = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Server)!;
            string endpoint = "udp://127.0.0.1:" + DraftSocketsFixture.FreeUdpPort();
            Assert.Equal(ZmqError.IncompatibleProtocol, Assert.Throws<ZmqException>(() => server.Bind(endpoint)).Error);
            Assert.Equal(ZmqError.IncompatibleProtocol, Assert.Throws<ZmqException>(() => radio.Bind(endpoint)).Error);
        }

        [Fact]
        public void RadioDish_LeaveGroup_StopsItsMessages()
        {
            using Context context = Zmq.NewContext();
            using Socket? dish = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Dish);
            if (dish is null)
            {
                return;
            }

            using Socket radio = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Radio)!;
            string endpoint = "inproc://radio-leave-" + Guid.NewGuid().ToString("N");
            dish.Bind(endpoint);
            radio.Connect(endpoint);
            dish.Join("weather");
            RadioDishTraffic.AssertJoinedGroupOnly(radio, dish);
            dish.Leave("weather");
            using var message = new Message(new byte[] { 9 });
            message.Group = "weather";
            radio.Send(message);
            using var received = new Message();
            Assert.False(dish.TryRecv(received, TestTimeouts.Absent));
            Assert.Equal(ZmqError.InvalidArgument, Assert.Throws<ZmqException>(() => dish.Leave("weather")).Error);
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void ScatterGather_ManyMessages_AllArriveInOrder(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket? gather = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Gather);
            if (gather is null)
            {
                return;
            }

            using Socket scatter = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Scatter)!;
            scatter.Connect(Transports.BindAnywhere(gather, transport));
            const int Count = 500; // below the high-water mark: the sends never block
            for (int i = 0; i < Count; i++)
            {
                scatter.Send(BitConverter.GetBytes(i));
            }

            var buffer = new byte[8];
            for (int i = 0; i < Count; i++)
            {
                Assert.Equal(new RecvResult(4, 4), gather.Recv(buffer));
                Assert.Equal(i, BitConverter.ToInt32(buffer, 0));
            }

            Assert.False(gather.TryRecv(buffer, TestTimeouts.Absent, out _));
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void PeerPeer_ConnectPeerRoutingId_AddressesTheBoundPeerAndBack(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket? bound = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Peer);
            if (bound is null)
            {
                return;
            }

            using Socket connecting = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Peer)!;
            uint toBound = connecting.ConnectPeer(Transports.BindAnywhere(bound, transport));
            Assert.NotEqual(0u, toBound);

            using (var hello = new Message(Encoding.UTF8.GetBytes("hello")))
            {
                hello.RoutingId = toBound;
                connecting.Send(hello);
            }

            using var received = new Message();
            bound.Recv(received);
            Assert.Equal("hello", Encoding.UTF8.GetString(received.Data));
            uint toConnecting = received.RoutingId;
            Assert.NotEqual(0u, toConnecting);

            using (var answer = new Message(Encoding.UTF8.GetBytes("answer")))
            {
                answer.RoutingId = toConnecting;
                bound.Send(answer);
            }

            connecting.Recv(received);
            Assert.Equal("answer", Encoding.UTF8.GetString(received.Data));
            Assert.Equal(toBound, received.RoutingId);
        }

        [Fact]
        public void ConnectPeer_NotAPeerSocket_ThrowsInvalidOperationBeforeLibzmq()
        {
            using Context context = Zmq.NewContext();
            using Socket? server = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Server);
            if (server is null)
            {
                using Socket dealer = Zmq.NewSocket(context, SocketType.Dealer);
                var onStable = Assert.Throws<InvalidOperationException>(() => dealer.ConnectPeer("tcp://127.0.0.1:5555"));
                Assert.Contains("PEER", onStable.Message);
                return;
            }

            var error = Assert.Throws<InvalidOperationException>(() => server.ConnectPeer("tcp://127.0.0.1:5555"));
            Assert.Equal("ConnectPeer needs a PEER socket; this one is SERVER.", error.Message);
            Assert.Throws<ArgumentException>(() => server.ConnectPeer("tcp://127.0.0.1:-1"));
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void ChannelChannel_BothDirections_BytesArrive(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket? bound = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Channel);
            if (bound is null)
            {
                return;
            }

            using Socket connecting = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Channel)!;
            connecting.Connect(Transports.BindAnywhere(bound, transport));
            connecting.Send(new byte[] { 1, 2, 3 });
            Assert.Equal(new byte[] { 1, 2, 3 }, bound.RecvBytes());
            bound.Send(new byte[] { 4, 5 });
            Assert.Equal(new byte[] { 4, 5 }, connecting.RecvBytes());
        }

        [Fact]
        public void GroupNames_EmptyNulOrTooLong_RejectedBeforeLibzmq()
        {
            using Context context = Zmq.NewContext();
            using Socket sub = Zmq.NewSocket(context, SocketType.Sub);
            using var message = new Message();
            string tooLong = new string('g', DraftExtensions.MaxGroupLength + 1);
            var error = Assert.Throws<ArgumentException>(() => sub.Join(tooLong));
            Assert.Contains("at most 255 UTF-8 bytes", error.Message);
            Assert.Throws<ArgumentException>(() => sub.Join(""));
            Assert.Throws<ArgumentException>(() => sub.Leave("a\0b"));
            Assert.Throws<ArgumentException>(() => message.Group = tooLong);

            // Multi-byte UTF-8 counts in bytes: 128 two-byte letters are 256 bytes.
            Assert.Throws<ArgumentException>(() => message.Group = new string('é', 128));
            Assert.Throws<ArgumentOutOfRangeException>(() => message.RoutingId = 0);
        }
    }
}
