using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Reflection;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Security
{
    /// <summary>Captures every text the security API produces around secrets (ToString, debugger displays, exception
    /// messages and their ToString) and searches it for the secrets.</summary>
    public class SecretLeakTests
    {
        private const string Password = "Pa55-w0rd-Marker";

        [Fact]
        public void SecurityApi_EveryCapturedText_ContainsNoSecretKeyOrPassword()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            using var serverKeys = CurveKeyPair.Generate();
            using var clientKeys = CurveKeyPair.Generate();
            string[] secrets = { serverKeys.SecretKeyToZ85(), clientKeys.SecretKeyToZ85(), Password };
            var captured = new List<string>();
            void Capture(Action action)
            {
                try
                {
                    action();
                }
                catch (Exception e)
                {
                    captured.Add(e.ToString());
                    return;
                }

                captured.Add("(no exception)");
            }

            // Objects that hold secrets.
            captured.Add(serverKeys.ToString());
            captured.Add(DebuggerDisplayOf(serverKeys));
            captured.Add(clientKeys.PublicKey.ToString());

            // Invalid input shaped like secrets.
            string secret = serverKeys.SecretKeyToZ85();
            Capture(() => CurveKeyPair.FromSecretKey(secret.Substring(0, 39) + " "));
            Capture(() => CurveKeyPair.FromSecretKey(secret + "0"));
            Capture(() => CurveKeyPair.FromSecretKey(secret.Substring(0, 32)));
            Capture(() => CurveKey.FromZ85(secret.Substring(0, 32)));
            Capture(() => CurveKey.FromZ85(secret.Substring(0, 39) + "~"));
            Capture(() => Z85.Decode(secret.Substring(0, 39) + "_"));
            Capture(() => Z85.Decode(secret.Substring(0, 38)));

            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Req);
            Capture(() => socket.SetPlainClient("user", Password + new string('x', 300)));
            Capture(() => socket.SetPlainClient("user", Password + "\0"));
            Capture(() => socket.SetOption(SocketOptions.PlainPassword, Password + new string('x', 300))); // libzmq's EINVAL
            Capture(() => socket.SetOption(SocketOptions.CurveSecretKey, Z85.Decode(secret).AsSpan(0, 31)));

            using var authenticator = new ZapAuthenticator(context);
            Capture(() => authenticator.AddPlainUser("user", Password + new string('x', 300)));
            authenticator.AddPlainUser("user", Password);
            captured.Add(authenticator.ToString());

            // A real PLAIN handshake, as the authenticator reports it.
            var decisions = new List<string>();
            ZapRequest? request = null;
            authenticator.Decided += (_, e) =>
            {
                lock (decisions)
                {
                    decisions.Add(e.ToString());
                    decisions.Add(e.Request!.ToString());
                    decisions.Add(e.Decision.ToString());
                    request = e.Request;
                }
            };
            using (var rig = new SecureRig(context))
            {
                rig.Client.SetPlainClient("user", Password);
                if (LoadedLibzmq.CanEnforceZapOrAssertRefused())
                {
                    rig.Server.SetPlainServer();
                    rig.Start();
                    rig.AssertSucceeded();
                }
                else
                {
                    rig.StartWithRawOptions(plain: true); // libzmq 4.1: no enforced domain, no handshake events
                    Assert.Equal("user", rig.RoundTrip("in").UserId);
                }
            }

            lock (decisions)
            {
                Assert.NotEmpty(decisions);
                captured.AddRange(decisions);
                Assert.True(request!.PasswordUtf8.IsEmpty); // cleared once answered
                Assert.False(request.PasswordEquals(Password));
            }

            string all = string.Join("\n", captured);
            Assert.Contains("ArgumentException", all); // the captures did capture something
            foreach (string s in secrets)
            {
                Assert.DoesNotContain(s, all);
                Assert.DoesNotContain(s.Substring(0, 12), all);
            }
        }

        [Fact]
        public void DebuggerDisplay_SecurityTypes_ShowNoSecretMembers()
        {
            foreach (Type type in new[] { typeof(CurveKeyPair), typeof(CurveKey) })
            {
                var display = type.GetCustomAttribute<DebuggerDisplayAttribute>();
                Assert.NotNull(display);
                Assert.DoesNotContain("secret", display.Value, StringComparison.OrdinalIgnoreCase);
            }
        }

        private static string DebuggerDisplayOf(object value)
        {
            // Both displays are "{ToString(),nq}"-like; evaluate the way a debugger would for these two forms.
            string format = value.GetType().GetCustomAttribute<DebuggerDisplayAttribute>()!.Value;
            return format.Replace("{ToString(),nq}", value.ToString());
        }
    }
}
