using System;
using System.Text;

namespace NetZeroMQ
{
    /// <summary>
    /// The native libzmq this process uses: where it is loaded from, its version and its capabilities.
    /// </summary>
    /// <remarks>
    /// libzmq is found in this order: <see cref="LibraryPath"/> if set, else the environment variable <c>NETZEROMQ_LIBZMQ</c>
    /// (an explicit choice is final: if it does not load, nothing else is tried); then the package's
    /// <c>runtimes/&lt;rid&gt;/native</c> folder and the application folder; then the system names (<c>libzmq.so.5</c>,
    /// <c>libzmq.so</c>, <c>libzmq.5.dylib</c>, <c>libzmq.dylib</c>, <c>libzmq.dll</c>, <c>libzmq-v*.dll</c>). A library that loads
    /// but does not export <c>zmq_version</c> is not libzmq and is refused. If nothing usable loads, the first use throws a
    /// <see cref="DllNotFoundException"/> that names each file tried, where its path came from (<see cref="LibraryPath"/>, the
    /// environment variable, or the system search) and the operating system loader's own reason, with advice for that case.
    /// </remarks>
    public static class Libzmq
    {
        /// <summary>The oldest libzmq this binding accepts (it uses <c>zmq_has</c>, added in 4.1).</summary>
        public static readonly Version MinimumVersion = LibzmqResolver.MinimumVersion;

        private static Version? s_version;

        /// <summary>Whether the loaded libzmq has CURVE: 0 not asked yet, 1 yes, -1 no (<see cref="ThrowIfNoCurve"/>).</summary>
        private static int s_curve;

        /// <summary>
        /// An explicit path of the libzmq shared library to load. Set it before the first use of any other NetZeroMQ type;
        /// setting it after libzmq was loaded throws <see cref="InvalidOperationException"/>.
        /// </summary>
        public static string? LibraryPath
        {
            get => LibzmqResolver.LibraryPath;
            set => LibzmqResolver.LibraryPath = value;
        }

        /// <summary>Where libzmq was loaded from (a path or the system name that resolved). Loads it if needed.</summary>
        /// <exception cref="DllNotFoundException">libzmq could not be loaded; the message names each file tried, where its path
        /// came from and the loader's reason.</exception>
        public static string LoadedFrom
        {
            get
            {
                LibzmqResolver.EnsureLoaded();
                return LibzmqResolver.LoadedPath!;
            }
        }

        /// <summary>The version of the loaded libzmq (<c>zmq_version</c>), checked against <see cref="MinimumVersion"/>.</summary>
        /// <exception cref="DllNotFoundException">libzmq could not be loaded.</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq is older than <see cref="MinimumVersion"/>.</exception>
        public static Version Version => s_version ??= ReadVersion();

        /// <summary>
        /// Whether the loaded libzmq has a capability (<c>zmq_has</c>): "ipc", "pgm", "tipc", "norm", "curve", "gssapi", "draft";
        /// libzmq 4.3 spells the WebSocket ones in upper case, "WS" and "WSS".
        /// See <see href="http://api.zeromq.org/4-3:zmq-has">zmq_has</see>.
        /// </summary>
        /// <param name="capability">The capability name, ASCII.</param>
        /// <exception cref="ArgumentException"><paramref name="capability"/> is null, empty or contains a NUL.</exception>
        public static unsafe bool Has(string capability)
        {
            Utf8.ThrowIfInvalidName(capability, nameof(capability));
            EnsureUsable();
            int length = Encoding.UTF8.GetByteCount(capability);
            byte* name = stackalloc byte[length + 1];
            Utf8.WriteNullTerminated(capability, name, length + 1);
            return Interop.Zmq.zmq_has(name) == 1;
        }

        /// <summary>
        /// Throws the one <see cref="PlatformNotSupportedException"/> of everything CURVE (the key functions, the CURVE socket
        /// options, the security setters) when the loaded libzmq was built without it (<c>zmq_has("curve")</c> is false: no
        /// libsodium). libzmq itself would answer a CURVE option with a bare EINVAL, which reads like a bad value.
        /// </summary>
        internal static void ThrowIfNoCurve()
        {
            int state = s_curve;
            if (state == 0)
            {
                state = Has("curve") ? 1 : -1;
                s_curve = state;
            }

            if (state < 0)
            {
                throw new PlatformNotSupportedException(
                    "The loaded libzmq (" + LoadedFrom + ", " + Version + ") was built without CURVE (zmq_has(\"curve\") is false): " +
                    "it needs libsodium. Install a libzmq built with it (Debian/Ubuntu: libzmq5; Fedora: zeromq; macOS: brew install " +
                    "zeromq), or use the NetZeroMQ.Native package.");
            }
        }

        /// <summary>Loads libzmq and checks its version; every public entry point that reaches native code passes here once.</summary>
        internal static void EnsureUsable() => _ = Version;

        private static unsafe Version ReadVersion()
        {
            LibzmqResolver.EnsureLoaded();
            int major, minor, patch;
            Interop.Zmq.zmq_version(&major, &minor, &patch);
            var version = new Version(major, minor, patch);
            if (version < MinimumVersion)
            {
                throw new NotSupportedException(
                    LibzmqLoadFailure.TooOld(version, LibzmqResolver.LoadedPath!, LibzmqResolver.LoadedSource));
            }

            return version;
        }
    }
}
