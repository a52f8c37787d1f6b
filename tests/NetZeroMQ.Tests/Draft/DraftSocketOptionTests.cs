using System;
using System.Text;
using NetZeroMQ.Draft;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Draft
{
    /// <summary>
    /// The socket options that libzmq compiles only into builds with the draft API: with it they round-trip and behave;
    /// without it each throws NotSupportedException naming the option before libzmq is called. Bad values are refused with
    /// argument exceptions naming the option on both.
    /// </summary>
    public class DraftSocketOptionTests
    {
        public static TheoryData<string> DraftOnlyReadableOptions => new TheoryData<string>
        {
            nameof(SocketOptions.RouterNotify), nameof(SocketOptions.InBatchSize), nameof(SocketOptions.OutBatchSize), nameof(SocketOptions.Priority),
        };

        [Theory]
        [MemberData(nameof(DraftOnlyReadableOptions))]
        public void GetOption_DraftOnlyOption_ReadsOrThrowsNotSupportedNamingIt(string option)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Router);
            SocketOption<int> key = IntKey(option);

            if (Context.Has("draft"))
            {
                Assert.Equal(option == nameof(SocketOptions.RouterNotify) || option == nameof(SocketOptions.Priority) ? 0 : 8192, socket.GetOption(key));
                return;
            }

            AssertDraftMissing(option, () => socket.GetOption(key));
            AssertDraftMissing(option, () => socket.GetOptionRaw(key.Id, new byte[4]));
        }

        [Fact]
        public void SetOption_DraftOnlyBinaryOptions_SetOrThrowNotSupportedNamingThem()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);
            byte[] hello = Encoding.ASCII.GetBytes("hello");

            if (Context.Has("draft"))
            {
                socket.SetOption(SocketOptions.HelloMessage, hello);
                socket.SetOption(SocketOptions.DisconnectMessage, hello);
                return;
            }

            AssertDraftMissing(nameof(SocketOptions.HelloMessage), () => socket.SetOption(SocketOptions.HelloMessage, hello));
            AssertDraftMissing(nameof(SocketOptions.DisconnectMessage), () => socket.SetOption(SocketOptions.DisconnectMessage, hello));
            AssertDraftMissing(nameof(SocketOptions.InBatchSize), () => socket.SetOptionRaw(SocketOptions.InBatchSize.Id, BitConverter.GetBytes(4096)));
        }

        [Theory]
        [InlineData(nameof(SocketOptions.InBatchSize))]
        [InlineData(nameof(SocketOptions.OutBatchSize))]
        public void SetOption_BatchSize_RoundTripsOrThrowsNotSupported(string option)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);
            SocketOption<int> key = IntKey(option);

            if (!Context.Has("draft"))
            {
                AssertDraftMissing(option, () => socket.SetOption(key, 65536));
                return;
            }

            socket.SetOption(key, 65536);
            Assert.Equal(65536, socket.GetOption(key));

            // The socket still carries messages with the smallest batch size allowed.
            int smallest = option == nameof(SocketOptions.InBatchSize) ? 2 : 1;
            socket.SetOption(key, smallest);
            using Socket peer = new Socket(context, SocketType.Dealer);
            string endpoint = Transports.BindAnywhere(peer, "tcp");
            socket.Connect(endpoint);
            socket.SendTimeout = TestTimeouts.Expected;
            peer.ReceiveTimeout = TestTimeouts.Expected;
            socket.Send("batched " + option);
            Assert.Equal("batched " + option, peer.RecvString());
        }

        [Theory]
        [InlineData(nameof(SocketOptions.InBatchSize), 0)]
        [InlineData(nameof(SocketOptions.InBatchSize), 1)]
        [InlineData(nameof(SocketOptions.OutBatchSize), 0)]
        [InlineData(nameof(SocketOptions.OutBatchSize), -1)]
        [InlineData(nameof(SocketOptions.RouterNotify), 4)]
        [InlineData(nameof(SocketOptions.RouterNotify), -1)]
        public void SetOption_DraftOptionBadValue_ThrowsArgumentOutOfRangeNamingIt(string option, int value)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Router);

            var e = Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOption(IntKey(option), value));

            Assert.Contains("Socket option " + option, e.Message);
        }

        [Fact]
        public void RouterNotify_UndefinedFlag_ThrowsArgumentOutOfRangeNamingIt()
        {
            using Context context = Zmq.NewContext();
            using Socket router = new Socket(context, SocketType.Router);

            var e = Assert.Throws<ArgumentOutOfRangeException>(() => router.RouterNotify = (RouterNotifications)8);

            Assert.Contains("Socket option RouterNotify", e.Message);
        }

        [Fact]
        public void RouterNotify_ConnectAndDisconnect_RouterReceivesEmptyMessageWithPeerRoutingIdForEach()
        {
            using Context context = Zmq.NewContext();
            using Socket router = new Socket(context, SocketType.Router);
            if (!Context.Has("draft"))
            {
                AssertDraftMissing(nameof(SocketOptions.RouterNotify), () => router.RouterNotify = RouterNotifications.Connect);
                return;
            }

            router.RouterNotify = RouterNotifications.Connect | RouterNotifications.Disconnect;
            Assert.Equal(RouterNotifications.Connect | RouterNotifications.Disconnect, router.RouterNotify);
            router.ReceiveTimeout = TestTimeouts.Expected;
            string endpoint = Transports.BindAnywhere(router, "tcp");
            byte[] id = Encoding.ASCII.GetBytes("peer-1");

            using (Socket dealer = new Socket(context, SocketType.Dealer))
            {
                dealer.Linger = TimeSpan.Zero;
                dealer.RoutingId = id;
                dealer.Connect(endpoint);

                byte[][] connected = router.RecvMultipartBytes();
                Assert.Equal(2, connected.Length);
                Assert.Equal(id, connected[0]);
                Assert.Empty(connected[1]);
            }

            byte[][] disconnected = router.RecvMultipartBytes();
            Assert.Equal(2, disconnected.Length);
            Assert.Equal(id, disconnected[0]);
            Assert.Empty(disconnected[1]);
        }

        [Fact]
        public void Metadata_SetOnDealer_RouterReadsPropertyOnReceivedMessage()
        {
            if (!LoadedLibzmq.Has(SocketOptions.Metadata))
            {
                // An option newer than the loaded libzmq (docs/libzmq-versions.md): refused naming both versions.
                using Context refusingContext = Zmq.NewContext();
                using Socket refusing = new Socket(refusingContext, SocketType.Dealer);
                LoadedLibzmq.AssertRefused(SocketOptions.Metadata, () => refusing.SetOption(SocketOptions.Metadata, "X-Colour:blue"));
                return;
            }

            using Context context = Zmq.NewContext();
            using Socket router = new Socket(context, SocketType.Router);
            using Socket dealer = new Socket(context, SocketType.Dealer);
            router.ReceiveTimeout = TestTimeouts.Expected;
            dealer.SendTimeout = TestTimeouts.Expected;
            dealer.SetOption(SocketOptions.Metadata, "X-Colour:blue");
            dealer.SetOption(SocketOptions.Metadata, "X-Shape:round:ish");
            string endpoint = Transports.BindAnywhere(router, "tcp");
            dealer.Connect(endpoint);

            dealer.Send("hello");
            using var frame = new Message();
            router.Recv(frame);
            Assert.True(frame.HasMore);
            router.Recv(frame);

            Assert.Equal("hello", frame.GetString());
            Assert.Equal("blue", frame.GetMetadata("X-Colour"));
            Assert.Equal("round:ish", frame.GetMetadata("X-Shape"));
            Assert.Null(frame.GetMetadata("X-Missing"));
        }

        [Theory]
        [InlineData("X-Colour", "has no colon")]
        [InlineData(":blue", "has no name before the colon")]
        [InlineData("X-Colour:", "has no value after the colon")]
        [InlineData("Colour:blue", "does not start with \"X-\"")]
        [InlineData("x-colour:blue", "does not start with \"X-\"")]
        public void Metadata_BadForm_ThrowsArgumentExceptionNamingOptionAndProblem(string value, string problem)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);

            var typed = Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOptions.Metadata, value));
            var raw = Assert.Throws<ArgumentException>(() => socket.SetOptionRaw(SocketOptions.Metadata.Id, Encoding.UTF8.GetBytes(value)));

            Assert.Contains("Socket option Metadata", typed.Message);
            Assert.Contains(problem, typed.Message);
            Assert.Equal(typed.Message, raw.Message);
        }

        [Fact]
        public void Metadata_NameOf256Bytes_ThrowsArgumentException_255Works()
        {
            if (!LoadedLibzmq.Has(SocketOptions.Metadata))
            {
                // An option newer than the loaded libzmq (docs/libzmq-versions.md): refused naming both versions.
                using Context refusingContext = Zmq.NewContext();
                using Socket refusing = new Socket(refusingContext, SocketType.Dealer);
                LoadedLibzmq.AssertRefused(SocketOptions.Metadata, () => refusing.SetOption(SocketOptions.Metadata, "X-Colour:blue"));
                return;
            }

            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);

            socket.SetOption(SocketOptions.Metadata, "X-" + new string('n', 253) + ":v");
            var e = Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOptions.Metadata, "X-" + new string('n', 254) + ":v"));

            Assert.Contains("name of 256 bytes", e.Message);
        }

        private static SocketOption<int> IntKey(string name) =>
            (SocketOption<int>)typeof(SocketOptions).GetField(name)!.GetValue(null)!;

        private static void AssertDraftMissing(string option, Action action)
        {
            var e = Assert.Throws<NotSupportedException>(action);
            Assert.Contains("Socket option " + option + " needs libzmq's draft API", e.Message);
        }

        private static void AssertDraftMissing(string option, Func<object> action) => AssertDraftMissing(option, () => { _ = action(); });
    }
}
