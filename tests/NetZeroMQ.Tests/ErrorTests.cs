using System;
using System.Diagnostics;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    public class ErrorTests
    {
        private const int Hausnumero = 156384712;

        // Malformed text is refused before libzmq sees it (SocketEndpointsTests has the whole table, for every verb).
        [Theory]
        [InlineData("tcp://")]
        [InlineData("nonsense")]
        [InlineData("tcp://127.0.0.1:notaport")]
        [InlineData("ipc://")]
        [InlineData("inproc://")]
        public void Bind_MalformedEndpoint_ThrowsArgumentExceptionNamingTheEndpoint(string endpoint)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);

            ArgumentException e = Assert.Throws<ArgumentException>(() => socket.Bind(endpoint));

            Assert.Equal("endpoint", e.ParamName);
            Assert.Contains("'" + endpoint + "'", e.Message);
            Assert.Equal(string.Empty, socket.LastEndpoint);
        }

        [Theory]
        [InlineData("tcp://")]
        [InlineData("nonsense")]
        [InlineData("tcp://127.0.0.1:notaport")]
        public void Connect_MalformedEndpoint_ThrowsArgumentExceptionNamingTheEndpoint(string endpoint)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Push);

            ArgumentException e = Assert.Throws<ArgumentException>(() => socket.Connect(endpoint));

            Assert.Equal("endpoint", e.ParamName);
            Assert.Contains("'" + endpoint + "'", e.Message);
            Assert.Equal(string.Empty, socket.LastEndpoint);
        }

        [Fact]
        public void Bind_AddressLibzmqCannotUse_ThrowsInvalidArgumentNamingTheEndpoint()
        {
            // Well-formed text that only libzmq can judge: no interface has this name, so the zone index has no number.
            const string endpoint = "tcp://[fe80::1%nosuchif0]:*";
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);

            ZmqException e = Assert.Throws<ZmqException>(() => socket.Bind(endpoint));

            if (LoadedLibzmq.IsAtLeast(4, 2, 0))
            {
                Assert.Equal(ZmqError.InvalidArgument, e.Error);
                Assert.Equal(Errno(linux: 22, macOS: 22, windows: 22), e.NativeErrorNumber);
            }
            else
            {
                // libzmq 4.1 looks a bind's address up as an interface name first (tcp_address.cpp resolve_interface): ENODEV.
                Assert.Equal(ZmqError.NoDevice, e.Error);
                Assert.Equal(Errno(linux: 19, macOS: 19, windows: 19), e.NativeErrorNumber);
            }

            Assert.Equal(endpoint, e.Endpoint);
            Assert.Contains("'" + endpoint + "'", e.Message);
            Assert.Contains("bind", e.Message);
            Assert.Null(e.Option);
        }

        [Fact]
        public void BindConnect_UnsupportedTransport_ThrowsProtocolNotSupported()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pair);

            ZmqException bind = Assert.Throws<ZmqException>(() => socket.Bind("bogus://x"));
            ZmqException connect = Assert.Throws<ZmqException>(() => socket.Connect("bogus://x"));

            Assert.Equal(ZmqError.ProtocolNotSupported, bind.Error);
            Assert.Equal(ZmqError.ProtocolNotSupported, connect.Error);
            Assert.Equal(Errno(linux: 93, macOS: 43, windows: 135), bind.NativeErrorNumber);
            Assert.Equal("bogus://x", bind.Endpoint);
            Assert.Contains("bogus://x", connect.Message);
        }

        [Fact]
        public void Bind_TcpEndpointAlreadyBound_ThrowsAddressInUse()
        {
            using Context context = Zmq.NewContext();
            using Socket first = Zmq.NewSocket(context, SocketType.Pull);
            using Socket second = Zmq.NewSocket(context, SocketType.Pull);
            first.Bind("tcp://127.0.0.1:*");
            string taken = first.LastEndpoint;

            ZmqException e = Assert.Throws<ZmqException>(() => second.Bind(taken));

            Assert.Equal(ZmqError.AddressInUse, e.Error);
            Assert.Equal(Errno(linux: 98, macOS: 48, windows: 100), e.NativeErrorNumber);
            Assert.Equal(taken, e.Endpoint);
            Assert.Equal(string.Empty, second.LastEndpoint);
        }

        [Fact]
        public void Bind_InprocNameAlreadyBound_ThrowsAddressInUse()
        {
            using Context context = Zmq.NewContext();
            using Socket first = Zmq.NewSocket(context, SocketType.Pull);
            using Socket second = Zmq.NewSocket(context, SocketType.Pull);
            string name = Transports.BindAnywhere(first, "inproc");

            ZmqException e = Assert.Throws<ZmqException>(() => second.Bind(name));

            Assert.Equal(ZmqError.AddressInUse, e.Error);
        }

        [Theory]
        [InlineData("pgm://127.0.0.1;239.192.1.1:5555", "pgm")]
        [InlineData("epgm://127.0.0.1;239.192.1.1:5555", "pgm")]
        [InlineData("norm://127.0.0.1:5555", "norm")]
        public void Connect_MulticastTransportOnDealer_ThrowsIncompatibleProtocolOrProtocolNotSupported(string endpoint, string capability)
        {
            // libzmq checks the transport first, then the socket type, both before it parses the address, so no multicast
            // traffic is ever attempted. A build with the transport (Debian's: OpenPGM and NORM) rejects the combination; a
            // build without it (NetZeroMQ.Native's) does not know the transport at all.
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Dealer);

            ZmqException e = Assert.Throws<ZmqException>(() => socket.Connect(endpoint));

            if (Context.Has(capability))
            {
                Assert.Equal(ZmqError.IncompatibleProtocol, e.Error);
                Assert.Equal(Hausnumero + 52, e.NativeErrorNumber);
            }
            else
            {
                Assert.Equal(ZmqError.ProtocolNotSupported, e.Error);
                Assert.Equal(Errno(linux: 93, macOS: 43, windows: 135), e.NativeErrorNumber);
            }

            Assert.Equal(endpoint, e.Endpoint);
        }

        [Theory]
        [InlineData("tcp://127.0.0.1:1")]
        [InlineData("inproc://never-bound")]
        public void Unbind_EndpointNeverBound_ThrowsEndpointNotFound(string endpoint)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);

            ZmqException e = Assert.Throws<ZmqException>(() => socket.Unbind(endpoint));

            Assert.Equal(ZmqError.EndpointNotFound, e.Error);
            Assert.Equal(2, e.NativeErrorNumber); // ENOENT is 2 on every platform
            Assert.Equal(endpoint, e.Endpoint);
            Assert.Contains("unbind", e.Message);
        }

        [Fact]
        public void Disconnect_EndpointNeverConnected_ThrowsEndpointNotFound()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket socket = Zmq.NewSocket(context, SocketType.Push);
            string connected = Transports.BindAnywhere(pull, "tcp");
            socket.Connect(connected);
            string other = connected.Substring(0, connected.LastIndexOf(':') + 1) + "1"; // well-formed, never connected

            ZmqException e = Assert.Throws<ZmqException>(() => socket.Disconnect(other));

            Assert.Equal(ZmqError.EndpointNotFound, e.Error);
            Assert.Equal(other, e.Endpoint);
            Assert.Contains("disconnect", e.Message);
            socket.Disconnect(connected); // the connected one is found
        }

        [Fact]
        public void Unbind_WildcardInsteadOfResolvedEndpoint_ThrowsEndpointNotFoundAndResolvedWorks()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);
            socket.Bind("tcp://127.0.0.1:*");
            string resolved = socket.LastEndpoint;

            ZmqException e = Assert.Throws<ZmqException>(() => socket.Unbind("tcp://127.0.0.1:*"));
            Assert.Equal(ZmqError.EndpointNotFound, e.Error);

            socket.Unbind(resolved);
            e = Assert.Throws<ZmqException>(() => socket.Unbind(resolved));
            Assert.Equal(ZmqError.EndpointNotFound, e.Error);
        }

        [Fact]
        public void Recv_ReceiveTimeoutExpires_ThrowsTryAgainAfterRoughlyTheTimeout()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);
            Transports.BindAnywhere(socket, "inproc");
            socket.ReceiveTimeout = TimeSpan.FromMilliseconds(100);
            var clock = Stopwatch.StartNew();

            ZmqException e = Assert.Throws<ZmqException>(() => socket.RecvBytes());

            clock.Stop();
            Assert.True(e.IsTimeout);
            Assert.Equal(ZmqError.TryAgain, e.Error);
            Assert.Equal(Errno(linux: 11, macOS: 35, windows: 11), e.NativeErrorNumber);
            Assert.True(clock.Elapsed >= TimeSpan.FromMilliseconds(90), "returned after " + clock.Elapsed);
            Assert.True(clock.Elapsed < TestTimeouts.Expected, "returned after " + clock.Elapsed);
        }

        [Fact]
        public void Recv_IntoBufferTimeoutExpires_ThrowsTryAgain()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);
            socket.ReceiveTimeout = TimeSpan.FromMilliseconds(50);

            ZmqException e = Assert.Throws<ZmqException>(() => socket.Recv(new byte[8]));

            Assert.True(e.IsTimeout);
        }

        [Fact]
        public void Send_SendTimeoutExpiresWithoutPeer_ThrowsTryAgain()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Push);
            socket.SendTimeout = TimeSpan.FromMilliseconds(100);
            var clock = Stopwatch.StartNew();

            ZmqException e = Assert.Throws<ZmqException>(() => socket.Send("nobody"));

            Assert.True(e.IsTimeout);
            Assert.Equal(ZmqError.TryAgain, e.Error);
            Assert.True(clock.Elapsed >= TimeSpan.FromMilliseconds(90), "returned after " + clock.Elapsed);
            Assert.True(clock.Elapsed < TestTimeouts.Expected, "returned after " + clock.Elapsed);

            // The temporary native slices the wait uses must not leak into the option.
            Assert.Equal(TimeSpan.FromMilliseconds(100), socket.SendTimeout);
        }

        [Fact]
        public void TrySend_NoPeer_ReturnsFalseAtOnce()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Push);
            var clock = Stopwatch.StartNew();

            Assert.False(socket.TrySend("nobody"));

            // At once: well below the socket's SendTimeout (TestTimeouts.Expected), which a non-blocking call ignores.
            Assert.True(clock.Elapsed < TimeSpan.FromSeconds(2), "returned after " + clock.Elapsed);
        }

        [Fact]
        public void TrySendTryRecv_WouldBlock_ReturnFalseWithoutThrowing()
        {
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            Transports.BindAnywhere(pull, "inproc");
            using var message = new Message(new byte[] { 1, 2, 3 });

            Assert.False(push.TrySend(new byte[] { 1 }));
            Assert.False(push.TrySend("text"));
            Assert.False(push.TrySend(message));
            Assert.Equal(3, message.Size); // a failed send leaves the message with the caller

            Assert.False(pull.TryRecv(new byte[8], out RecvResult result));
            Assert.Equal(default, result);
            Assert.False(pull.TryRecvBytes(out byte[]? bytes));
            Assert.Null(bytes);
            Assert.False(pull.TryRecvString(out string? text));
            Assert.Null(text);
            using var empty = new Message();
            Assert.False(pull.TryRecv(empty));
        }

        [Fact]
        public void TrySendTryRecv_WhenPossible_ReturnTrue()
        {
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));

            Assert.True(push.TrySend("ready"));

            // inproc delivers into the peer's pipe synchronously: the frame is waiting now.
            Assert.True(pull.TryRecvString(out string? text));
            Assert.Equal("ready", text);
        }

        [Theory]
        [InlineData(SocketType.Pull)]
        [InlineData(SocketType.Sub)]
        public void Send_OnReceiveOnlySocket_ThrowsNotSupported(SocketType type)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, type);

            ZmqException e = Assert.Throws<ZmqException>(() => socket.Send("no"));
            ZmqException viaTry = Assert.Throws<ZmqException>(() => socket.TrySend("no"));

            Assert.Equal(ZmqError.NotSupported, e.Error);
            Assert.Equal(ZmqError.NotSupported, viaTry.Error);
            Assert.Equal(Errno(linux: 95, macOS: 45, windows: 129), e.NativeErrorNumber);
        }

        [Theory]
        [InlineData(SocketType.Push)]
        [InlineData(SocketType.Pub)]
        public void Recv_OnSendOnlySocket_ThrowsNotSupported(SocketType type)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, type);

            ZmqException e = Assert.Throws<ZmqException>(() => socket.RecvBytes());
            ZmqException viaTry = Assert.Throws<ZmqException>(() => socket.TryRecvBytes(out _));

            Assert.Equal(ZmqError.NotSupported, e.Error);
            Assert.Equal(ZmqError.NotSupported, viaTry.Error);
        }

        [Fact]
        public void ZmqException_LibzmqOwnCodes_UseHausnumeroOffsetsOnEveryPlatform()
        {
            using Context context = Zmq.NewContext();
            using Socket req = Zmq.NewSocket(context, SocketType.Req);

            ZmqException efsm = Assert.Throws<ZmqException>(() => req.RecvBytes());

            Assert.Equal(ZmqError.InvalidState, efsm.Error);
            Assert.Equal(Hausnumero + 51, efsm.NativeErrorNumber);
            Assert.Contains("Operation cannot be accomplished in current state", efsm.Message);
        }

        [Fact]
        public void NewSocket_AfterContextShutdown_ThrowsContextTerminated()
        {
            using Context context = Zmq.NewContext();
            context.Shutdown();

            ZmqException e = Assert.Throws<ZmqException>(() => new Socket(context, SocketType.Dealer));

            Assert.Equal(ZmqError.ContextTerminated, e.Error);
            Assert.Equal(Hausnumero + 53, e.NativeErrorNumber);
        }

        [Fact]
        public void Bind_TcpOnContextWithoutIOThreads_ThrowsNoIOThread()
        {
            using var context = new Context(ioThreads: 0) { DefaultLinger = TimeSpan.Zero };
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);

            ZmqException e = Assert.Throws<ZmqException>(() => socket.Bind("tcp://127.0.0.1:*"));

            Assert.Equal(ZmqError.NoIOThread, e.Error);
            Assert.Equal(Hausnumero + 54, e.NativeErrorNumber);
            Transports.BindAnywhere(socket, "inproc"); // inproc needs no I/O thread
        }

        [Fact]
        public void ZmqException_Message_CarriesLibzmqTextCodeAndErrno()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);

            ZmqException e = Assert.Throws<ZmqException>(() => socket.Bind("tcp://[fe80::1%nosuchif0]:*"));

            // libzmq 4.1 looks a bind's address up as an interface name first (tcp_address.cpp resolve_interface) and reports
            // that no such device exists; later versions refuse the IPv6 address on a socket without IPv6.
            (string text, ZmqError error) = LoadedLibzmq.IsAtLeast(4, 2, 0)
                ? ("Invalid argument", ZmqError.InvalidArgument)
                : ("No such device", ZmqError.NoDevice);
            Assert.Equal(error, e.Error);
            Assert.Contains(text, e.Message); // zmq_strerror's text
            Assert.Contains(error.ToString(), e.Message);
            Assert.Contains("errno " + e.NativeErrorNumber, e.Message);
            Assert.False(e.IsTimeout);
        }

        [Fact]
        public void Endpoints_Null_ThrowArgumentNullBeforeAnyNativeCall()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);

            Assert.Throws<ArgumentNullException>(() => socket.Bind(null!));
            Assert.Throws<ArgumentNullException>(() => socket.Connect(null!));
            Assert.Throws<ArgumentNullException>(() => socket.Unbind(null!));
            Assert.Throws<ArgumentNullException>(() => socket.Disconnect(null!));
        }

        [Fact]
        public void Endpoints_Empty_ThrowArgumentException()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);

            Assert.Equal("endpoint", Assert.Throws<ArgumentException>(() => socket.Bind(string.Empty)).ParamName);
            Assert.Throws<ArgumentException>(() => socket.Connect(string.Empty));
            Assert.Throws<ArgumentException>(() => socket.Unbind(string.Empty));
            Assert.Throws<ArgumentException>(() => socket.Disconnect(string.Empty));
        }

        [Fact]
        public void Endpoints_ContainingNul_ThrowArgumentExceptionAndNothingIsBound()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);

            // Were this passed on, libzmq would stop at the NUL and bind "tcp://127.0.0.1:*" successfully.
            Assert.Throws<ArgumentException>(() => socket.Bind("tcp://127.0.0.1:*\0junk"));
            Assert.Throws<ArgumentException>(() => socket.Connect("tcp://127.0.0.1:5555\0"));
            Assert.Throws<ArgumentException>(() => socket.Unbind("\0"));
            Assert.Throws<ArgumentException>(() => socket.Disconnect("inproc://a\0b"));

            Assert.Equal(string.Empty, socket.LastEndpoint);
        }

        [Fact]
        public void Endpoints_InvalidOnDisposedSocket_ArgumentCheckedFirst()
        {
            using Context context = Zmq.NewContext();
            Socket socket = Zmq.NewSocket(context, SocketType.Pull);
            socket.Dispose();

            Assert.Throws<ArgumentNullException>(() => socket.Bind(null!));
            Assert.Throws<ObjectDisposedException>(() => socket.Bind("inproc://x"));
        }

        [Fact]
        public void ZmqException_StandardConstructors_KeepMessageAndCause()
        {
            var cause = new TimeoutException("the cause");

            var empty = new ZmqException();
            var withMessage = new ZmqException("a message");
            var withCause = new ZmqException("a message", cause);
            var rich = new ZmqException(ZmqError.ContextTerminated, Hausnumero + 53, "rich", "inproc://x", "Linger", cause);

            Assert.False(string.IsNullOrEmpty(empty.Message));
            Assert.Equal(ZmqError.Unknown, empty.Error);
            Assert.Null(empty.InnerException);
            Assert.Equal("a message", withMessage.Message);
            Assert.Equal(ZmqError.Unknown, withMessage.Error);
            Assert.Equal(0, withMessage.NativeErrorNumber);
            Assert.Null(withMessage.InnerException);
            Assert.Equal("a message", withCause.Message);
            Assert.Same(cause, withCause.InnerException);
            Assert.Same(cause, rich.InnerException);
            Assert.Equal(ZmqError.ContextTerminated, rich.Error);
            Assert.Equal(Hausnumero + 53, rich.NativeErrorNumber);
            Assert.Equal("inproc://x", rich.Endpoint);
            Assert.Equal("Linger", rich.Option);
        }

        private static int Errno(int linux, int macOS, int windows) =>
            OperatingSystem.IsWindows() ? windows : OperatingSystem.IsLinux() ? linux : macOS;
    }
}
