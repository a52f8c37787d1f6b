using System;
using System.Linq;

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

        /// <summary>Whether the loaded libzmq was built with the draft API (<c>zmq_has("draft")</c>).</summary>
        public static bool HasDraft => Libzmq.Has("draft");

        /// <summary>The events among <paramref name="events"/> that the loaded libzmq never sends (the handshake events of a
        /// 4.2 release build); <see cref="MonitorEvents.None"/> where it sends them all.</summary>
        public static MonitorEvents NeverSent(MonitorEvents events) =>
            (MonitorEvents)LibzmqVersions.MonitorEventsNeverSent((int)events, Version, HasDraft);

        /// <summary>Whether the loaded libzmq sends every one of <paramref name="events"/>.</summary>
        public static bool Sends(MonitorEvents events) => NeverSent(events) == MonitorEvents.None;

        /// <summary>
        /// For a test that learns something from monitor events: a monitor of <paramref name="socket"/> for
        /// <paramref name="events"/> where the loaded libzmq sends them all. Where it never sends some (the handshake events
        /// of a libzmq 4.2 release build), asserts the documented refusal (NotSupportedException naming exactly those events and
        /// the loaded version) and returns a monitor of the events it does send, or null when none is left: the test then
        /// proves what the missing events would have told by other means (a message that arrives, or one that does not).
        /// </summary>
        public static SocketMonitor? MonitorOrAssertRefused(Socket socket, MonitorEvents events)
        {
            MonitorEvents neverSent = NeverSent(events);
            if (neverSent == MonitorEvents.None)
            {
                return socket.Monitor(events);
            }

            AssertMonitorRefused(neverSent, () => socket.Monitor(events));
            MonitorEvents rest = events & ~neverSent;
            return rest == MonitorEvents.None ? null : socket.Monitor(rest);
        }

        /// <summary>Asserts the refusal of a monitor asked for <paramref name="neverSent"/>, events the loaded libzmq never sends.</summary>
        public static void AssertMonitorRefused(MonitorEvents neverSent, Action monitor)
        {
            var e = Xunit.Assert.Throws<NotSupportedException>(monitor);
            string names = string.Join(", ", Enum.GetValues(typeof(MonitorEvents)).Cast<MonitorEvents>()
                .Where(k => k != MonitorEvents.None && ((int)k & ((int)k - 1)) == 0 && (neverSent & k) != 0));
            Xunit.Assert.StartsWith("Monitor events " + names + " need libzmq 4.3.0 or later", e.Message);
            Xunit.Assert.Contains("the loaded libzmq is " + Version, e.Message);
        }

        /// <summary>
        /// The endpoint a monitor's events of a listener name, for a tcp listener bound with a wildcard port whose
        /// <see cref="Socket.LastEndpoint"/> is <paramref name="bound"/>: before 4.3.2 libzmq names the listener (its Listening,
        /// Accepted, Closed events, and those of the connections it accepted) by the address it was asked for, made before its
        /// bind, so the port reads 0 (<c>tcp_listener.cpp</c> <c>set_address</c>); from 4.3.2 by the bound address
        /// (<c>getsockname</c>). Other transports are named as bound.
        /// </summary>
        public static string ListenerEventEndpoint(string bound) =>
            !IsAtLeast(4, 3, 2) && bound.StartsWith("tcp://", StringComparison.Ordinal)
                ? bound.Substring(0, bound.LastIndexOf(':') + 1) + "0"
                : bound;

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
