using System;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Security
{
    public class ZapAuthenticatorTests
    {
        public static TheoryData<string> SecureTransports => new TheoryData<string> { "tcp", "ipc" };

        [Theory]
        [MemberData(nameof(SecureTransports))]
        public void AllowCurveKey_AllowedKey_RoundTripsWithUserId(string transport)
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var clientKeys = CurveKeyPair.Generate();
            using var rig = new SecureRig();
            using var authenticator = new ZapAuthenticator(rig.Context);
            authenticator.AllowCurveKey(clientKeys.PublicKey, "alice");
            rig.Server.SetCurveServer(serverKeys);
            rig.Client.SetCurveClient(clientKeys, serverKeys.PublicKey);
            rig.Start(transport);

            rig.AssertSucceeded();
            var (request, userId, reply) = rig.RoundTrip("ping");
            Assert.Equal("ping", request);
            Assert.Equal("alice", userId);
            Assert.Equal("re: ping", reply);
            Assert.Equal(2, rig.Server.GetOption(SocketOptions.Mechanism)); // CURVE
        }

        [Fact]
        public void AllowCurveKey_UnknownKey_RejectedWithStatus400()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var allowedKeys = CurveKeyPair.Generate();
            using var strangerKeys = CurveKeyPair.Generate();
            using var rig = new SecureRig();
            using var authenticator = new ZapAuthenticator(rig.Context);
            rig.Watch(authenticator);
            authenticator.AllowCurveKey(allowedKeys.PublicKey);
            rig.Server.SetCurveServer(serverKeys);
            rig.Client.SetCurveClient(strangerKeys, serverKeys.PublicKey);
            rig.Start();

            rig.AssertDeniedByAuthenticator(400);
            Assert.True(rig.Decisions.TryPeek(out ZapDecisionEventArgs? decision));
            Assert.Equal(400, decision.Decision.StatusCode);
            Assert.Equal("CURVE", decision.Request!.Mechanism);
            Assert.Equal(strangerKeys.PublicKey, decision.Request.ClientKey);
            Assert.Equal("global", decision.Request.Domain);
            Assert.Equal("127.0.0.1", decision.Request.Address);
        }

        [Fact]
        public void AllowAnyCurveClient_RandomKey_AcceptedWithKeyAsUserId()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var clientKeys = CurveKeyPair.Generate();
            using var rig = new SecureRig();
            using var authenticator = new ZapAuthenticator(rig.Context);
            authenticator.AllowAnyCurveClient();
            rig.Server.SetCurveServer(serverKeys);
            rig.Client.SetCurveClient(clientKeys, serverKeys.PublicKey);
            rig.Start();

            rig.AssertSucceeded();
            Assert.Equal(clientKeys.PublicKey.ToZ85(), rig.RoundTrip("hello").UserId);
        }

        [Fact]
        public void SetCurveServer_NoAuthenticator_RejectsRandomClient()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var clientKeys = CurveKeyPair.Generate();
            using var rig = new SecureRig();
            rig.Server.SetCurveServer(serverKeys);
            rig.Client.SetCurveClient(clientKeys, serverKeys.PublicKey);
            rig.Start();

            MonitorEvent outcome = rig.WaitForOutcome();

            Assert.Equal(MonitorEvents.HandshakeFailedNoDetail, outcome.Kind);
            rig.AssertServerReceivesNothing();
        }

        [Fact]
        public void SetCurveClient_WrongServerKey_HandshakeFailsEvenWithAllowedClientKey()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var impostorKeys = CurveKeyPair.Generate();
            using var clientKeys = CurveKeyPair.Generate();
            using var rig = new SecureRig();
            using var authenticator = new ZapAuthenticator(rig.Context);
            authenticator.AllowCurveKey(clientKeys.PublicKey);
            rig.Server.SetCurveServer(serverKeys);
            rig.Client.SetCurveClient(clientKeys, impostorKeys.PublicKey);
            rig.Start();

            MonitorEvent outcome = rig.WaitForOutcome();

            Assert.Equal(MonitorEvents.HandshakeFailedProtocol, outcome.Kind);
            Assert.Equal(ProtocolError.ZmtpCryptographic, outcome.ProtocolError);
            rig.AssertServerReceivesNothing();
        }

        [Fact]
        public void AddPlainUser_RightPassword_AcceptedWithUserId()
        {
            using var rig = new SecureRig();
            using var authenticator = new ZapAuthenticator(rig.Context);
            authenticator.AddPlainUser("admin", "correct horse", userId: "admin-id");
            rig.Client.SetPlainClient("admin", "correct horse");
            if (!LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                rig.StartWithRawOptions(plain: true);
                Assert.Equal(("plain", "admin-id", "re: plain"), rig.RoundTrip("plain"));
                return;
            }

            rig.Server.SetPlainServer();
            rig.Start();

            rig.AssertSucceeded();
            var (request, userId, reply) = rig.RoundTrip("plain");
            Assert.Equal(("plain", "admin-id", "re: plain"), (request, userId, reply));
        }

        [Theory]
        [InlineData("admin", "wrong horse")]
        [InlineData("admin", "correct hors")]
        [InlineData("nobody", "correct horse")]
        [InlineData("Admin", "correct horse")]
        public void AddPlainUser_WrongCredentials_RejectedWithStatus400(string username, string password)
        {
            using var rig = new SecureRig();
            using var authenticator = new ZapAuthenticator(rig.Context);
            authenticator.AddPlainUser("admin", "correct horse");
            rig.Client.SetPlainClient(username, password);
            if (!LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                rig.Watch(authenticator);
                rig.StartWithRawOptions(plain: true);
                rig.AssertDeniedWithoutMonitor(400);
                return;
            }

            rig.Server.SetPlainServer();
            rig.Start();

            rig.AssertDeniedByAuthenticator(400);
        }

        [Fact]
        public void SetPlainCallback_UnknownUser_CallbackDecides()
        {
            using var rig = new SecureRig();
            using var authenticator = new ZapAuthenticator(rig.Context);
            authenticator.SetPlainCallback(r => r.Username == "carol" && r.PasswordEquals("s3cret") ? ZapDecision.Allow("carol@callback") : ZapDecision.Deny());
            rig.Client.SetPlainClient("carol", "s3cret");
            if (!LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                rig.StartWithRawOptions(plain: true);
                Assert.Equal("carol@callback", rig.RoundTrip("x").UserId);
                return;
            }

            rig.Server.SetPlainServer();
            rig.Start();

            rig.AssertSucceeded();
            Assert.Equal("carol@callback", rig.RoundTrip("x").UserId);
        }

        [Fact]
        public void AllowAddress_ListedAddress_AcceptsNullClient()
        {
            using var rig = new SecureRig();
            using var authenticator = new ZapAuthenticator(rig.Context);
            authenticator.AllowAddress("127.0.0.1");
            if (!LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                rig.Watch(authenticator);
                rig.StartWithRawOptions(plain: false, domain: "lan");
                Assert.Equal("re: null", rig.RoundTrip("null").Reply);
                Assert.True(rig.Decisions.TryPeek(out ZapDecisionEventArgs? allowed));
                Assert.Equal(("NULL", "lan", 200), (allowed.Request!.Mechanism, allowed.Request.Domain, allowed.Decision.StatusCode));
                return;
            }

            rig.Server.SetZapDomain("lan");
            rig.Start();

            rig.AssertSucceeded();
            Assert.Equal("re: null", rig.RoundTrip("null").Reply);
        }

        [Fact]
        public void AllowAddress_UnlistedAddress_RejectsValidCurveClient()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var clientKeys = CurveKeyPair.Generate();
            using var rig = new SecureRig();
            using var authenticator = new ZapAuthenticator(rig.Context);
            authenticator.AllowAddress("192.0.2.7").AllowCurveKey(clientKeys.PublicKey);
            rig.Watch(authenticator);
            rig.Server.SetCurveServer(serverKeys);
            rig.Client.SetCurveClient(clientKeys, serverKeys.PublicKey);
            rig.Start();

            MonitorEvent outcome = rig.WaitForOutcome();

            Assert.Equal(400, outcome.ZapStatusCode);
            Assert.True(rig.Decisions.TryPeek(out ZapDecisionEventArgs? decision));
            Assert.Equal("Address not allowed", decision.Decision.StatusText);
        }

        [Fact]
        public void DenyAddress_DeniedAddress_RejectsValidCurveClient()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var clientKeys = CurveKeyPair.Generate();
            using var rig = new SecureRig();
            using var authenticator = new ZapAuthenticator(rig.Context);
            authenticator.DenyAddress("127.0.0.1").AllowCurveKey(clientKeys.PublicKey);
            rig.Server.SetCurveServer(serverKeys);
            rig.Client.SetCurveClient(clientKeys, serverKeys.PublicKey);
            rig.Start();

            rig.AssertDeniedByAuthenticator(400);
        }

        [Fact]
        public void DenyAddress_OtherAddress_NullClientStillNeedsExplicitAllow()
        {
            using var rig = new SecureRig();
            using var authenticator = new ZapAuthenticator(rig.Context);
            authenticator.DenyAddress("192.0.2.7");
            if (!LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                rig.Watch(authenticator);
                rig.StartWithRawOptions(plain: false, domain: "lan");
                rig.AssertDeniedWithoutMonitor(400);
                return;
            }

            rig.Server.SetZapDomain("lan");
            rig.Start();

            Assert.Equal(400, rig.WaitForOutcome().ZapStatusCode);
        }

        [Fact]
        public void AllowAddress_AfterDenyAddress_ThrowsInvalidOperation()
        {
            using Context context = Zmq.NewContext();
            using var authenticator = new ZapAuthenticator(context);
            authenticator.DenyAddress("10.0.0.1");

            Assert.Throws<InvalidOperationException>(() => authenticator.AllowAddress("10.0.0.2"));
            Assert.Throws<ArgumentException>(() => authenticator.DenyAddress("not an address"));
        }

        [Fact]
        public void SetCurveCallback_Throws_DeniedWithStatus500()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var clientKeys = CurveKeyPair.Generate();
            using var rig = new SecureRig();
            using var authenticator = new ZapAuthenticator(rig.Context);
            authenticator.SetCurveCallback(_ => throw new InvalidOperationException("database down"));
            authenticator.AllowAnyCurveClient(); // a throwing callback must not fall through to this
            rig.Server.SetCurveServer(serverKeys);
            rig.Client.SetCurveClient(clientKeys, serverKeys.PublicKey);
            rig.Start();

            rig.AssertDeniedByAuthenticator(500);
        }

        [Fact]
        public void SetCurveCallback_ReturnsDefault_DeniedWithStatus500()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var clientKeys = CurveKeyPair.Generate();
            using var rig = new SecureRig();
            using var authenticator = new ZapAuthenticator(rig.Context);
            authenticator.SetCurveCallback(_ => default);
            rig.Server.SetCurveServer(serverKeys);
            rig.Client.SetCurveClient(clientKeys, serverKeys.PublicKey);
            rig.Start();

            Assert.Equal(500, rig.WaitForOutcome().ZapStatusCode);
        }

        [Fact]
        public void SetCurveCallback_TooSlow_DeniedWithStatus500AfterTimeout()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var clientKeys = CurveKeyPair.Generate();
            using var rig = new SecureRig();
            using var release = new ManualResetEventSlim();
            using var authenticator = new ZapAuthenticator(rig.Context) { CallbackTimeout = TimeSpan.FromMilliseconds(200) };
            authenticator.SetCurveCallback(_ =>
            {
                release.Wait(TestTimeouts.Expected);
                return ZapDecision.Allow("too late");
            });
            rig.Server.SetCurveServer(serverKeys);
            rig.Client.SetCurveClient(clientKeys, serverKeys.PublicKey);
            var clock = Stopwatch.StartNew();
            rig.Start();

            MonitorEvent outcome = rig.WaitForOutcome();
            release.Set();

            Assert.Equal(500, outcome.ZapStatusCode);
            Assert.True(clock.Elapsed < TestTimeouts.Expected, clock.Elapsed.ToString());
        }

        [Fact]
        public void SetCurveCallback_Allows_UserIdFromCallbackAndRequestDetails()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var clientKeys = CurveKeyPair.Generate();
            using var rig = new SecureRig();
            using var authenticator = new ZapAuthenticator(rig.Context);
            ZapRequest? seen = null;
            authenticator.SetCurveCallback(r =>
            {
                seen = r;
                return r.ClientKey == clientKeys.PublicKey ? ZapDecision.Allow("from-callback") : ZapDecision.Deny();
            });
            rig.Server.SetCurveServer(serverKeys, zapDomain: "payments");
            rig.Server.SetOption(SocketOptions.RoutingId, new byte[] { 7, 8, 9 });
            rig.Client.SetCurveClient(clientKeys, serverKeys.PublicKey);
            rig.Start();

            rig.AssertSucceeded();
            Assert.Equal("from-callback", rig.RoundTrip("cb").UserId);
            Assert.NotNull(seen);
            Assert.Equal("payments", seen.Domain);
            Assert.Equal(new byte[] { 7, 8, 9 }, seen.Identity);
            Assert.Null(seen.Username);
        }

        [Fact]
        public void ForDomain_DomainPolicy_ReplacesDefaultPolicy()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var clientKeys = CurveKeyPair.Generate();
            using Context context = Zmq.NewContext();
            using var authenticator = new ZapAuthenticator(context);
            authenticator.AllowAnyCurveClient();
            authenticator.ForDomain("strict").AllowCurveKey(CurveKeyPair.Generate().PublicKey);

            using (var strict = new SecureRig(context))
            {
                strict.Server.SetCurveServer(serverKeys, "strict");
                strict.Client.SetCurveClient(clientKeys, serverKeys.PublicKey);
                strict.Start();
                Assert.Equal(400, strict.WaitForOutcome().ZapStatusCode);
            }

            using (var open = new SecureRig(context))
            {
                open.Server.SetCurveServer(serverKeys, "open");
                open.Client.SetCurveClient(clientKeys, serverKeys.PublicKey);
                open.Start();
                open.AssertSucceeded();
            }
        }

        [Fact]
        public void RemoveCurveKey_AfterRemoval_NewHandshakeDenied()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var clientKeys = CurveKeyPair.Generate();
            using Context context = Zmq.NewContext();
            using var authenticator = new ZapAuthenticator(context);
            authenticator.AllowCurveKey(clientKeys.PublicKey);

            Assert.True(authenticator.DefaultPolicy.RemoveCurveKey(clientKeys.PublicKey));
            Assert.False(authenticator.DefaultPolicy.RemoveCurveKey(clientKeys.PublicKey));
            using var rig = new SecureRig(context);
            rig.Server.SetCurveServer(serverKeys);
            rig.Client.SetCurveClient(clientKeys, serverKeys.PublicKey);
            rig.Start();
            Assert.Equal(400, rig.WaitForOutcome().ZapStatusCode);
        }

        [Fact]
        public void Constructor_SecondOnSameContext_ThrowsInvalidOperation()
        {
            using Context context = Zmq.NewContext();
            using var first = new ZapAuthenticator(context);

            var e = Assert.Throws<InvalidOperationException>(() => new ZapAuthenticator(context));

            Assert.Contains(ZapAuthenticator.Endpoint, e.Message);
            Assert.True(first.IsRunning);
            using Context other = Zmq.NewContext();
            using var elsewhere = new ZapAuthenticator(other); // one per context, not per process
            Assert.True(elsewhere.IsRunning);
        }

        [Fact]
        public void Constructor_AfterDispose_BindsAgain()
        {
            using Context context = Zmq.NewContext();
            new ZapAuthenticator(context).Dispose();

            using var second = new ZapAuthenticator(context);

            Assert.True(second.IsRunning);
        }

        [Fact]
        public void PolicyChanges_AfterDispose_ThrowObjectDisposedSoNoPasswordOutlivesIt()
        {
            using Context context = Zmq.NewContext();
            var authenticator = new ZapAuthenticator(context);
            ZapPolicy domain = authenticator.ForDomain("global");
            authenticator.Dispose();

            // Dispose clears the stored passwords; one added afterwards would stay in memory for good.
            Assert.Throws<ObjectDisposedException>(() => authenticator.AddPlainUser("user", "secret"));
            Assert.Throws<ObjectDisposedException>(() => domain.AddPlainUser("user", "secret"));
            Assert.Throws<ObjectDisposedException>(() => authenticator.ForDomain("other"));
            Assert.Throws<ObjectDisposedException>(() => authenticator.AllowCurveKey(CurveKey.FromBytes(new byte[CurveKey.Size])));
            Assert.Throws<ObjectDisposedException>(() => domain.AllowAddress("127.0.0.1"));
            Assert.Throws<ObjectDisposedException>(() => domain.RemovePlainUser("user"));
        }

        [Fact]
        public void Dispose_FromOtherThreadWhileWaiting_ReturnsPromptlyAndThenRejects()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var clientKeys = CurveKeyPair.Generate();
            using var rig = new SecureRig();
            var authenticator = new ZapAuthenticator(rig.Context);
            authenticator.AllowAnyCurveClient();
            Assert.True(Eventually.True(() => authenticator.IsRunning));

            var clock = Stopwatch.StartNew();
            var disposer = new Thread(authenticator.Dispose);
            disposer.Start();
            Assert.True(disposer.Join(TestTimeouts.Expected));

            Assert.True(clock.Elapsed < ZapAuthenticator.DisposeWait, clock.Elapsed.ToString());
            Assert.False(authenticator.IsRunning);
            Assert.Null(authenticator.Fault);
            rig.Server.SetCurveServer(serverKeys);
            rig.Client.SetCurveClient(clientKeys, serverKeys.PublicKey);
            rig.Start();
            Assert.Equal(MonitorEvents.HandshakeFailedNoDetail, rig.WaitForOutcome().Kind);
        }

        [Fact]
        public void Dispose_WhileCallbackHangs_ReturnsWithinDisposeWait()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused() || !LoadedLibzmq.CanEnforceZapOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var clientKeys = CurveKeyPair.Generate();
            using var rig = new SecureRig();
            using var entered = new ManualResetEventSlim();
            using var release = new ManualResetEventSlim();
            var authenticator = new ZapAuthenticator(rig.Context) { CallbackTimeout = TimeSpan.FromSeconds(30) };
            authenticator.SetCurveCallback(_ =>
            {
                entered.Set();
                release.Wait(TestTimeouts.Expected);
                return ZapDecision.Allow();
            });
            rig.Server.SetCurveServer(serverKeys);
            rig.Client.SetCurveClient(clientKeys, serverKeys.PublicKey);
            rig.Start();
            Assert.True(entered.Wait(TestTimeouts.Expected));

            var clock = Stopwatch.StartNew();
            authenticator.Dispose();
            TimeSpan took = clock.Elapsed;
            release.Set();

            Assert.True(took < ZapAuthenticator.DisposeWait + TimeSpan.FromSeconds(1), took.ToString());
            Assert.True(authenticator.IsDisposed);
        }

        [Fact]
        public void ContextDispose_AuthenticatorRunning_ThreadEndsWithoutFault()
        {
            Context context = Zmq.NewContext();
            var authenticator = new ZapAuthenticator(context);
            Assert.True(Eventually.True(() => authenticator.IsRunning));

            context.Dispose();

            Assert.True(Eventually.True(() => !authenticator.IsRunning));
            Assert.Null(authenticator.Fault);
            authenticator.Dispose();
        }

        [Theory]
        [InlineData(new[] { "2.0", "id-1", "global", "127.0.0.1", "", "NULL" }, "400", "Malformed request")]
        [InlineData(new[] { "1.0", "id-2", "global", "127.0.0.1", "" }, "400", "Malformed request")]
        [InlineData(new[] { "1.0", "id-3", "global", "127.0.0.1", "", "GSSAPI", "principal" }, "400", "Unsupported mechanism")]
        [InlineData(new[] { "1.0", "id-4", "global", "127.0.0.1", "", "CURVE", "short key" }, "400", "Malformed request")]
        [InlineData(new[] { "1.0", "id-5", "global", "127.0.0.1", "", "PLAIN", "only-user" }, "400", "Malformed request")]
        [InlineData(new[] { "1.0", "id-6", "global", "127.0.0.1", "", "NULL" }, "400", "NULL mechanism not allowed")]
        public void Answer_OddRequest_RepliesDenyWithSameRequestId(string[] frames, string status, string text)
        {
            using Context context = Zmq.NewContext();
            using var authenticator = new ZapAuthenticator(context);
            authenticator.AllowAnyCurveClient();
            using Socket requester = Zmq.NewSocket(context, SocketType.Req);
            requester.Connect(ZapAuthenticator.Endpoint);

            requester.SendMultipart(frames);
            string[] reply = requester.RecvMultipartBytes().Select(f => System.Text.Encoding.UTF8.GetString(f)).ToArray();

            Assert.Equal(new[] { "1.0", frames[1], status, text, "", "" }, reply);
        }

        [Fact]
        public void Answer_ValidCurveRequest_RepliesOkWithUserIdAndEmptyMetadata()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            using var clientKeys = CurveKeyPair.Generate();
            using Context context = Zmq.NewContext();
            using var authenticator = new ZapAuthenticator(context);
            authenticator.AllowCurveKey(clientKeys.PublicKey, "bob");
            using Socket requester = Zmq.NewSocket(context, SocketType.Req);
            requester.Connect(ZapAuthenticator.Endpoint);

            requester.SendMultipart(new[]
            {
                "1.0"u8.ToArray(), "42"u8.ToArray(), "global"u8.ToArray(), "10.0.0.9"u8.ToArray(), Array.Empty<byte>(), "CURVE"u8.ToArray(),
                clientKeys.PublicKey.ToArray(),
            });
            byte[][] reply = requester.RecvMultipartBytes();

            Assert.Equal(new[] { "1.0", "42", "200", "OK", "bob", "" }, reply.Select(f => System.Text.Encoding.UTF8.GetString(f)).ToArray());
        }
    }
}
