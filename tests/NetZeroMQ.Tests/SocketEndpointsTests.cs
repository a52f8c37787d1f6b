using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// Bind, Connect, Unbind and Disconnect against endpoint text that libzmq 4.3.4 would misread (a port read by atoi and cut to
    /// 16 bits, a host it only resolves in the background, a wildcard prefix) and against unusual text that must keep working.
    /// </summary>
    public class SocketEndpointsTests
    {
        private const string Port = "{port}";

        /// <summary>
        /// Malformed for every verb. <c>{U+D800}</c> and <c>{U+DC00}</c> stand for lone surrogates (xunit's serialization of
        /// theory data would turn one into U+FFFD), <c>{port}</c> is replaced by the port a socket of the test really holds, so that text libzmq
        /// would misread as that port (Unbind of <c>:{port}abc</c> removes <c>:{port}</c>) shows as a side effect.
        /// The second value is a piece of the reason the message must give.
        /// </summary>
        public static TheoryData<string, string> MalformedForEveryVerb => new TheoryData<string, string>
        {
            // The issue's cases: libzmq binds 65535 and {port}, and connects to [::1 without a word.
            { "tcp://127.0.0.1:-1", "port" },
            { "tcp://127.0.0.1:{port}abc", "port" },
            { "tcp://[::1", "']'" },
            { "tcp://[::1:{port}", "']'" },
            // Ports: digits only, 1 to 65535, nothing before or after.
            { "tcp://127.0.0.1:+{port}", "port" },
            { "tcp://127.0.0.1: {port}", "port" },
            { "tcp://127.0.0.1:{port} ", "port" },
            { "tcp://127.0.0.1:0{port}", "leading zero" },
            { "tcp://127.0.0.1:00", "port" },
            { "tcp://127.0.0.1:65536", "65535" },
            { "tcp://127.0.0.1:99999", "34463" },
            { "tcp://127.0.0.1:", "port" },
            { "tcp://127.0.0.1:notaport", "port" },
            { "tcp://127.0.0.1:*x", "port" },
            { "tcp://127.0.0.1", "':port'" },
            // Hosts.
            { "tcp://:{port}", "host is empty" },
            { "tcp:// 127.0.0.1:{port}", "white space" },
            { "tcp://127.0.0.1 :{port}", "white space" },
            { "tcp://::1:{port}", "brackets" },
            { "tcp://[::1]{port}", "':port'" },
            { "tcp://[::1]]:{port}", "':port'" },
            { "tcp://[::g]:{port}", "IPv6" },
            { "tcp://[1:2:3:4:5:6:7:8:9]:{port}", "IPv6" },
            { "tcp://[fe80::1%]:{port}", "zone" },
            { "tcp://[fe80::1%-1]:{port}", "zone" },
            { "tcp://[fe80::1%0]:{port}", "zone" },
            { "tcp://[fe80::1]%eth0:{port}", "':port'" },
            { "tcp://127.0.0.1%1:{port}", "zone" },
            { "tcp://[127.0.0.1%1]:{port}", "zone" },
            { "tcp://[lo]:{port}", "IPv6" },
            { "tcp://" + new string('a', 256) + ":{port}", "255" },
            { "tcp://" + new string('9', 100_000) + ":1", "255" },
            // The source-address form.
            { "tcp://127.0.0.1:-1;127.0.0.1:{port}", "';'" },
            { "tcp://127.0.0.1:0;127.0.0.1:{port}abc", "';'" },
            { "tcp://a:1;b:2;127.0.0.1:{port}", "';'" },
            { "tcp://;127.0.0.1:{port}", "source" },
            // Whole text.
            { "127.0.0.1:{port}", "'://'" },
            { "nonsense", "'://'" },
            { "://127.0.0.1:{port}", "transport" },
            { "tcp://", "address" },
            { "tcp://127.0.0.1:{port}\0", "NUL" },
            { "tcp://{U+D800}:{port}", "surrogate" },
            { "inproc://a{U+DC00}b", "surrogate" },
            { "inproc://", "address" },
            // ws: host and port as tcp, then at most one path segment.
            { "ws://127.0.0.1:-1/x", "port" },
            { "ws://127.0.0.1:{port}abc/x", "port" },
            { "ws://127.0.0.1:{port}/a/b", "segment" },
            { "ws://127.0.0.1:{port}/a:b", "path" },
            { "ws://127.0.0.1:{port}/a b", "path" },
            { "ws://[::1", "']'" },
            { "ws:///x", "host" },
            // udp: [interface;]host:port.
            { "udp://127.0.0.1:-1", "port" },
            { "udp://127.0.0.1:{port}abc", "port" },
            { "udp://;239.0.0.1:{port}", "host is empty" },
            { "udp://a;b;239.0.0.1:{port}", "';'" },
            // ipc: one wildcard, a path that fits in sockaddr_un.
            { "ipc://*foo", "wildcard" },
            { "ipc://@", "abstract" },
            { "ipc:///tmp/" + new string('x', 200), "bytes" },
            { "ipc://", "address" },
            // The multicast transports and tipc/vmci, whose parsers read numbers the same way.
            { "epgm://eth0;239.192.1.1:-1", "port" },
            { "epgm://eth0;239.192.1.1:0", "port" },
            { "pgm://eth0;239.192.1.1:{port}x", "port" },
            { "epgm://" + new string('a', 300) + ":5555", "254" },
            { "norm://:5555", "empty" },
            { "norm://[ff02::1]:5555", "brackets" },
            { "norm://abc,239.1.1.1:5555", "node id" },
            { "norm://239.1.1.1:5555x", "port" },
            { "tipc://{1000,0,0}junk", "tipc" },
            { "tipc://<*>junk", "tipc" },
            { "tipc://{-1,0,0}", "tipc" },
            { "vmci://1:5abc", "port" },
            { "vmci://x:1", "context id" },
        };

        [Theory]
        [MemberData(nameof(MalformedForEveryVerb))]
        public void EveryVerb_MalformedEndpoint_ThrowsArgumentExceptionNamingItAndChangesNothing(string template, string reason)
        {
            using Context context = Zmq.NewContext();
            using Socket bound = Zmq.NewSocket(context, SocketType.Pull);
            using Socket connected = Zmq.NewSocket(context, SocketType.Push);
            bound.Bind("tcp://127.0.0.1:*");
            string boundEndpoint = bound.LastEndpoint;
            connected.Connect(boundEndpoint);
            string endpoint = template
                .Replace(Port, PortOf(boundEndpoint), StringComparison.Ordinal)
                .Replace("{U+D800}", "\uD800", StringComparison.Ordinal)
                .Replace("{U+DC00}", "\uDC00", StringComparison.Ordinal);

            AssertMalformed(endpoint, reason, () => bound.Bind(endpoint));
            AssertMalformed(endpoint, reason, () => bound.Unbind(endpoint));
            AssertMalformed(endpoint, reason, () => connected.Connect(endpoint));
            AssertMalformed(endpoint, reason, () => connected.Disconnect(endpoint));

            // Nothing reached libzmq: no bind or connect replaced the last endpoint, and the real ones are still there to remove.
            Assert.Equal(boundEndpoint, bound.LastEndpoint);
            Assert.Equal(boundEndpoint, connected.LastEndpoint);
            connected.Disconnect(boundEndpoint);
            bound.Unbind(boundEndpoint);
        }

        /// <summary>Text that is malformed for one verb only: a wildcard cannot be connected to, a source address not bound.</summary>
        public static TheoryData<string, string, string> MalformedForOneVerb => new TheoryData<string, string, string>
        {
            { nameof(Socket.Connect), "tcp://127.0.0.1:*", "only be bound" },
            { nameof(Socket.Connect), "tcp://127.0.0.1:0", "only be bound" },
            { nameof(Socket.Connect), "tcp://*:5555", "only be bound" },
            { nameof(Socket.Connect), "tcp://127.0.0.1:1;127.0.0.1:*", "only be bound" },
            { nameof(Socket.Connect), "tcp://-peer:5555", "letter or digit" },
            { nameof(Socket.Connect), "tcp://my host:5555", "letter or digit" },
            { nameof(Socket.Connect), "tcp://h\u00F6st:5555", "letter or digit" },
            { nameof(Socket.Connect), "ws://127.0.0.1:*/x", "only be bound" },
            { nameof(Socket.Connect), "ipc://*", "only be bound" },
            { nameof(Socket.Connect), "tipc://<*>", "only be bound" },
            { nameof(Socket.Bind), "tcp://127.0.0.1:0;127.0.0.1:*", "Connect only" },
            { nameof(Socket.Unbind), "tcp://127.0.0.1:0;127.0.0.1:*", "only be bound" },
            { nameof(Socket.Disconnect), "tcp://127.0.0.1:0;*:5555", "only be bound" },
        };

        [Theory]
        [MemberData(nameof(MalformedForOneVerb))]
        public void OneVerb_EndpointMalformedForIt_ThrowsArgumentException(string verb, string endpoint, string reason)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pair);

            AssertMalformed(endpoint, reason, verb switch
            {
                nameof(Socket.Bind) => () => socket.Bind(endpoint),
                nameof(Socket.Connect) => () => socket.Connect(endpoint),
                nameof(Socket.Unbind) => () => socket.Unbind(endpoint),
                _ => () => socket.Disconnect(endpoint),
            });
            Assert.Equal(string.Empty, socket.LastEndpoint);
        }

        [Theory]
        [InlineData("tcp://127.0.0.1:*")]
        [InlineData("tcp://127.0.0.1:0")]
        [InlineData("tcp://*:*")]
        [InlineData("ipc://*")]
        [InlineData("tcp://127.0.0.1:5555;127.0.0.1:6666")]
        public void UnbindDisconnect_WellFormedButNeverUsed_ThrowEndpointNotFound(string endpoint)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pair);

            Assert.Equal(ZmqError.EndpointNotFound, Assert.Throws<ZmqException>(() => socket.Unbind(endpoint)).Error);
            Assert.Equal(ZmqError.EndpointNotFound, Assert.Throws<ZmqException>(() => socket.Disconnect(endpoint)).Error);
        }

        /// <summary>
        /// Valid but unusual text: bound on one socket, connected from another (<c>{port}</c> is the port the bind got,
        /// <c>{last}</c> the whole endpoint it reports), one message each way, then Disconnect and Unbind with the same texts.
        /// </summary>
        public static TheoryData<string, string, bool> ValidUnusual
        {
            get
            {
                var data = new TheoryData<string, string, bool>
                {
                    { "tcp://127.0.0.1:*", "{last}", false },
                    { "tcp://127.0.0.1:0", "{last}", false }, // port 0 binds a free port, as * does
                    { "tcp://*:*", "tcp://127.0.0.1:{port}", false },
                    { "tcp://127.0.0.1:*", "tcp://localhost:{port}", false },
                    { "tcp://[::1]:*", "tcp://[::1]:{port}", true },
                    { "tcp://[::1]:*", "tcp://[0:0:0:0:0:0:0:1]:{port}", true },
                    { "tcp://127.0.0.1:*", "tcp://[::ffff:127.0.0.1]:{port}", true },
                    { "tcp://127.0.0.1:*", "tcp://127.0.0.1:0;127.0.0.1:{port}", false },
                    { "tcp://127.0.0.1:*", "tcp://127.0.0.1:*;localhost:{port}", false },
                    { "ipc://*", "{last}", false },
                    { "inproc://name with spaces, \u00FCn\u00EFc\u00F6d\u00E9 and \U0001F600 " + Guid.NewGuid(), "{last}", false },
                    { "inproc://" + new string('n', 10_000) + Guid.NewGuid(), "{last}", false },
                };
                if (OperatingSystem.IsLinux())
                {
                    data.Add("ipc://@netzeromq-abstract-" + Guid.NewGuid(), "{last}", false); // Linux's abstract namespace
                }

                if (Context.Has("WS"))
                {
                    data.Add("ws://127.0.0.1:*/chat", "{last}", false);
                    data.Add("ws://127.0.0.1:*", "ws://localhost:{port}/", false);
                }

                return data;
            }
        }

        [Theory]
        [MemberData(nameof(ValidUnusual))]
        public void BindConnect_ValidUnusualEndpoint_MessagesRoundTripAndBothAreRemovable(string bindText, string connectTemplate, bool ipv6)
        {
            using Context context = Zmq.NewContext();
            using Socket server = Zmq.NewSocket(context, SocketType.Pair);
            using Socket client = Zmq.NewSocket(context, SocketType.Pair);
            server.SetOption(SocketOptions.IPv6, ipv6);
            client.SetOption(SocketOptions.IPv6, ipv6);

            server.Bind(bindText);
            string last = server.LastEndpoint;
            string connectText = connectTemplate.Replace("{last}", last, StringComparison.Ordinal);
            if (connectText.Contains(Port, StringComparison.Ordinal))
            {
                connectText = connectText.Replace(Port, PortOf(last), StringComparison.Ordinal);
            }

            client.Connect(connectText);

            client.Send("to server");
            Assert.Equal("to server", server.RecvString());
            server.Send("to client");
            Assert.Equal("to client", client.RecvString());

            client.Disconnect(connectText);
            server.Unbind(last);
        }

        [Fact]
        public void Connect_HighestPort_Accepted()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Push);

            socket.Connect("tcp://127.0.0.1:65535");
            socket.Connect("tcp://127.0.0.1:1");

            Assert.Equal("tcp://127.0.0.1:1", socket.LastEndpoint);
        }

        [Fact]
        public void Bind_IpcWildcardInTemporaryDirectoryTooLong_ThrowsNameTooLongNamingTheEndpoint()
        {
            // Well-formed text whose real path libzmq only makes at bind time: TMPDIR + "/tmpXXXXXX/socket", here beyond the
            // 108 bytes of sockaddr_un. Runs in a child, which gets its own TMPDIR.
            string directory = Path.Combine(Path.GetTempPath(), "netzeromq-" + Guid.NewGuid().ToString("N") + new string('d', 100));
            Directory.CreateDirectory(directory);
            try
            {
                (int exitCode, string output) = ChildProcess.Run("bind-ipc-wildcard", new Dictionary<string, string?> { ["TMPDIR"] = directory });

                Assert.True(exitCode == 0, output);
                if (OperatingSystem.IsWindows())
                {
                    Assert.Contains("bound ipc://", output, StringComparison.Ordinal); // libzmq makes the path with tmpnam_s there
                }
                else if (!LoadedLibzmq.IsAtLeast(4, 2, 0))
                {
                    // libzmq 4.1 names a wildcard ipc socket in the current directory (mkstemp "2134XXXXXX"), not under TMPDIR
                    // (docs/libzmq-versions.md): the long TMPDIR does not matter there.
                    Assert.Matches(@"bound ipc://2134\w{6}\n", output);
                }
                else
                {
                    Assert.Contains("Error=NameTooLong", output, StringComparison.Ordinal);
                    Assert.Contains("in bind 'ipc://*'", output, StringComparison.Ordinal);
                }

                Assert.Empty(Directory.GetFileSystemEntries(directory)); // libzmq removed the directory it made for the socket
            }
            finally
            {
                Directory.Delete(directory, recursive: true);
            }
        }

        private static void AssertMalformed(string endpoint, string reason, Action call)
        {
            ArgumentException e = Assert.Throws<ArgumentException>(call);
            Assert.Equal("endpoint", e.ParamName);
            string quoted = endpoint.Length <= 200 ? "'" + endpoint + "'" : "'" + endpoint.Substring(0, 200);
            Assert.Contains(quoted, e.Message, StringComparison.Ordinal);
            Assert.Contains(reason, e.Message, StringComparison.Ordinal);
        }

        private static string PortOf(string endpoint)
        {
            int colon = endpoint.LastIndexOf(':');
            int end = endpoint.IndexOf('/', colon);
            string port = end < 0 ? endpoint.Substring(colon + 1) : endpoint.Substring(colon + 1, end - colon - 1);
            return int.Parse(port, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture);
        }
    }
}
