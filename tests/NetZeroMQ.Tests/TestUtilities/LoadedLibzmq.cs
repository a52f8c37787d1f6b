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
