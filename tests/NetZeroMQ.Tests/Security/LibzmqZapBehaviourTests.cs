using System;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Security
{
    /// <summary>
    /// Pins what libzmq itself does with ZAP for each mechanism, ZAP domain, ZapEnforceDomain and handler (none, allowing,
    /// denying), set through the raw options. This table is why <see cref="SocketSecurityExtensions"/> sets an enforced,
    /// non-empty domain; it is the measured table in docs/security.md. If a libzmq release changes a row, this
    /// test says which.
    /// </summary>
    public class LibzmqZapBehaviourTests
    {
        public const string Ok = "ok";
        public const string NoHandler = "no-handler"; // HANDSHAKE_FAILED_NO_DETAIL (EFAULT)
        public const string Denied = "denied";        // HANDSHAKE_FAILED_AUTH 400

        public static TheoryData<string, string, bool, string, string> Table => new TheoryData<string, string, bool, string, string>
        {
            // mechanism, domain, enforce, handler, outcome
            { "NULL", "", false, "none", Ok },
            { "NULL", "", false, "allow", Ok },
            { "NULL", "", false, "deny", Ok },        // no domain: ZAP is never asked about NULL
            { "NULL", "", true, "none", Ok },
            { "NULL", "", true, "deny", Ok },
            { "NULL", "global", false, "none", Ok },  // domain without handler: accepted (legacy)
            { "NULL", "global", false, "allow", Ok },
            { "NULL", "global", false, "deny", Denied },
            { "NULL", "global", true, "none", NoHandler },
            { "NULL", "global", true, "allow", Ok },
            { "NULL", "global", true, "deny", Denied },
            { "PLAIN", "", false, "none", NoHandler }, // PLAIN always needs a handler
            { "PLAIN", "", false, "allow", Ok },
            { "PLAIN", "", false, "deny", Denied },
            // PLAIN, "", enforce: libzmq aborts the process -> PlainServer_EnforcedEmptyDomain_LibzmqAbortsProcess
            { "PLAIN", "global", false, "none", NoHandler },
            { "PLAIN", "global", false, "allow", Ok },
            { "PLAIN", "global", false, "deny", Denied },
            { "PLAIN", "global", true, "none", NoHandler },
            { "PLAIN", "global", true, "allow", Ok },
            { "PLAIN", "global", true, "deny", Denied },
            { "CURVE", "", false, "none", Ok },       // Stonehouse: any client key accepted
            { "CURVE", "", false, "allow", Ok },
            { "CURVE", "", false, "deny", Denied },   // a running handler is asked even without a domain
            { "CURVE", "", true, "none", Ok },        // enforce with an empty domain skips ZAP ...
            { "CURVE", "", true, "deny", Ok },        // ... even past a handler that denies
            { "CURVE", "global", false, "none", Ok }, // a domain alone does not close it
            { "CURVE", "global", false, "allow", Ok },
            { "CURVE", "global", false, "deny", Denied },
            { "CURVE", "global", true, "none", NoHandler }, // what SetCurveServer configures: fail closed
            { "CURVE", "global", true, "allow", Ok },
            { "CURVE", "global", true, "deny", Denied },
        };

        [Theory]
        [MemberData(nameof(Table))]
        public void Handshake_MechanismDomainEnforceHandler_MatchesMeasuredTable(string mechanism, string domain, bool enforce, string handler, string expected)
        {
            // A row that its libzmq cannot configure asserts the refusal instead: CURVE on a build without it (the NULL and
            // PLAIN rows still run there), the enforced domain on 4.1, which has no ZapEnforceDomain.
            if (mechanism == "CURVE" && !LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            if (mechanism != "NULL" && handler == "none" && !LoadedLibzmq.Has(SocketOptions.ZapEnforceDomain))
            {
                // libzmq 4.1's PLAIN and CURVE servers welcome every client while no ZAP handler runs (docs/libzmq-versions.md),
                // the fail-open that the refusal of the security setters there is about.
                expected = Ok;
            }

            using var rig = new SecureRig();
            if (enforce && !LoadedLibzmq.Has(SocketOptions.ZapEnforceDomain))
            {
                LoadedLibzmq.AssertRefused(SocketOptions.ZapEnforceDomain, () => rig.Server.SetOption(SocketOptions.ZapEnforceDomain, true));
                return;
            }

            using ZapAuthenticator? authenticator = handler == "none" ? null : new ZapAuthenticator(rig.Context);
            if (authenticator is not null)
            {
                rig.Watch(authenticator);
            }

            if (handler == "allow")
            {
                authenticator!.AllowNullMechanism().AllowAnyCurveClient().AddPlainUser("user", "password");
            }

            switch (mechanism)
            {
                case "PLAIN":
                    rig.Server.SetOption(SocketOptions.PlainServer, true);
                    rig.Client.SetPlainClient("user", "password");
                    break;
                case "CURVE":
                    using (CurveKeyPair serverKeys = CurveKeyPair.Generate())
                    using (CurveKeyPair clientKeys = CurveKeyPair.Generate())
                    {
                        rig.Server.SetOption(SocketOptions.CurveServer, true);
                        rig.Server.SetOption(SocketOptions.CurveSecretKey, Secret(serverKeys));
                        rig.Client.SetCurveClient(clientKeys, serverKeys.PublicKey);
                    }

                    break;
            }

            if (domain.Length != 0)
            {
                rig.Server.SetOption(SocketOptions.ZapDomain, domain);
            }

            if (enforce)
            {
                rig.Server.SetOption(SocketOptions.ZapEnforceDomain, true);
            }
            rig.Start();
            if (expected == Ok && !LoadedLibzmq.Sends(MonitorEvents.HandshakeSucceeded))
            {
                // A libzmq 4.2 release build never reports a success (its refusal asserted by Start): no failure is reported
                // and a request and its reply cross instead.
                rig.AssertSucceeded();
                return;
            }

            if (expected != Ok && rig.Monitor is null)
            {
                // libzmq 4.1 reports no handshake outcome: a denial is the authenticator's 400 and no message through, a
                // missing handler no message through (and, as the table says, no authenticator asked).
                if (expected == Denied)
                {
                    rig.AssertDeniedWithoutMonitor(400);
                }
                else
                {
                    rig.AssertServerReceivesNothing();
                }

                return;
            }

            MonitorEvent outcome = rig.WaitForOutcome();

            string actual = outcome.Kind switch
            {
                MonitorEvents.HandshakeSucceeded => Ok,
                MonitorEvents.HandshakeFailedNoDetail => NoHandler,
                MonitorEvents.HandshakeFailedAuth when outcome.ZapStatusCode == 400 => Denied,
                _ => outcome.ToString(),
            };
            Assert.Equal(expected, actual);
            if (actual == Ok)
            {
                Assert.Equal("re: x", rig.RoundTrip("x").Reply);
            }
            else
            {
                rig.AssertServerReceivesNothing();
            }
        }

        [Fact]
        public void PlainServer_EnforcedEmptyDomain_BindAndConnectRefusedInsteadOfLibzmqAbort()
        {
            (int exitCode, string output) = ChildProcess.Run("plain-enforced-empty-domain");

            if (!LoadedLibzmq.Has(SocketOptions.ZapEnforceDomain))
            {
                // libzmq 4.1: the option is refused, and a server with an empty domain serves its PLAIN client.
                Assert.Contains("enforce refused", output);
                Assert.Contains("served after the handshake", output);
                Assert.Contains("survived", output);
                Assert.Equal(0, exitCode);
                return;
            }

            Assert.Contains("bind refused", output);
            Assert.Contains("connect refused", output);
            Assert.Contains("survived", output);
            Assert.DoesNotContain("zap_required", output);
            Assert.Equal(0, exitCode);
        }

        private static byte[] Secret(CurveKeyPair pair)
        {
            var secret = new byte[32];
            pair.CopySecretKeyTo(secret);
            return secret;
        }
    }
}
