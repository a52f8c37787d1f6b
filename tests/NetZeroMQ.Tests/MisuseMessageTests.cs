using System;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// Misuse that libzmq reports by code alone gets a message that names the socket type and the rule broken, keeping the
    /// code (the error, the native number) for code that tests it.
    /// </summary>
    public class MisuseMessageTests
    {
        private const int Hausnumero = 156384712;

        [Fact]
        public void Send_ReqTwiceWithoutTheReply_NamesTheRuleAndEfsmByName()
        {
            using Context context = Zmq.NewContext();
            using Socket rep = Zmq.NewSocket(context, SocketType.Rep);
            using Socket req = Zmq.NewSocket(context, SocketType.Req);
            req.Connect(Transports.BindAnywhere(rep, "inproc"));
            req.Send("first"u8);

            var e = Assert.Throws<ZmqException>(() => req.Send("second"u8));

            Assert.Equal(ZmqError.InvalidState, e.Error);
            Assert.Equal(Hausnumero + 51, e.NativeErrorNumber);
            Assert.Contains("a REQ socket must receive the reply before it sends again", e.Message);
            Assert.Contains("[InvalidState, EFSM]", e.Message);
            Assert.DoesNotContain("156384763", e.Message);
        }

        [Fact]
        public void Recv_RepBeforeItReplied_NamesTheRule()
        {
            using Context context = Zmq.NewContext();
            using Socket rep = Zmq.NewSocket(context, SocketType.Rep);
            using Socket req = Zmq.NewSocket(context, SocketType.Req);
            req.Connect(Transports.BindAnywhere(rep, "inproc"));
            req.Send("request"u8);
            Assert.Equal("request", rep.RecvString());

            var e = Assert.Throws<ZmqException>(() => rep.TryRecv(new byte[8], out _));

            Assert.Equal(ZmqError.InvalidState, e.Error);
            Assert.Contains("a REP socket must send the reply before it receives again", e.Message);
        }

        [Theory]
        [InlineData(SocketType.Pub, "a PUB socket cannot receive")]
        [InlineData(SocketType.Push, "a PUSH socket cannot receive")]
        public void Recv_OnASendOnlyType_NamesTheTypeAndKeepsNotSupported(SocketType type, string rule)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, type);

            var e = Assert.Throws<ZmqException>(() => socket.Recv(new byte[8]));

            Assert.Equal(ZmqError.NotSupported, e.Error);
            Assert.Contains(rule, e.Message);
            Assert.Contains("in receive", e.Message);
        }

        [Theory]
        [InlineData(SocketType.Sub, "a SUB socket cannot send")]
        [InlineData(SocketType.Pull, "a PULL socket cannot send")]
        public void Send_OnAReceiveOnlyType_NamesTheTypeAndKeepsNotSupported(SocketType type, string rule)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, type);

            var e = Assert.Throws<ZmqException>(() => socket.Send("x"u8));

            Assert.Equal(ZmqError.NotSupported, e.Error);
            Assert.Contains(rule, e.Message);
        }

        [Fact]
        public void Subscribe_OnPub_SaysSubscribeIsForSubAndXSubAndKeepsInvalidArgument()
        {
            using Context context = Zmq.NewContext();
            using Socket pub = Zmq.NewSocket(context, SocketType.Pub);

            var e = Assert.Throws<ZmqException>(() => pub.Subscribe("topic"));

            Assert.Equal(ZmqError.InvalidArgument, e.Error);
            Assert.Contains("Subscribe is for SUB and XSUB sockets; this is a PUB socket", e.Message);
        }

        [Fact]
        public void RouterMandatory_OnDealer_NamesTheSocketTypeItIsFor()
        {
            using Context context = Zmq.NewContext();
            using Socket dealer = Zmq.NewSocket(context, SocketType.Dealer);

            var e = Assert.Throws<ZmqException>(() => dealer.SetOption(SocketOptions.RouterMandatory, true));

            Assert.Equal(ZmqError.InvalidArgument, e.Error);
            Assert.Contains("RouterMandatory is for ROUTER sockets; this is a DEALER socket", e.Message);
        }

        [Fact]
        public void AnyCall_OnASocketItsContextClosed_SaysTheContextWasDisposed()
        {
            Context context = Zmq.NewContext();
            Socket socket = Zmq.NewSocket(context, SocketType.Pair);
            context.Dispose();

            var e = Assert.Throws<ObjectDisposedException>(() => socket.Send("x"u8));

            Assert.Contains("closed because its Context was disposed", e.Message);
            Assert.Equal(typeof(Socket).FullName, e.ObjectName);
        }

        [Fact]
        public void AnyCall_OnASocketItsOwnerDisposed_KeepsThePlainDisposedMessage()
        {
            using Context context = Zmq.NewContext();
            Socket socket = Zmq.NewSocket(context, SocketType.Pair);
            socket.Dispose();

            var e = Assert.Throws<ObjectDisposedException>(() => socket.Send("x"u8));

            Assert.DoesNotContain("Context", e.Message);
        }

        [Fact]
        public void Describe_PlatformCodeKeepsTheNumberAndLibzmqsOwnGetTheirNames()
        {
            Assert.Equal("errno 22", ErrorMap.Describe(22));
            Assert.Equal("EFSM", ErrorMap.Describe(Hausnumero + 51));
            Assert.Equal("ETERM", ErrorMap.Describe(Hausnumero + 53));
            Assert.Equal("ENOCOMPATPROTO", ErrorMap.Describe(Hausnumero + 52));
        }
    }
}
