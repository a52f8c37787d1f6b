using System;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// What the libzmq this test run loaded can do (its version and capabilities), asked of libzmq itself. A test whose
    /// subject needs a capability the loaded libzmq lacks asserts the documented refusal instead (never a skip), so that the
    /// suite means something on every supported version (docs/libzmq-versions.md).
    /// </summary>
    public static class LoadedLibzmq
    {
        /// <summary>The loaded libzmq's version.</summary>
        public static Version Version => Libzmq.Version;

        /// <summary>Whether CURVE works (libzmq built with libsodium or its own tweetnacl).</summary>
        public static bool HasCurve => Libzmq.Has("curve");

        /// <summary>Whether NetZeroMQ lets <paramref name="option"/> through on the loaded version.</summary>
        public static bool Has<T>(SocketOption<T> option) => LibzmqVersions.HasOption(option.Id, Version);

        /// <summary>
        /// Whether a bind with <see cref="SocketOptions.BindToDevice"/> can work: the version lets the option through and libzmq
        /// was built with SO_BINDTODEVICE (its CMake build is not, and fails such a bind with NotSupported). Asked of libzmq by
        /// binding once to loopback with the device "lo".
        /// </summary>
        public static bool HasBindToDevice => s_hasBindToDevice.Value;

        private static readonly Lazy<bool> s_hasBindToDevice = new Lazy<bool>(() =>
        {
            if (!Has(SocketOptions.BindToDevice))
            {
                return false;
            }

            using var context = new Context { DefaultLinger = TimeSpan.Zero };
            using var socket = new Socket(context, SocketType.Pull);
            socket.SetOption(SocketOptions.BindToDevice, "lo");
            try
            {
                socket.Bind("tcp://127.0.0.1:*");
                return true;
            }
            catch (ZmqException e)
            {
                if (e.Error != ZmqError.NotSupported)
                {
                    throw;
                }

                return false;
            }
        });

        /// <summary>
        /// For a test whose subject needs CURVE: true where the loaded libzmq has it; where it was built without (no libsodium),
        /// asserts the documented refusal (the <see cref="PlatformNotSupportedException"/> of key generation and of the CURVE
        /// socket options, naming <c>zmq_has("curve")</c>) and returns false: the test then ends, with nothing more to check.
        /// </summary>
        public static bool HasCurveOrAssertRefused()
        {
            if (HasCurve)
            {
                return true;
            }

            AssertCurveRefused(() => CurveKeyPair.Generate());
            using var context = new Context { DefaultLinger = TimeSpan.Zero };
            using var socket = new Socket(context, SocketType.Dealer);
            AssertCurveRefused(() => socket.SetOption(SocketOptions.CurveServer, true));
            AssertCurveRefused(() => socket.SetOption(SocketOptions.CurveServerKey, new byte[32]));
            Xunit.Assert.Equal(0, socket.GetOption(SocketOptions.Mechanism));
            return false;
        }

        /// <summary>Whether the fail-closed server setters work: the loaded libzmq has ZapEnforceDomain (4.2 and later).</summary>
        public static bool CanEnforceZap => LibzmqVersions.ZapEnforcementRefusal("any", Version) is null;

        /// <summary>
        /// For a test whose subject needs the fail-closed server setters (<c>SetPlainServer</c>, <c>SetCurveServer</c>,
        /// <c>SetZapDomain</c>): true where the loaded libzmq can enforce a ZAP domain; on libzmq 4.1, which cannot, asserts the
        /// documented refusal of each setter (a NotSupportedException naming it and both versions, and nothing set on the
        /// socket) and returns false: the test then checks what 4.1 still can (the raw options with an authenticator running).
        /// </summary>
        public static bool CanEnforceZapOrAssertRefused()
        {
            if (CanEnforceZap)
            {
                return true;
            }

            using var context = new Context { DefaultLinger = TimeSpan.Zero };
            using var socket = new Socket(context, SocketType.Rep);
            AssertZapEnforcementRefused("SetPlainServer", () => socket.SetPlainServer());
            AssertZapEnforcementRefused("SetZapDomain", () => socket.SetZapDomain("global"));
            if (HasCurve)
            {
                using var keys = CurveKeyPair.Generate();
                AssertZapEnforcementRefused("SetCurveServer", () => socket.SetCurveServer(keys));
            }

            Xunit.Assert.Equal(0, socket.GetOption(SocketOptions.Mechanism));
            Xunit.Assert.Equal(string.Empty, socket.GetOption(SocketOptions.ZapDomain));
            return false;
        }

        /// <summary>Asserts the refusal of a fail-closed security setter where libzmq cannot enforce a ZAP domain.</summary>
        public static void AssertZapEnforcementRefused(string member, Action use)
        {
            var e = Xunit.Assert.Throws<NotSupportedException>(use);
            Xunit.Assert.StartsWith(member + " needs libzmq " + LibzmqVersions.OptionSince(SocketOptions.ZapEnforceDomain.Id) + " or later", e.Message);
            Xunit.Assert.Contains("the loaded libzmq is " + Version, e.Message);
        }

        /// <summary>Asserts the refusal of something CURVE on a libzmq without it: PlatformNotSupportedException naming zmq_has("curve").</summary>
        public static void AssertCurveRefused(Action use)
        {
            var e = Xunit.Assert.Throws<PlatformNotSupportedException>(use);
            Xunit.Assert.Contains("was built without CURVE (zmq_has(\"curve\") is false)", e.Message);
        }

        /// <summary>Whether NetZeroMQ lets <paramref name="option"/> be set to <paramref name="value"/> on the loaded version.</summary>
        public static bool CanSet<T>(ContextOption<T> option, int value = 0) =>
            LibzmqVersions.ContextOptionRefusal(option.Id, option.Name, write: true, Version, value) is null;

        /// <summary>Whether NetZeroMQ lets <paramref name="option"/> be read on the loaded version.</summary>
        public static bool CanRead<T>(ContextOption<T> option) =>
            LibzmqVersions.ContextOptionRefusal(option.Id, option.Name, write: false, Version) is null;

        /// <summary>
        /// Asserts the refusal of a context option the loaded version lacks (to set, or to read): NotSupportedException naming
        /// it and both versions.
        /// </summary>
        public static void AssertRefused<T>(ContextOption<T> option, Action use)
        {
            var e = Xunit.Assert.Throws<NotSupportedException>(use);
            Xunit.Assert.StartsWith("Context option " + option.Name + " needs libzmq ", e.Message);
            Xunit.Assert.Contains("the loaded libzmq is " + Version, e.Message);
        }

        /// <summary>Whether the loaded libzmq is at least <paramref name="major"/>.<paramref name="minor"/>.<paramref name="patch"/>.</summary>
        public static bool IsAtLeast(int major, int minor, int patch) => Version >= new Version(major, minor, patch);

        /// <summary>Asserts the refusal of an option the loaded version lacks: NotSupportedException naming it and both versions.</summary>
        public static void AssertRefused<T>(SocketOption<T> option, Action use)
        {
            var e = Xunit.Assert.Throws<NotSupportedException>(use);
            Xunit.Assert.Contains("Socket option " + option.Name + " needs libzmq " + LibzmqVersions.OptionSince(option.Id), e.Message);
            Xunit.Assert.Contains("the loaded libzmq is " + Version, e.Message);
        }
    }
}
