using System;
using System.Linq;
using System.Reflection;
using System.Runtime.Versioning;
using System.Threading;
using Xunit;

namespace NetZeroMQ.NetStandard.Tests
{
    /// <summary>Core behaviour of the netstandard2.0 build. Every blocking call is bounded by <see cref="Timeout"/>.</summary>
    public class NetStandardBuildTests
    {
        private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(10);

        [Fact]
        public void Assembly_UnderTest_IsTheNetStandardBuild()
        {
            string? framework = typeof(Context).Assembly.GetCustomAttribute<TargetFrameworkAttribute>()?.FrameworkName;
            Assert.Equal(".NETStandard,Version=v2.0", framework);
            Assert.Null(typeof(Socket).GetMethod("RecvAsync")); // async is net8.0-only: proof that this is not the net8.0 build
        }

        [Fact]
        public void Libzmq_FirstUse_LoadsThroughTheReflectedResolver()
        {
            Assert.False(string.IsNullOrEmpty(Libzmq.LoadedFrom));
            Assert.True(Libzmq.Version >= Libzmq.MinimumVersion);
            Assert.Equal(Libzmq.Version, Context.Version);
        }

        [Theory]
        [InlineData("inproc://netstandard-pushpull")]
        [InlineData("tcp://127.0.0.1:*")]
        public void PushPull_SpanAndString_BytesArrive(string endpoint)
        {
            using Context context = NewContext();
            using Socket pull = NewSocket(context, SocketType.Pull);
            using Socket push = NewSocket(context, SocketType.Push);
            pull.Bind(endpoint);
            push.Connect(pull.LastEndpoint);

            push.Send(new byte[] { 1, 2, 3 });
            push.Send("héllo");
            var buffer = new byte[2];
            RecvResult result = pull.Recv(buffer);
            Assert.Equal(new RecvResult(2, 3), result);
            Assert.True(result.IsTruncated);
            Assert.Equal(new byte[] { 1, 2 }, buffer);
            Assert.Equal("héllo", pull.RecvString());
        }

        [Fact]
        public void ReqRep_RoundTrip_ReplyArrivesInMessage()
        {
            using Context context = NewContext();
            using Socket rep = NewSocket(context, SocketType.Rep);
            using Socket req = NewSocket(context, SocketType.Req);
            rep.Bind("tcp://127.0.0.1:*");
            req.Connect(rep.LastEndpoint);

            req.Send("ping");
            using var message = new Message();
            rep.Recv(message);
            Assert.Equal("ping", message.GetString());
            Assert.False(message.HasMore);
            rep.Send(new Message(new byte[] { 0x70, 0x6f, 0x6e, 0x67 }));
            Assert.Equal("pong", req.RecvString());
        }

        [Fact]
        public void Options_SetThenGet_RoundTrip()
        {
            using Context context = NewContext();
            using Socket socket = NewSocket(context, SocketType.Dealer);

            socket.SendHighWatermark = 123;
            socket.Linger = TimeSpan.FromMilliseconds(250);
            socket.RoutingId = new byte[] { 9, 8, 7 };
            socket.SetOption(SocketOptions.MaxMessageSize, 4096L);

            Assert.Equal(123, socket.SendHighWatermark);
            Assert.Equal(TimeSpan.FromMilliseconds(250), socket.Linger);
            Assert.Equal(new byte[] { 9, 8, 7 }, socket.RoutingId);
            Assert.Equal(4096L, socket.GetOption(SocketOptions.MaxMessageSize));
            Assert.Equal((int)SocketType.Dealer, socket.GetOption(SocketOptions.Type));
            Assert.Equal(TimeSpan.Zero, context.DefaultLinger);
        }

        [Fact]
        public void Recv_NothingArrives_ThrowsTimeoutAndTryRecvReturnsFalse()
        {
            using Context context = NewContext();
            using Socket pull = NewSocket(context, SocketType.Pull);
            pull.ReceiveTimeout = TimeSpan.FromMilliseconds(50);
            pull.Bind("inproc://netstandard-timeout");

            Assert.False(pull.TryRecvString(out string? text));
            Assert.Null(text);
            ZmqException e = Assert.Throws<ZmqException>(() => pull.RecvString());
            Assert.True(e.IsTimeout);
            Assert.Equal(ZmqError.TryAgain, e.Error);
        }

