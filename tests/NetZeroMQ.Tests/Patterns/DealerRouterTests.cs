using System.Collections.Generic;
using System.Text;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Patterns
{
    public class DealerRouterTests
    {
        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Recv_FromDealersWithRoutingIds_RouterGetsIdFrameThenPayload(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket router = Zmq.NewSocket(context, SocketType.Router);
            using Socket alice = Zmq.NewSocket(context, SocketType.Dealer);
            using Socket bob = Zmq.NewSocket(context, SocketType.Dealer);
            alice.RoutingId = Encoding.ASCII.GetBytes("alice");
            bob.RoutingId = Encoding.ASCII.GetBytes("bob");
            string endpoint = Transports.BindAnywhere(router, transport);
            alice.Connect(endpoint);
            bob.Connect(endpoint);

            alice.Send("from alice");
            bob.Send("from bob");

            var payloadById = new Dictionary<string, string>();
            for (int i = 0; i < 2; i++)
            {
                byte[] id = router.RecvBytes();
                Assert.True(router.HasMore);
                string payload = router.RecvString();
                Assert.False(router.HasMore);
                payloadById.Add(Encoding.ASCII.GetString(id), payload);
            }

            Assert.Equal("from alice", payloadById["alice"]);
            Assert.Equal("from bob", payloadById["bob"]);
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Send_RepliesAddressedById_EachReachesTheRightDealer(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket router = Zmq.NewSocket(context, SocketType.Router);
            using Socket alice = Zmq.NewSocket(context, SocketType.Dealer);
            using Socket bob = Zmq.NewSocket(context, SocketType.Dealer);
            alice.RoutingId = Encoding.ASCII.GetBytes("alice");
            bob.RoutingId = Encoding.ASCII.GetBytes("bob");
            string endpoint = Transports.BindAnywhere(router, transport);
            alice.Connect(endpoint);
            bob.Connect(endpoint);

            // The router learns a peer's id when the peer's first message arrives.
            alice.Send("hello");
            bob.Send("hello");
            for (int i = 0; i < 2; i++)
            {
                router.RecvBytes();
                router.RecvBytes();
            }

            router.Send("bob", SendFlags.SendMore);
            router.Send("to bob");
            router.Send("alice", SendFlags.SendMore);
            router.Send("to alice");

            // Exactly two replies were sent; each dealer's first message being its own proves neither was misrouted.
            Assert.Equal("to alice", alice.RecvString());
            Assert.Equal("to bob", bob.RecvString());
            Assert.False(alice.HasMore);
            Assert.False(bob.HasMore);
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Recv_DealerWithoutRoutingId_RouterGeneratesFiveByteIdStartingWithZero(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket router = Zmq.NewSocket(context, SocketType.Router);
            using Socket dealer = Zmq.NewSocket(context, SocketType.Dealer);
            dealer.Connect(Transports.BindAnywhere(router, transport));

            dealer.Send("anonymous");
            byte[] id = router.RecvBytes();
            Assert.Equal("anonymous", router.RecvString());

            Assert.Equal(5, id.Length);
            Assert.Equal(0, id[0]);

            // The generated id routes a reply like a chosen one.
            router.Send(id, SendFlags.SendMore);
            router.Send("reply");
            Assert.Equal("reply", dealer.RecvString());
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void SendRecv_ReqThroughRouter_EnvelopeHasIdThenEmptyDelimiter(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket router = Zmq.NewSocket(context, SocketType.Router);
            using Socket req = Zmq.NewSocket(context, SocketType.Req);
            req.RoutingId = new byte[] { 1, 2, 3 };
            req.Connect(Transports.BindAnywhere(router, transport));

            req.Send("question");
            Assert.Equal(new byte[] { 1, 2, 3 }, router.RecvBytes());
            Assert.True(router.HasMore);
            Assert.Empty(router.RecvBytes());
            Assert.True(router.HasMore);
            Assert.Equal("question", router.RecvString());
            Assert.False(router.HasMore);

            router.Send(new byte[] { 1, 2, 3 }, SendFlags.SendMore);
            router.Send(System.Array.Empty<byte>(), SendFlags.SendMore);
            router.Send("answer");
            Assert.Equal("answer", req.RecvString());
            Assert.False(req.HasMore);
        }

        [Fact]
        public void Send_RouterMandatoryUnknownId_ThrowsHostUnreachable()
        {
            using Context context = Zmq.NewContext();
            using Socket router = Zmq.NewSocket(context, SocketType.Router);
            router.SetOption(SocketOptions.RouterMandatory, true);
            Transports.BindAnywhere(router, "inproc");

            ZmqException e = Assert.Throws<ZmqException>(() => router.Send("nobody", SendFlags.SendMore));

            Assert.Equal(ZmqError.HostUnreachable, e.Error);
            Assert.False(e.IsTimeout);
            if (System.OperatingSystem.IsLinux())
            {
                Assert.Equal(113, e.NativeErrorNumber);
            }
        }

        [Fact]
        public void TrySend_RouterMandatoryUnknownId_ThrowsHostUnreachableInsteadOfReturningFalse()
        {
            using Context context = Zmq.NewContext();
            using Socket router = Zmq.NewSocket(context, SocketType.Router);
            router.SetOption(SocketOptions.RouterMandatory, true);

            ZmqException e = Assert.Throws<ZmqException>(() => router.TrySend("nobody", SendFlags.SendMore));

            Assert.Equal(ZmqError.HostUnreachable, e.Error);
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Send_RouterMandatoryKnownId_Delivers(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket router = Zmq.NewSocket(context, SocketType.Router);
            using Socket dealer = Zmq.NewSocket(context, SocketType.Dealer);
            router.SetOption(SocketOptions.RouterMandatory, true);
            dealer.RoutingId = Encoding.ASCII.GetBytes("known");
            dealer.Connect(Transports.BindAnywhere(router, transport));
            dealer.Send("hi");
            Assert.Equal("known", router.RecvString());
            Assert.Equal("hi", router.RecvString());

            router.Send("known", SendFlags.SendMore);
            router.Send("welcome");

            Assert.Equal("welcome", dealer.RecvString());
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Send_UnknownIdWithoutMandatory_SilentlyDropped(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket router = Zmq.NewSocket(context, SocketType.Router);
            using Socket dealer = Zmq.NewSocket(context, SocketType.Dealer);
            dealer.RoutingId = Encoding.ASCII.GetBytes("known");
            dealer.Connect(Transports.BindAnywhere(router, transport));
            dealer.Send("hi");
            router.RecvBytes();
            router.RecvBytes();

            router.Send("ghost", SendFlags.SendMore);
            router.Send("lost");
            router.Send("known", SendFlags.SendMore);
            router.Send("kept");

            Assert.Equal("kept", dealer.RecvString());
        }

        [Fact]
        public void RoutingId_SameIdOnTwoDealersWithHandover_NewConnectionTakesOver()
        {
            using Context context = Zmq.NewContext();
            using Socket router = Zmq.NewSocket(context, SocketType.Router);
            using Socket first = Zmq.NewSocket(context, SocketType.Dealer);
            using Socket second = Zmq.NewSocket(context, SocketType.Dealer);
            router.SetOption(SocketOptions.RouterHandover, true);
            string endpoint = Transports.BindAnywhere(router, "tcp");
            first.RoutingId = Encoding.ASCII.GetBytes("same");
            second.RoutingId = Encoding.ASCII.GetBytes("same");
            first.Connect(endpoint);
            first.Send("first");
            Assert.Equal("same", router.RecvString());
            Assert.Equal("first", router.RecvString());
            second.Connect(endpoint);
            second.Send("second");
            Assert.Equal("same", router.RecvString());
            Assert.Equal("second", router.RecvString());

            router.Send("same", SendFlags.SendMore);
            router.Send("to the newest");

            Assert.Equal("to the newest", second.RecvString());
        }
    }
}
