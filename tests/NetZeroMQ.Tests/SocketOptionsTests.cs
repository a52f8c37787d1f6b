using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Text;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    public class SocketOptionsTests
    {
        /// <summary>Draft options that libzmq only accepts when built with the draft API (EINVAL otherwise, per libzmq-facts §4).</summary>
        private static readonly HashSet<string> s_draftGated = new HashSet<string>
        {
            nameof(SocketOptions.RouterNotify), nameof(SocketOptions.InBatchSize), nameof(SocketOptions.OutBatchSize),
            nameof(SocketOptions.Priority),
        };

        /// <summary>For each readable-and-writable option: the socket type it applies to and a round trip with a non-default value.</summary>
        private static readonly Dictionary<string, (SocketType Type, Action<Socket> RoundTrip)> s_roundTrips =
            new Dictionary<string, (SocketType, Action<Socket>)>
            {
                [nameof(SocketOptions.Affinity)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.Affinity, 3UL)),
                [nameof(SocketOptions.RoutingId)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.RoutingId, Encoding.ASCII.GetBytes("worker-7"))),
                [nameof(SocketOptions.Rate)] = (SocketType.Pub, s => RoundTrip(s, SocketOptions.Rate, 250)),
                [nameof(SocketOptions.RecoveryInterval)] = (SocketType.Pub, s => RoundTrip(s, SocketOptions.RecoveryInterval, TimeSpan.FromMilliseconds(5000))),
                [nameof(SocketOptions.SendBufferSize)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.SendBufferSize, 65536)),
                [nameof(SocketOptions.ReceiveBufferSize)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.ReceiveBufferSize, 32768)),
                [nameof(SocketOptions.Linger)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.Linger, TimeSpan.FromMilliseconds(250))),
                [nameof(SocketOptions.ReconnectInterval)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.ReconnectInterval, TimeSpan.FromMilliseconds(250))),
                [nameof(SocketOptions.Backlog)] = (SocketType.Router, s => RoundTrip(s, SocketOptions.Backlog, 50)),
                [nameof(SocketOptions.ReconnectIntervalMax)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.ReconnectIntervalMax, TimeSpan.FromSeconds(5))),
                [nameof(SocketOptions.MaxMessageSize)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.MaxMessageSize, 5_000_000_000L)),
                [nameof(SocketOptions.SendHighWatermark)] = (SocketType.Push, s => RoundTrip(s, SocketOptions.SendHighWatermark, 7)),
                [nameof(SocketOptions.ReceiveHighWatermark)] = (SocketType.Pull, s => RoundTrip(s, SocketOptions.ReceiveHighWatermark, 9)),
                [nameof(SocketOptions.MulticastHops)] = (SocketType.Pub, s => RoundTrip(s, SocketOptions.MulticastHops, 4)),
                [nameof(SocketOptions.ReceiveTimeout)] = (SocketType.Pull, s => RoundTrip(s, SocketOptions.ReceiveTimeout, TimeSpan.FromMilliseconds(1234))),
                [nameof(SocketOptions.SendTimeout)] = (SocketType.Push, s => RoundTrip(s, SocketOptions.SendTimeout, TimeSpan.FromMilliseconds(4321))),
                [nameof(SocketOptions.IPv4Only)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.IPv4Only, false)),
                [nameof(SocketOptions.TcpKeepalive)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.TcpKeepalive, 1)),
                [nameof(SocketOptions.TcpKeepaliveCount)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.TcpKeepaliveCount, 5)),
                [nameof(SocketOptions.TcpKeepaliveIdle)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.TcpKeepaliveIdle, 60)),
                [nameof(SocketOptions.TcpKeepaliveInterval)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.TcpKeepaliveInterval, 10)),
                [nameof(SocketOptions.Immediate)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.Immediate, true)),
                [nameof(SocketOptions.IPv6)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.IPv6, true)),
                [nameof(SocketOptions.PlainServer)] = (SocketType.Router, s => RoundTrip(s, SocketOptions.PlainServer, true)),
                [nameof(SocketOptions.PlainUsername)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.PlainUsername, "admin")),
                [nameof(SocketOptions.PlainPassword)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.PlainPassword, "s3cr3t")),
                [nameof(SocketOptions.CurveServer)] = (SocketType.Router, s => RoundTrip(s, SocketOptions.CurveServer, true)),
                [nameof(SocketOptions.CurvePublicKey)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.CurvePublicKey, Key(1))),
                [nameof(SocketOptions.CurveSecretKey)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.CurveSecretKey, Key(2))),
                [nameof(SocketOptions.CurveServerKey)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.CurveServerKey, Key(3))),
                [nameof(SocketOptions.Conflate)] = (SocketType.Pull, s => RoundTrip(s, SocketOptions.Conflate, true)),
                [nameof(SocketOptions.ZapDomain)] = (SocketType.Router, s => RoundTrip(s, SocketOptions.ZapDomain, "global")),
                [nameof(SocketOptions.TypeOfService)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.TypeOfService, 0x10)),
                [nameof(SocketOptions.GssapiServer)] = (SocketType.Router, s => RoundTrip(s, SocketOptions.GssapiServer, true)),
                [nameof(SocketOptions.GssapiPrincipal)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.GssapiPrincipal, "client@EXAMPLE.ORG")),
                [nameof(SocketOptions.GssapiServicePrincipal)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.GssapiServicePrincipal, "zmq/server@EXAMPLE.ORG")),
                [nameof(SocketOptions.GssapiPlaintext)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.GssapiPlaintext, true)),
                [nameof(SocketOptions.HandshakeInterval)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.HandshakeInterval, TimeSpan.FromSeconds(5))),
                [nameof(SocketOptions.SocksProxy)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.SocksProxy, "127.0.0.1:1080")),
                [nameof(SocketOptions.InvertMatching)] = (SocketType.Sub, s => RoundTrip(s, SocketOptions.InvertMatching, true)),
                [nameof(SocketOptions.HeartbeatInterval)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.HeartbeatInterval, TimeSpan.FromMilliseconds(1500))),
                [nameof(SocketOptions.HeartbeatTimeToLive)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.HeartbeatTimeToLive, TimeSpan.FromMilliseconds(2500))),
                [nameof(SocketOptions.HeartbeatTimeout)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.HeartbeatTimeout, TimeSpan.FromMilliseconds(3500))),
                [nameof(SocketOptions.ConnectTimeout)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.ConnectTimeout, TimeSpan.FromMilliseconds(750))),
                [nameof(SocketOptions.TcpMaxRetransmitTimeout)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.TcpMaxRetransmitTimeout, TimeSpan.FromMilliseconds(9000))),
                [nameof(SocketOptions.MulticastMaxTpdu)] = (SocketType.Pub, s => RoundTrip(s, SocketOptions.MulticastMaxTpdu, 1400)),
                [nameof(SocketOptions.UseFd)] = (SocketType.Router, s =>
                {
                    // UseFd takes only a listening socket (anything else would abort libzmq at Bind); this one is never bound.
                    using var listener = new System.Net.Sockets.Socket(System.Net.Sockets.AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, System.Net.Sockets.ProtocolType.Tcp);
                    listener.Bind(new System.Net.IPEndPoint(System.Net.IPAddress.Loopback, 0));
                    listener.Listen(1);
                    RoundTrip(s, SocketOptions.UseFd, (int)listener.SafeHandle.DangerousGetHandle());
                }),
                [nameof(SocketOptions.GssapiPrincipalNameType)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.GssapiPrincipalNameType, 1)),
                [nameof(SocketOptions.GssapiServicePrincipalNameType)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.GssapiServicePrincipalNameType, 2)),
                [nameof(SocketOptions.BindToDevice)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.BindToDevice, "lo")),
                [nameof(SocketOptions.ZapEnforceDomain)] = (SocketType.Router, s => RoundTrip(s, SocketOptions.ZapEnforceDomain, true)),
                [nameof(SocketOptions.LoopbackFastPath)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.LoopbackFastPath, true)),
                [nameof(SocketOptions.MulticastLoop)] = (SocketType.Pub, s => RoundTrip(s, SocketOptions.MulticastLoop, false)),
                [nameof(SocketOptions.RouterNotify)] = (SocketType.Router, s => RoundTrip(s, SocketOptions.RouterNotify, 3)),
                [nameof(SocketOptions.SocksUsername)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.SocksUsername, "proxyuser")),
                [nameof(SocketOptions.SocksPassword)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.SocksPassword, "proxypass")),
                [nameof(SocketOptions.InBatchSize)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.InBatchSize, 4096)),
                [nameof(SocketOptions.OutBatchSize)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.OutBatchSize, 4096)),
                [nameof(SocketOptions.ReconnectStop)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.ReconnectStop, 1)),
                [nameof(SocketOptions.Priority)] = (SocketType.Dealer, s => RoundTrip(s, SocketOptions.Priority, 3)),
            };

        /// <summary>
        /// GSSAPI options, which libzmq only accepts when built with GSSAPI (EINVAL otherwise): Debian's libzmq is,
        /// NetZeroMQ.Native's is not (it would need the Kerberos libraries at run time).
        /// </summary>
        private static readonly HashSet<string> s_gssapiGated = new HashSet<string>
        {
            nameof(SocketOptions.GssapiServer), nameof(SocketOptions.GssapiPrincipal), nameof(SocketOptions.GssapiServicePrincipal),
            nameof(SocketOptions.GssapiPlaintext), nameof(SocketOptions.GssapiPrincipalNameType),
            nameof(SocketOptions.GssapiServicePrincipalNameType),
        };

        public static TheoryData<string> ReadWriteOptions =>
            ToTheoryData(s_roundTrips.Keys.Where(n => !s_draftGated.Contains(n) && !s_gssapiGated.Contains(n)));

        public static TheoryData<string> DraftGatedOptions => ToTheoryData(s_draftGated);

        public static TheoryData<string> GssapiGatedOptions => ToTheoryData(s_gssapiGated);

        public static TheoryData<string> WriteOnlyOptions => ToTheoryData(Keys().Where(k => k.Access == OptionAccess.Write).Select(k => k.Name));

        public static TheoryData<string> ReadOnlyOptions => ToTheoryData(Keys().Where(k => k.Access == OptionAccess.Read).Select(k => k.Name));

        [Fact]
        public void RoundTripTable_CoversEveryReadWriteOption()
        {
            string[] readWrite = Keys().Where(k => k.Access == OptionAccess.ReadWrite).Select(k => k.Name).OrderBy(n => n).ToArray();

            Assert.Equal(readWrite, s_roundTrips.Keys.OrderBy(n => n).ToArray());
        }

        [Theory]
        [MemberData(nameof(ReadWriteOptions))]
        public void SetOptionGetOption_NonDefaultValue_RoundTrips(string option)
        {
            (SocketType type, Action<Socket> roundTrip) = s_roundTrips[option];
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, type);
            if (option.StartsWith("Curve", StringComparison.Ordinal) && !LoadedLibzmq.HasCurve)
            {
                // Where libzmq has no CURVE, its options are refused as CURVE is (docs/libzmq-versions.md).
                LoadedLibzmq.AssertCurveRefused(() => roundTrip(socket));
                return;
            }

            int id = SocketOptions.ById.Single(o => o.Value.Name == option).Key;
            if (!LibzmqVersions.HasOption(id, LoadedLibzmq.Version))
            {
                // An option newer than the loaded libzmq (docs/libzmq-versions.md): refused naming both versions.
                var e = Assert.Throws<NotSupportedException>(() => roundTrip(socket));
                Assert.Contains("Socket option " + option + " needs libzmq " + LibzmqVersions.OptionSince(id), e.Message);
                return;
            }

            roundTrip(socket);
        }

        [Theory]
        [MemberData(nameof(DraftGatedOptions))]
        public void SetOptionGetOption_DraftOnlyOption_RoundTripsOrIsRejectedByName(string option) =>
            RoundTripsOrIsRejectedByName(option, "draft");

        [Theory]
        [MemberData(nameof(GssapiGatedOptions))]
        public void SetOptionGetOption_GssapiOption_RoundTripsOrIsRejectedByName(string option) =>
            RoundTripsOrIsRejectedByName(option, "gssapi");

        /// <summary>The option round-trips where the loaded libzmq has the capability, and is rejected by name where it has not.</summary>
        private static void RoundTripsOrIsRejectedByName(string option, string capability)
        {
            (SocketType type, Action<Socket> roundTrip) = s_roundTrips[option];
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, type);
            int id = SocketOptions.ById.Single(o => o.Value.Name == option).Key;
            if (capability != "draft" && !LibzmqVersions.HasOption(id, LoadedLibzmq.Version))
            {
                // An option newer than the loaded libzmq (the GSSAPI name types came in 4.2.3; a draft-only option on a build
                // without the draft API says that first): refused naming both versions.
                var refusal = Assert.Throws<NotSupportedException>(() => roundTrip(socket));
                Assert.Contains("Socket option " + option + " needs libzmq " + LibzmqVersions.OptionSince(id), refusal.Message);
                return;
            }

            if (Context.Has(capability))
            {
                roundTrip(socket);
            }
            else if (capability == "draft")
            {
                // Refused before libzmq is called (libzmq's own answer would be a bare EINVAL, like a bad value).
                NotSupportedException e = Assert.Throws<NotSupportedException>(() => roundTrip(socket));
                Assert.Contains("Socket option " + option + " needs libzmq's draft API", e.Message);
            }
            else
            {
                ZmqException e = Assert.Throws<ZmqException>(() => roundTrip(socket));
                Assert.Equal(ZmqError.InvalidArgument, e.Error);
                Assert.Equal(option, e.Option);
                Assert.Contains(option, e.Message);
            }
        }

        [Theory]
        [MemberData(nameof(WriteOnlyOptions))]
        public void GetOption_WriteOnlyOption_ThrowsInvalidOperation(string option)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);

            var e = Assert.Throws<InvalidOperationException>(() => Invoke(nameof(Socket.GetOption), socket, option));

            Assert.Contains(option, e.Message);
        }

        [Theory]
        [MemberData(nameof(ReadOnlyOptions))]
        public void SetOption_ReadOnlyOption_ThrowsInvalidOperation(string option)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);

            var e = Assert.Throws<InvalidOperationException>(() => Invoke(nameof(Socket.SetOption), socket, option));

            Assert.Contains(option, e.Message);
        }

        [Theory]
        [MemberData(nameof(ReadOnlyOptions))]
        public void SetOptionRaw_ReadOnlyOption_ThrowsInvalidOperation(string option)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);
            int id = Keys().Single(k => k.Name == option).Id;

            Assert.Throws<InvalidOperationException>(() => socket.SetOptionRaw(id, new byte[4]));
        }

        [Theory]
        [MemberData(nameof(WriteOnlyOptions))]
        public void GetOptionRaw_WriteOnlyOption_ThrowsInvalidOperation(string option)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);
            int id = Keys().Single(k => k.Name == option).Id;

            Assert.Throws<InvalidOperationException>(() => socket.GetOptionRaw(id, new byte[256]));
        }

        [Fact]
        public void GetOption_ReadOnlyOptions_ReportTheSocketsState()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Router);

            Assert.Equal((int)SocketType.Router, socket.GetOption(SocketOptions.Type));
            Assert.Equal(0, socket.GetOption(SocketOptions.Mechanism));
            if (LoadedLibzmq.Has(SocketOptions.ThreadSafe))
            {
                Assert.False(socket.GetOption(SocketOptions.ThreadSafe));
            }
            else
            {
                LoadedLibzmq.AssertRefused(SocketOptions.ThreadSafe, () => socket.GetOption(SocketOptions.ThreadSafe)); // 4.2.0
            }

            Assert.False(socket.GetOption(SocketOptions.HasMore));
            Assert.Equal(string.Empty, socket.GetOption(SocketOptions.LastEndpoint));
            Assert.Equal(0, socket.GetOption(SocketOptions.Events) & (int)PollEvents.In);

            socket.Bind("tcp://127.0.0.1:*");
            Assert.StartsWith("tcp://127.0.0.1:", socket.LastEndpoint);
            Assert.NotEqual("tcp://127.0.0.1:*", socket.LastEndpoint);

            socket.SetOption(SocketOptions.PlainServer, true);
            Assert.Equal(1, socket.GetOption(SocketOptions.Mechanism));
        }

        [Theory]
        [InlineData(0)]
        [InlineData(2)]
        [InlineData(8)]
        public void SetOptionRaw_WrongSizeForIntOption_ThrowsArgumentException(int size)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Push);

            Assert.Throws<ArgumentException>(() => socket.SetOptionRaw(SocketOptions.SendHighWatermark.Id, new byte[size]));
            Assert.Equal(1000, socket.SendHighWatermark);
        }

        [Fact]
        public void SetOptionRaw_InvalidRoutingIds_ThrowSameArgumentExceptionsAsTypedSetter()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);

            Assert.Throws<ArgumentException>(() => socket.SetOptionRaw(SocketOptions.RoutingId.Id, Array.Empty<byte>()));
            Assert.Throws<ArgumentException>(() => socket.SetOptionRaw(SocketOptions.RoutingId.Id, new byte[256]));
            Assert.Throws<ArgumentException>(() => socket.SetOptionRaw(SocketOptions.RoutingId.Id, new byte[] { 0, 1 }));
            socket.SetOptionRaw(SocketOptions.RoutingId.Id, new byte[] { 7, 1 });
            Assert.Equal(new byte[] { 7, 1 }, socket.RoutingId);
        }

        [Fact]
        public void SetOptionRaw_WrongSizeForInt64Option_ThrowsArgumentException()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);

            Assert.Throws<ArgumentException>(() => socket.SetOptionRaw(SocketOptions.MaxMessageSize.Id, BitConverter.GetBytes(1000)));
            Assert.Throws<ArgumentException>(() => socket.SetOptionRaw(SocketOptions.Affinity.Id, new byte[4]));
        }

        [Theory]
        [InlineData(31)]
        [InlineData(33)]
        [InlineData(0)]
        public void SetOptionRaw_WrongSizeForCurveKey_ThrowsArgumentException(int size)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);

            Assert.Throws<ArgumentException>(() => socket.SetOptionRaw(SocketOptions.CurveServerKey.Id, new byte[size]));
        }

        [Fact]
        public void SetOptionRaw_Z85TextCurveKey_AcceptedAsTheSameKey()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            // The well-known test key pair from the zmq_curve man page / libzmq tests.
            const string PublicZ85 = "Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID";
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);

            socket.SetOptionRaw(SocketOptions.CurveServerKey.Id, Encoding.ASCII.GetBytes(PublicZ85));
            var z85 = new byte[41];
            int written = socket.GetOptionRaw(SocketOptions.CurveServerKey.Id, z85);

            Assert.Equal(41, written);
            Assert.Equal(PublicZ85, Encoding.ASCII.GetString(z85, 0, 40));
            Assert.Equal(32, socket.GetOption(SocketOptions.CurveServerKey).Length);
        }

        [Theory]
        [InlineData(0)]
        [InlineData(3)]
        [InlineData(8)]
        public void GetOptionRaw_WrongSizeForIntOption_ThrowsArgumentException(int size)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);

            Assert.Throws<ArgumentException>(() => socket.GetOptionRaw(SocketOptions.Linger.Id, new byte[size]));
        }

        [Fact]
        public void SetOptionRawGetOptionRaw_RightSizes_RoundTripNativeLayout()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Push);

            socket.SetOptionRaw(SocketOptions.SendHighWatermark.Id, BitConverter.GetBytes(77));
            socket.SetOptionRaw(SocketOptions.MaxMessageSize.Id, BitConverter.GetBytes(123_456_789_012L));
            var int32 = new byte[4];
            var int64 = new byte[8];

            Assert.Equal(4, socket.GetOptionRaw(SocketOptions.SendHighWatermark.Id, int32));
            Assert.Equal(8, socket.GetOptionRaw(SocketOptions.MaxMessageSize.Id, int64));
            Assert.Equal(77, BitConverter.ToInt32(int32));
            Assert.Equal(123_456_789_012L, BitConverter.ToInt64(int64));
            Assert.Equal(77, socket.SendHighWatermark);
        }

        [Fact]
        public void SetOption_UnknownOptionNumber_ThrowsInvalidArgumentNamingTheOption()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);
            var bogus = SocketOptions.CustomInt32(9999, "Bogus");

            ZmqException e = Assert.Throws<ZmqException>(() => socket.SetOption(bogus, 1));

            Assert.Equal(ZmqError.InvalidArgument, e.Error);
            Assert.Equal("Bogus", e.Option);
            Assert.Contains("Bogus", e.Message);
            Assert.Null(e.Endpoint);
        }

        [Fact]
        public void GetOption_UnknownOptionNumber_ThrowsInvalidArgumentNamingTheOption()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);
            var bogus = SocketOptions.CustomInt32(9999, "Bogus");

            ZmqException e = Assert.Throws<ZmqException>(() => socket.GetOption(bogus));

            Assert.Equal(ZmqError.InvalidArgument, e.Error);
            Assert.Equal("Bogus", e.Option);
            Assert.Contains("Bogus", e.Message);
        }

        [Fact]
        public void SetOptionRaw_UnknownOptionNumber_ThrowsInvalidArgumentNamingTheNumber()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);

            ZmqException e = Assert.Throws<ZmqException>(() => socket.SetOptionRaw(9999, new byte[4]));

            Assert.Equal(ZmqError.InvalidArgument, e.Error);
            Assert.Equal("9999", e.Option);
        }

        [Fact]
        public void SetOption_ValidOptionWrongSocketType_ThrowsInvalidArgumentNamingTheOption()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Push);

            ZmqException e = Assert.Throws<ZmqException>(() => socket.Subscribe("topic"));

            Assert.Equal(ZmqError.InvalidArgument, e.Error);
            Assert.Equal(nameof(SocketOptions.Subscribe), e.Option);
        }

        [Theory]
        [InlineData(0)]
        [InlineData(256)]
        public void RoutingId_WrongLength_ThrowsArgumentException(int length)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);
            byte[] id = Enumerable.Repeat((byte)'x', length).ToArray();

            Assert.Throws<ArgumentException>(() => socket.RoutingId = id);
            Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOptions.RoutingId, id.AsSpan()));
            Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOptions.ConnectRoutingId, id));
        }

        [Fact]
        public void RoutingId_LeadingZeroByte_ThrowsArgumentException()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Router);

            Assert.Throws<ArgumentException>(() => socket.RoutingId = new byte[] { 0, 1, 2 });
            Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOptions.ConnectRoutingId, new byte[] { 0 }));
            Assert.Empty(socket.RoutingId);
        }

        [Fact]
        public void RoutingId_Null_ThrowsArgumentNullException()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);

            Assert.Throws<ArgumentNullException>(() => socket.RoutingId = null!);
        }

        [Theory]
        [InlineData(1)]
        [InlineData(255)]
        public void RoutingId_BoundaryLengths_RoundTrip(int length)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);
            byte[] id = Enumerable.Range(1, length).Select(i => (byte)(i % 255 + 1)).ToArray();

            socket.RoutingId = id;

            Assert.Equal(id, socket.RoutingId);
        }

        [Theory]
        [InlineData(31)]
        [InlineData(33)]
        [InlineData(40)]
        public void SetOption_CurveKeyNot32Bytes_ThrowsArgumentException(int length)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);

            Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOptions.CurvePublicKey, new byte[length]));
            Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOptions.CurveSecretKey, new byte[length]));
            Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOptions.CurveServerKey, new byte[length].AsSpan()));
            Assert.Equal(0, socket.GetOption(SocketOptions.Mechanism)); // nothing reached libzmq
        }

        [Fact]
        public void TimeSpanOption_Infinite_RoundTripsAsMinusOne()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Dealer);

            socket.ReceiveTimeout = Timeout.InfiniteTimeSpan;
            socket.Linger = Timeout.InfiniteTimeSpan;

            Assert.Equal(Timeout.InfiniteTimeSpan, socket.ReceiveTimeout);
            Assert.Equal(Timeout.InfiniteTimeSpan, socket.Linger);
            var raw = new byte[4];
            socket.GetOptionRaw(SocketOptions.ReceiveTimeout.Id, raw);
            Assert.Equal(-1, BitConverter.ToInt32(raw));
        }

        [Fact]
        public void TimeSpanOption_Zero_RoundTrips()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Dealer);

            socket.SendTimeout = TimeSpan.Zero;

            Assert.Equal(TimeSpan.Zero, socket.SendTimeout);
        }

        [Fact]
        public void TimeSpanOption_SubMillisecond_RoundsUpSoItNeverBecomesNonBlocking()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Dealer);

            socket.ReceiveTimeout = TimeSpan.FromTicks(1);

            Assert.Equal(TimeSpan.FromMilliseconds(1), socket.ReceiveTimeout);
        }

        [Theory]
        [InlineData(-1)]
        [InlineData(-2)]
        [InlineData(-1000)]
        public void TimeSpanOption_Negative_ThrowsArgumentOutOfRange(int milliseconds)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Dealer);
            TimeSpan negative = TimeSpan.FromMilliseconds(milliseconds) - TimeSpan.FromTicks(1);

            Assert.Throws<ArgumentOutOfRangeException>(() => socket.ReceiveTimeout = negative);
            Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOption(SocketOptions.HandshakeInterval, negative));
            Assert.Equal(TestTimeouts.Expected, socket.ReceiveTimeout);
        }

        [Fact]
        public void TimeSpanOption_BeyondInt32Milliseconds_ThrowsArgumentOutOfRange()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Dealer);

            Assert.Throws<ArgumentOutOfRangeException>(() => socket.SendTimeout = TimeSpan.FromDays(30));
        }

        [Fact]
        public void Linger_NewSocket_StartsAtContextsDefaultLinger()
        {
            using var context = new Context();
            using (var standard = new Socket(context, SocketType.Dealer))
            {
                Assert.Equal(Context.StandardLinger, context.DefaultLinger);
                Assert.Equal(Context.StandardLinger, standard.Linger);
            }

            context.DefaultLinger = TimeSpan.FromMilliseconds(250);
            using (var custom = new Socket(context, SocketType.Dealer))
            {
                Assert.Equal(TimeSpan.FromMilliseconds(250), custom.Linger);
            }

            context.DefaultLinger = Timeout.InfiniteTimeSpan;
            using (var infinite = new Socket(context, SocketType.Dealer))
            {
                Assert.Equal(Timeout.InfiniteTimeSpan, infinite.Linger);
                infinite.Linger = TimeSpan.Zero; // let the context's disposal finish at once
            }

            context.DefaultLinger = TimeSpan.Zero;
        }

        private static void RoundTrip<T>(Socket socket, SocketOption<T> option, T value)
        {
            T before = Get(socket, option);
            Assert.NotEqual(value, before); // the value must differ from the default, or the round trip proves nothing

            Set(socket, option, value);

            Assert.Equal(value, Get(socket, option));
        }

        /// <summary>The typed GetOption overload of <paramref name="option"/>'s value type, from generic test code.</summary>
        private static T Get<T>(Socket socket, SocketOption<T> option) => (T)((object)option switch
        {
            SocketOption<int> key => socket.GetOption(key),
            SocketOption<long> key => socket.GetOption(key),
            SocketOption<ulong> key => socket.GetOption(key),
            SocketOption<bool> key => socket.GetOption(key),
            SocketOption<TimeSpan> key => socket.GetOption(key),
            SocketOption<string> key => socket.GetOption(key),
            SocketOption<byte[]> key => (object)socket.GetOption(key),
            _ => throw new NotSupportedException(typeof(T).Name),
        });

        /// <summary>The typed SetOption overload of <paramref name="option"/>'s value type, from generic test code.</summary>
        private static void Set<T>(Socket socket, SocketOption<T> option, T value)
        {
            switch ((object)option, (object?)value)
            {
                case (SocketOption<int> key, int v): socket.SetOption(key, v); break;
                case (SocketOption<long> key, long v): socket.SetOption(key, v); break;
                case (SocketOption<ulong> key, ulong v): socket.SetOption(key, v); break;
                case (SocketOption<bool> key, bool v): socket.SetOption(key, v); break;
                case (SocketOption<TimeSpan> key, TimeSpan v): socket.SetOption(key, v); break;
                case (SocketOption<string> key, string v): socket.SetOption(key, v); break;
                case (SocketOption<byte[]> key, byte[] v): socket.SetOption(key, v); break;
                default: throw new NotSupportedException(typeof(T).Name);
            }
        }

        private static byte[] Key(byte seed) => Enumerable.Range(0, 32).Select(i => (byte)(seed * 31 + i)).ToArray();

        private static TheoryData<string> ToTheoryData(IEnumerable<string> names)
        {
            var data = new TheoryData<string>();
            foreach (string name in names.OrderBy(n => n))
            {
                data.Add(name);
            }

            return data;
        }

        /// <summary>Every public key in <see cref="SocketOptions"/>, read by reflection so that a new option cannot be forgotten.</summary>
        private static IEnumerable<(string Name, int Id, OptionAccess Access, object Key)> Keys()
        {
            foreach (FieldInfo field in typeof(SocketOptions).GetFields(BindingFlags.Public | BindingFlags.Static))
            {
                object key = field.GetValue(null)!;
                Type type = key.GetType();
                yield return ((string)type.GetProperty("Name")!.GetValue(key)!, (int)type.GetProperty("Id")!.GetValue(key)!,
                    (OptionAccess)type.GetProperty("Access")!.GetValue(key)!, key);
            }
        }

        /// <summary>Calls the Socket.GetOption or SetOption overload of the option named, with a default value, unwrapping reflection.</summary>
        private static void Invoke(string method, Socket socket, string option)
        {
            object key = Keys().Single(k => k.Name == option).Key;
            Type valueType = key.GetType().GetGenericArguments()[0];
            MethodInfo generic = typeof(Socket).GetMethods().Single(m => m.Name == method
                && m.GetParameters()[0].ParameterType == key.GetType()
                && (method == nameof(Socket.GetOption) || m.GetParameters()[1].ParameterType == valueType));
            object? value = valueType == typeof(string) ? "x" : valueType == typeof(byte[]) ? new byte[] { 1 }
                : Activator.CreateInstance(valueType);
            object?[] arguments = method == nameof(Socket.GetOption) ? new[] { key } : new[] { key, value };
            try
            {
                generic.Invoke(socket, arguments);
            }
            catch (TargetInvocationException e)
            {
                System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(e.InnerException ?? e).Throw();
            }
        }
    }
}
