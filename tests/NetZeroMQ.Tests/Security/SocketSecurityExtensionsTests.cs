using System;
using System.Text;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Security
{
    public class SocketSecurityExtensionsTests
    {
        private const int MechanismNull = 0;
        private const int MechanismPlain = 1;
        private const int MechanismCurve = 2;

        [Fact]
        public void SetCurveServer_Defaults_SetsEnforcedGlobalDomainAndKeys()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var keys = CurveKeyPair.Generate();
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Router);

            socket.SetCurveServer(keys);

            Assert.Equal(MechanismCurve, socket.GetOption(SocketOptions.Mechanism));
            Assert.True(socket.GetOption(SocketOptions.CurveServer));
            Assert.Equal("global", socket.GetOption(SocketOptions.ZapDomain));
            Assert.True(socket.GetOption(SocketOptions.ZapEnforceDomain));
            Assert.Equal(keys.PublicKey, socket.GetCurveKey(SocketOptions.CurvePublicKey));
        }

        [Theory]
        [InlineData("")]
        [InlineData("a\0b")]
        public void SetCurveServer_InvalidDomain_ThrowsArgumentExceptionAndSetsNothing(string domain)
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            using var keys = CurveKeyPair.Generate();
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Router);

            Assert.Throws<ArgumentException>(() => socket.SetCurveServer(keys, domain));

            Assert.Equal(MechanismNull, socket.GetOption(SocketOptions.Mechanism));
            Assert.False(socket.GetOption(SocketOptions.ZapEnforceDomain));
        }

        [Fact]
        public void SetCurveServer_DomainOver255Bytes_ThrowsArgumentException()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            using var keys = CurveKeyPair.Generate();
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Router);

            Assert.Throws<ArgumentException>(() => socket.SetCurveServer(keys, new string('d', 256)));
        }

        [Fact]
        public void SetCurveServer_DisposedKeys_ThrowsObjectDisposedAndSetsNothing()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            var keys = CurveKeyPair.Generate();
            keys.Dispose();
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Router);

            Assert.Throws<ObjectDisposedException>(() => socket.SetCurveServer(keys));

            Assert.Equal(MechanismNull, socket.GetOption(SocketOptions.Mechanism));
        }

        [Fact]
        public void SetCurveClient_Keys_SetsServerKeyAndOwnKeys()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            using var server = CurveKeyPair.Generate();
            using var client = CurveKeyPair.Generate();
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Dealer);

            socket.SetCurveClient(client, server.PublicKey);

            Assert.Equal(MechanismCurve, socket.GetOption(SocketOptions.Mechanism));
            Assert.False(socket.GetOption(SocketOptions.CurveServer));
            Assert.Equal(server.PublicKey, socket.GetCurveKey(SocketOptions.CurveServerKey));
            Assert.Equal(client.PublicKey, socket.GetCurveKey(SocketOptions.CurvePublicKey));
        }

        [Fact]
        public void SetOption_CurveKeyFromZ85_SetsPublicKeyOption()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            using var server = CurveKeyPair.Generate();
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Dealer);

            socket.SetOption(SocketOptions.CurveServerKey, CurveKey.FromZ85(server.PublicKey.ToZ85()));

            Assert.Equal(server.PublicKey, socket.GetCurveKey(SocketOptions.CurveServerKey));
        }

        [Fact]
        public void SetOption_CurveKeyOnSecretOrOtherOption_ThrowsArgumentException()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            using var keys = CurveKeyPair.Generate();
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Dealer);

            Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOptions.CurveSecretKey, keys.PublicKey));
            Assert.Throws<ArgumentException>(() => socket.SetOption(SocketOptions.RoutingId, keys.PublicKey));
            Assert.Throws<ArgumentException>(() => socket.GetCurveKey(SocketOptions.CurveSecretKey));
            Assert.Equal(MechanismNull, socket.GetOption(SocketOptions.Mechanism));
        }

        [Fact]
        public void SetPlainServer_Defaults_SetsEnforcedGlobalDomain()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Rep);
            if (!LoadedLibzmq.CanEnforceZap)
            {
                // libzmq 4.1 has no ZapEnforceDomain: refused before anything is set.
                LoadedLibzmq.AssertZapEnforcementRefused(nameof(SocketSecurityExtensions.SetPlainServer), () => socket.SetPlainServer());
                Assert.Equal(MechanismNull, socket.GetOption(SocketOptions.Mechanism));
                Assert.Equal(string.Empty, socket.GetOption(SocketOptions.ZapDomain));
                return;
            }

            socket.SetPlainServer();

            Assert.Equal(MechanismPlain, socket.GetOption(SocketOptions.Mechanism));
            Assert.True(socket.GetOption(SocketOptions.PlainServer));
            Assert.Equal("global", socket.GetOption(SocketOptions.ZapDomain));
            Assert.True(socket.GetOption(SocketOptions.ZapEnforceDomain));
        }

        [Fact]
        public void SetPlainServer_EmptyDomain_ThrowsArgumentException()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Rep);

            var e = Assert.Throws<ArgumentException>(() => socket.SetPlainServer(string.Empty));

            Assert.Contains("must not be empty", e.Message);
            Assert.Equal(MechanismNull, socket.GetOption(SocketOptions.Mechanism));
        }

        [Theory]
        [InlineData("", "password")]
        [InlineData("user", "")]
        [InlineData("user", "pass\0word")]
        public void SetPlainClient_InvalidCredential_ThrowsArgumentExceptionBeforeNativeCall(string username, string password)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Req);

            var e = Assert.Throws<ArgumentException>(() => socket.SetPlainClient(username, password));

            Assert.DoesNotContain("Interop", e.StackTrace);
            Assert.Equal(MechanismNull, socket.GetOption(SocketOptions.Mechanism));
        }

        [Fact]
        public void SetPlainClient_Over255Bytes_ThrowsWithoutQuotingPassword()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Req);
            string password = "Tr0ub4dor&3-" + new string('é', 130); // 12 + 260 bytes

            var e = Assert.Throws<ArgumentException>(() => socket.SetPlainClient("user", password));

            Assert.Contains("255", e.Message);
            Assert.DoesNotContain("Tr0ub4dor", e.Message);
            Assert.Equal(MechanismNull, socket.GetOption(SocketOptions.Mechanism));
        }

        [Fact]
        public void SetPlainClient_Credentials_SetsUsernameAndPassword()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Req);

            socket.SetPlainClient("user", "pässword");

            Assert.Equal(MechanismPlain, socket.GetOption(SocketOptions.Mechanism));
            Assert.Equal("user", socket.GetOption(SocketOptions.PlainUsername));
            Assert.Equal("pässword", socket.GetOption(SocketOptions.PlainPassword));
        }

        [Fact]
        public void SetZapDomain_Domain_SetsEnforcedDomainKeepingNullMechanism()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);
            Assert.Throws<ArgumentException>(() => socket.SetZapDomain(string.Empty)); // the argument first, on every version
            if (!LoadedLibzmq.CanEnforceZap)
            {
                LoadedLibzmq.AssertZapEnforcementRefused(nameof(SocketSecurityExtensions.SetZapDomain), () => socket.SetZapDomain("lan"));
                Assert.Equal(string.Empty, socket.GetOption(SocketOptions.ZapDomain));
                return;
            }

            socket.SetZapDomain("lan");

            Assert.Equal(MechanismNull, socket.GetOption(SocketOptions.Mechanism));
            Assert.Equal("lan", socket.GetOption(SocketOptions.ZapDomain));
            Assert.True(socket.GetOption(SocketOptions.ZapEnforceDomain));
            Assert.Throws<ArgumentException>(() => socket.SetZapDomain(string.Empty));
        }

        [Fact]
        public void SetCurveClient_NullArguments_ThrowArgumentNull()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            using var keys = CurveKeyPair.Generate();
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Req);

            Assert.Throws<ArgumentNullException>(() => socket.SetCurveClient(null!, keys.PublicKey));
            Assert.Throws<ArgumentNullException>(() => socket.SetCurveClient(keys, null!));
            Assert.Throws<ArgumentNullException>(() => SocketSecurityExtensions.SetCurveServer(null!, keys));
        }
    }
}
