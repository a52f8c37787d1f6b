using System;
using System.Text;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Security
{
    /// <summary>
    /// CURVE and PLAIN between NetZeroMQ and pyzmq (Debian's python3-zmq on the same libzmq), in both directions, with keys
    /// made on one side and used on the other. Each script prints what it received; the tests assert the bytes.
    /// </summary>
    public class PyzmqInteropTests
    {
        private const string Timeouts = "s.linger = 0; s.rcvtimeo = 10000; s.sndtimeo = 10000\n";

        private const string CurveClientScript = @"
import sys, zmq
endpoint, server_public, client_public, client_secret = sys.argv[1:5]
ctx = zmq.Context()
s = ctx.socket(zmq.REQ)
" + Timeouts + @"
s.curve_serverkey = server_public.encode()
s.curve_publickey = client_public.encode()
s.curve_secretkey = client_secret.encode()
s.connect(endpoint)
s.send(b'hello from pyzmq \x00\xff')
try:
    print('REPLY ' + s.recv().hex())
except zmq.Again:
    print('TIMEOUT')
s.close(); ctx.term()
";

        private const string CurveServerScript = @"
import sys, zmq
from zmq.auth.thread import ThreadAuthenticator
allowed = sys.argv[1].encode()
ctx = zmq.Context()
auth = ThreadAuthenticator(ctx); auth.start()
class Keys:
    def callback(self, domain, key):
        return key == allowed
auth.configure_curve_callback(domain='*', credentials_provider=Keys())
public, secret = zmq.curve_keypair()
s = ctx.socket(zmq.REP)
" + Timeouts + @"
s.curve_server = True; s.curve_secretkey = secret; s.curve_publickey = public
s.bind('tcp://127.0.0.1:*')
print('SERVERKEY ' + public.decode())
print('ENDPOINT ' + s.last_endpoint.decode())
frame = s.recv(copy=False)
print('RECEIVED ' + frame.bytes.hex() + ' USER ' + (frame.get('User-Id') or ''))
s.send(b'pong from pyzmq')
s.close(); auth.stop(); ctx.term()
";

        private const string PlainClientScript = @"
import sys, zmq
endpoint, user, password = sys.argv[1:4]
ctx = zmq.Context()
s = ctx.socket(zmq.REQ)
" + Timeouts + @"
s.plain_username = user.encode(); s.plain_password = password.encode()
s.connect(endpoint)
s.send(b'plain from pyzmq')
try:
    print('REPLY ' + s.recv().hex())
except zmq.Again:
    print('TIMEOUT')
s.close(); ctx.term()
";

        private const string PlainServerScript = @"
import sys, zmq
from zmq.auth.thread import ThreadAuthenticator
user, password = sys.argv[1:3]
ctx = zmq.Context()
auth = ThreadAuthenticator(ctx); auth.start()
auth.configure_plain(domain='*', passwords={user: password})
s = ctx.socket(zmq.REP)
" + Timeouts + @"
s.plain_server = True
s.bind('tcp://127.0.0.1:*')
print('ENDPOINT ' + s.last_endpoint.decode())
frame = s.recv(copy=False)
print('RECEIVED ' + frame.bytes.hex() + ' USER ' + (frame.get('User-Id') or ''))
s.send(b'plain pong from pyzmq')
s.close(); auth.stop(); ctx.term()
";

        private const string KeypairScript = @"
import zmq
public, secret = zmq.curve_keypair()
print('PUBLIC ' + public.decode())
print('SECRET ' + secret.decode())
";

        [Fact]
        public void CurveServer_PyzmqClientWithDotNetKeys_RoundTripsBytes()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var clientKeys = CurveKeyPair.Generate(); // made here, used by pyzmq
            using Context context = Zmq.NewContext();
            using var authenticator = new ZapAuthenticator(context);
            authenticator.AllowCurveKey(clientKeys.PublicKey, "py-client");
            using Socket server = Zmq.NewSocket(context, SocketType.Rep);
            server.SetCurveServer(serverKeys);
            string endpoint = Transports.BindAnywhere(server, "tcp");
            using var python = new PythonPeer(CurveClientScript, endpoint, serverKeys.PublicKey.ToZ85(), clientKeys.PublicKey.ToZ85(), clientKeys.SecretKeyToZ85());

            using var request = new Message();
            server.Recv(request);
            Assert.Equal(Encoding.ASCII.GetBytes("hello from pyzmq \0\u00ff").Length, request.Size);
            Assert.Equal(new byte[] { 0x20, 0x00, 0xFF }, request.Data.Slice(request.Size - 3).ToArray());
            Assert.Equal("py-client", request.UserId);
            server.Send(new byte[] { 0x00, 0x01, 0xFE, 0xFF, (byte)'n', (byte)'z' });

            Assert.Equal("REPLY 0001feff6e7a", python.ReadLine());
            Assert.Equal(0, python.WaitForExit());
        }

        [Fact]
        public void CurveServer_PyzmqClientWithUnknownKey_RejectedAndGetsNoReply()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var allowed = CurveKeyPair.Generate();
            using var stranger = CurveKeyPair.Generate();
            using Context context = Zmq.NewContext();
            using var authenticator = new ZapAuthenticator(context);
            authenticator.AllowCurveKey(allowed.PublicKey);
            using Socket server = Zmq.NewSocket(context, SocketType.Rep);
            server.SetCurveServer(serverKeys);
            // A libzmq 4.2 release build never reports a success: its refusal asserted, the failures monitored.
            using SocketMonitor monitor = LoadedLibzmq.MonitorOrAssertRefused(server, MonitorEvents.HandshakeFailed | MonitorEvents.HandshakeSucceeded)!;
            string endpoint = Transports.BindAnywhere(server, "tcp");
            using var python = new PythonPeer(CurveClientScript, endpoint, serverKeys.PublicKey.ToZ85(), stranger.PublicKey.ToZ85(), stranger.SecretKeyToZ85());

            MonitorEvent outcome = monitor.Recv(TestTimeouts.Expected);

            Assert.Equal(MonitorEvents.HandshakeFailedAuth, outcome.Kind);
            Assert.Equal(400, outcome.ZapStatusCode);
            python.Dispose(); // its receive would wait 10 s for a reply that never comes
            server.ReceiveTimeout = TestTimeouts.Absent;
            Assert.False(server.TryRecvString(out _));
        }

        [Fact]
        public void CurveClient_PyzmqServerWithPyzmqKey_RoundTripsBytes()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            using var clientKeys = CurveKeyPair.Generate();
            using var python = new PythonPeer(CurveServerScript, clientKeys.PublicKey.ToZ85());
            CurveKey serverKey = CurveKey.FromZ85(python.ReadValue("SERVERKEY")); // made by pyzmq, used here
            string endpoint = python.ReadValue("ENDPOINT");
            using Context context = Zmq.NewContext();
            using Socket client = Zmq.NewSocket(context, SocketType.Req);
            client.SetCurveClient(clientKeys, serverKey);
            client.Connect(endpoint);

            client.Send(new byte[] { 0x00, 0x7F, 0x80, 0xFF });

            Assert.Equal("pong from pyzmq", client.RecvString());
            Assert.Equal("RECEIVED 007f80ff USER " + clientKeys.PublicKey.ToZ85(), python.ReadLine());
            Assert.Equal(0, python.WaitForExit());
        }

        [Fact]
        public void PlainServer_PyzmqClientRightPassword_RoundTrips()
        {
            using Context context = Zmq.NewContext();
            using var authenticator = new ZapAuthenticator(context);
            authenticator.AddPlainUser("pyuser", "py-pässword");
            using Socket server = Zmq.NewSocket(context, SocketType.Rep);
            if (LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                server.SetPlainServer();
            }
            else
            {
                // libzmq 4.1: the raw options, which authenticate while the authenticator runs.
                server.SetOption(SocketOptions.PlainServer, true);
                server.SetOption(SocketOptions.ZapDomain, "global");
            }
            string endpoint = Transports.BindAnywhere(server, "tcp");
            using var python = new PythonPeer(PlainClientScript, endpoint, "pyuser", "py-pässword");

            using var request = new Message();
            server.Recv(request);
            Assert.Equal("plain from pyzmq", request.GetString());
            Assert.Equal("pyuser", request.UserId);
            server.Send("ok");

            Assert.Equal("REPLY " + Convert.ToHexString(Encoding.ASCII.GetBytes("ok")).ToLowerInvariant(), python.ReadLine());
            Assert.Equal(0, python.WaitForExit());
        }

        [Fact]
        public void PlainServer_PyzmqClientWrongPassword_RejectedWith400()
        {
            using Context context = Zmq.NewContext();
            using var authenticator = new ZapAuthenticator(context);
            authenticator.AddPlainUser("pyuser", "right");
            using Socket server = Zmq.NewSocket(context, SocketType.Rep);
            if (!LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                // libzmq 4.1: the raw options, and the outcome read from the authenticator (4.1 has no handshake events).
                using var denied = new SemaphoreSlim(0);
                int status = 0;
                authenticator.Decided += (_, e) =>
                {
                    status = e.Decision.StatusCode;
                    denied.Release();
                };
                server.SetOption(SocketOptions.PlainServer, true);
                server.SetOption(SocketOptions.ZapDomain, "global");
                using var rejected = new PythonPeer(PlainClientScript, Transports.BindAnywhere(server, "tcp"), "pyuser", "wrong");
                Assert.True(denied.Wait(TestTimeouts.Expected), "the authenticator was never asked");
                Assert.Equal(400, status);
                rejected.Dispose();
                server.ReceiveTimeout = TestTimeouts.Absent;
                Assert.False(server.TryRecvString(out _));
                return;
            }

            server.SetPlainServer();
            // A libzmq 4.2 release build never reports a success: its refusal asserted, the failures monitored.
            using SocketMonitor monitor = LoadedLibzmq.MonitorOrAssertRefused(server, MonitorEvents.HandshakeFailed | MonitorEvents.HandshakeSucceeded)!;
            string endpoint = Transports.BindAnywhere(server, "tcp");
            using var python = new PythonPeer(PlainClientScript, endpoint, "pyuser", "wrong");

            MonitorEvent outcome = monitor.Recv(TestTimeouts.Expected);

            Assert.Equal(400, outcome.ZapStatusCode);
        }

        [Fact]
        public void PlainClient_PyzmqServer_RoundTripsWithUserId()
        {
            using var python = new PythonPeer(PlainServerScript, "dotnet", "s3cr3t");
            string endpoint = python.ReadValue("ENDPOINT");
            using Context context = Zmq.NewContext();
            using Socket client = Zmq.NewSocket(context, SocketType.Req);
            client.SetPlainClient("dotnet", "s3cr3t");
            client.Connect(endpoint);

            client.Send("from .NET");

            Assert.Equal("plain pong from pyzmq", client.RecvString());
            Assert.Equal("RECEIVED " + Convert.ToHexString(Encoding.ASCII.GetBytes("from .NET")).ToLowerInvariant() + " USER dotnet", python.ReadLine());
            Assert.Equal(0, python.WaitForExit());
        }

        [Fact]
        public void FromSecretKey_PyzmqKeypair_DerivesPyzmqPublicKey()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            using var python = new PythonPeer(KeypairScript);
            string publicText = python.ReadValue("PUBLIC");
            string secretText = python.ReadValue("SECRET");

            using var pair = CurveKeyPair.FromSecretKey(secretText);

            Assert.Equal(publicText, pair.PublicKey.ToZ85());
            Assert.Equal(CurveKey.FromZ85(publicText), pair.PublicKey);
            Assert.Equal(0, python.WaitForExit());
        }
    }
}