        [Fact]
        public void Send_ReqTwiceWithoutReply_ThrowsInvalidState()
        {
            using Context context = NewContext();
            using Socket rep = NewSocket(context, SocketType.Rep);
            using Socket req = NewSocket(context, SocketType.Req);
            rep.Bind("inproc://netstandard-fsm");
            req.Connect("inproc://netstandard-fsm");

            req.Send("one");
            ZmqException e = Assert.Throws<ZmqException>(() => req.Send("two"));
            Assert.Equal(ZmqError.InvalidState, e.Error);
            Assert.False(string.IsNullOrEmpty(e.Message));
        }

        [Fact]
        public void Bind_UnknownTransport_ThrowsWithEndpoint()
        {
            using Context context = NewContext();
            using Socket socket = NewSocket(context, SocketType.Pub);

            ZmqException e = Assert.Throws<ZmqException>(() => socket.Bind("nosuch://endpoint"));
            Assert.Equal(ZmqError.ProtocolNotSupported, e.Error);
            Assert.Equal("nosuch://endpoint", e.Endpoint);
            Assert.Throws<ArgumentNullException>(() => socket.Bind(null!));
        }

        [Fact]
        public void Dispose_Socket_EveryMemberThenThrowsObjectDisposed()
        {
            using Context context = NewContext();
            Socket socket = NewSocket(context, SocketType.Push);
            socket.Dispose();
            socket.Dispose(); // idempotent

            Assert.True(socket.IsDisposed);
            Assert.Throws<ObjectDisposedException>(() => socket.Send("x"));
            Assert.Throws<ObjectDisposedException>(() => socket.Bind("inproc://netstandard-disposed"));
            Assert.Throws<ObjectDisposedException>(() => socket.SendHighWatermark);
        }

        [Fact]
        public void Dispose_ContextWhileRecvBlocks_RecvEndsAndSocketIsClosed()
        {
            Context context = NewContext();
            Socket pull = new Socket(context, SocketType.Pull); // no receive timeout: only the dispose can end the call
            pull.Bind("inproc://netstandard-blocked");
            Exception? caught = null;
            var thread = new Thread(() =>
            {
                try
                {
                    pull.RecvString();
                }
                catch (Exception e)
                {
                    caught = e;
                }
            });
            thread.Start();
            Thread.Sleep(100); // let the receive block

            context.Dispose();

            Assert.True(thread.Join(Timeout), "the blocked receive did not end");
            Assert.True(caught is ObjectDisposedException || caught is ZmqException { Error: ZmqError.ContextTerminated },
                "unexpected: " + caught);
            Assert.True(pull.IsDisposed);
            Assert.Throws<ObjectDisposedException>(() => new Socket(context, SocketType.Push));
        }

        [Fact]
        public void Poller_TwoSockets_ReportsOnlyTheReadyOne()
        {
            using Context context = NewContext();
            using Socket a = NewSocket(context, SocketType.Pull);
            using Socket b = NewSocket(context, SocketType.Pull);
            using Socket push = NewSocket(context, SocketType.Push);
            a.Bind("inproc://netstandard-poll-a");
            b.Bind("inproc://netstandard-poll-b");
            push.Connect("inproc://netstandard-poll-b");
            using var poller = new Poller();
            int ia = poller.Add(a, PollEvents.In);
            int ib = poller.Add(b, PollEvents.In);

            push.Send("x");

            Assert.Equal(1, poller.Poll(Timeout));
            Assert.False(poller.IsReadable(ia));
            Assert.True(poller.IsReadable(ib));
        }

        private static Context NewContext() => new Context { DefaultLinger = TimeSpan.Zero };

        private static Socket NewSocket(Context context, SocketType type) =>
            new Socket(context, type) { ReceiveTimeout = Timeout, SendTimeout = Timeout };
    }
}
