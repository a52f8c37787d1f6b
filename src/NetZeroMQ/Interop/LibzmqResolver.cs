using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.InteropServices;
using System.Text;

namespace NetZeroMQ
{
    /// <summary>
    /// Finds and loads libzmq, in this order: an explicit path (<see cref="Libzmq.LibraryPath"/>, else the environment variable
    /// <c>NETZEROMQ_LIBZMQ</c>); the package's <c>runtimes/&lt;rid&gt;/native</c> folder; the system names. It is registered as the
    /// import resolver of this assembly, so every <c>[LibraryImport("libzmq")]</c> goes through it.
    /// </summary>
    /// <remarks>
    /// The runtime's default probing looks for <c>libzmq.so</c>, which Debian and Ubuntu only install with the development package;
    /// the runtime package ships <c>libzmq.so.5</c>. This is why clrzmq4's "Unable to load shared library 'libzmq'" was its most
    /// reported issue, and why the resolver tries the versioned names explicitly.
    /// </remarks>
    internal static class LibzmqResolver
    {
        internal const string EnvironmentVariable = "NETZEROMQ_LIBZMQ";

        private static readonly object s_lock = new object();
        private static nint s_libzmq;
        private static nint s_libc;
        private static string? s_loadedPath;
        private static List<string>? s_attempts;

        /// <summary>The path (or system name) libzmq was loaded from, or null before the first load.</summary>
        internal static string? LoadedPath => s_loadedPath;

        /// <summary>Loads libzmq now if it is not loaded yet; throws a <see cref="DllNotFoundException"/> that explains every place tried.</summary>
        internal static nint EnsureLoaded()
        {
            nint handle = s_libzmq;
            if (handle != 0)
            {
                return handle;
            }

            if (!NativeLoader.CanLoadLibraries)
            {
                return LeaveToRuntimeProbing();
            }

            lock (s_lock)
            {
                if (s_libzmq == 0)
                {
                    var attempts = new List<string>();
                    s_libzmq = TryLoadLibzmq(attempts, out s_loadedPath);
                    s_attempts = attempts;
                    if (s_libzmq == 0)
                    {
                        throw new DllNotFoundException(DescribeFailure(attempts));
                    }
                }

                return s_libzmq;
            }
        }

        /// <summary>
        /// .NET Framework, Mono and Unity (the netstandard2.0 build without NativeLibrary): the runtime's own DllImport probing
        /// finds libzmq (libzmq.dll next to the application, Mono's dllmap), so nothing is loaded here. An explicit path cannot
        /// be honoured there, which is said rather than ignored.
        /// </summary>
        private static nint LeaveToRuntimeProbing()
        {
            string? explicitPath = Libzmq.LibraryPath ?? Environment.GetEnvironmentVariable(EnvironmentVariable);
            if (!string.IsNullOrEmpty(explicitPath))
            {
                throw new NotSupportedException(
                    "This runtime has no NativeLibrary API, so NetZeroMQ cannot load libzmq from '" + explicitPath + "' (set by " +
                    "Libzmq.LibraryPath or " + EnvironmentVariable + "). Put libzmq next to the application (Windows: libzmq.dll) " +
                    "or map it with the runtime's own mechanism (Mono: a dllmap for 'libzmq').");
            }

            s_loadedPath = "(found by the runtime's DllImport probing)";
            return 0;
        }

        /// <summary>Resolver callback: maps our two import names to the libraries this class loaded.</summary>
        internal static nint Resolve(string libraryName)
        {
            if (libraryName == Interop.Libraries.Zmq)
            {
                return EnsureLoaded();
            }

            if (libraryName == Interop.Libraries.Libc)
            {
                return LoadLibc();
            }

            return 0;
        }

        private static nint LoadLibc()
        {
            if (s_libc != 0)
            {
                return s_libc;
            }

            string[] names = RuntimeInformation.IsOSPlatform(OSPlatform.OSX)
                ? new[] { "libc.dylib", "/usr/lib/libSystem.B.dylib" }
                : new[] { "libc.so.6", "libc.so", "libc" };
            foreach (string name in names)
            {
                if (NativeLoader.TryLoad(name, out nint handle))
                {
                    s_libc = handle;
                    return handle;
                }
            }

            return 0;
        }

        private static nint TryLoadLibzmq(List<string> attempts, out string? loadedFrom)
        {
            string? explicitPath = Libzmq.LibraryPath ?? Environment.GetEnvironmentVariable(EnvironmentVariable);
            if (!string.IsNullOrEmpty(explicitPath))
            {
                // An explicit choice is never silently replaced by another library: that would hide a misconfiguration.
                return TryOne(explicitPath!, attempts, out loadedFrom);
            }

            foreach (string candidate in PackageCandidates())
            {
                if (File.Exists(candidate) && TryOne(candidate, attempts, out loadedFrom) is var handle && handle != 0)
                {
                    return handle;
                }
            }

            foreach (string name in SystemNames())
            {
                nint handle = TryOne(name, attempts, out loadedFrom);
                if (handle != 0)
                {
                    return handle;
                }
            }

            loadedFrom = null;
            return 0;
        }

        private static nint TryOne(string pathOrName, List<string> attempts, out string? loadedFrom)
        {
            if (NativeLoader.TryLoad(pathOrName, out nint handle, out string? error))
            {
                loadedFrom = pathOrName;
                return handle;
            }

            attempts.Add(error is null ? pathOrName : pathOrName + " (" + error + ")");
            loadedFrom = null;
            return 0;
        }

        private static IEnumerable<string> PackageCandidates()
        {
            // The application folder: NuGet copies runtimes/<rid>/native there (and flattens it for RID-specific publishes).
            // Assembly.Location is not used because it is empty in single-file and NativeAOT applications.
            string baseDir = AppContext.BaseDirectory;

            foreach (string rid in RuntimeIdentifiers())
            {
                string folder = Path.Combine(baseDir, "runtimes", rid, "native");
                foreach (string name in FileNames())
                {
                    yield return Path.Combine(folder, name);
                }
            }

            foreach (string name in FileNames())
            {
                yield return Path.Combine(baseDir, name);
            }
        }

        private static IEnumerable<string> SystemNames()
        {
            foreach (string name in FileNames())
            {
                yield return name;
            }
        }

        private static string[] FileNames()
        {
            if (RuntimeInformation.IsOSPlatform(OSPlatform.Windows))
            {
                // Official Windows builds are named after their toolset, e.g. libzmq-v142-mt-4_3_4.dll.
                return new[] { "libzmq.dll", "libzmq-mt-4_3_5.dll", "libzmq-v142-mt-4_3_4.dll", "libzmq-v141-mt-4_3_4.dll", "zmq.dll" };
            }

            if (RuntimeInformation.IsOSPlatform(OSPlatform.OSX))
            {
                return new[] { "libzmq.5.dylib", "libzmq.dylib", "/opt/homebrew/lib/libzmq.5.dylib", "/usr/local/lib/libzmq.5.dylib" };
            }

            return new[] { "libzmq.so.5", "libzmq.so" };
        }

        private static IEnumerable<string> RuntimeIdentifiers()
        {
            string os = RuntimeInformation.IsOSPlatform(OSPlatform.Windows) ? "win"
                : RuntimeInformation.IsOSPlatform(OSPlatform.OSX) ? "osx"
                : "linux";
            string arch = RuntimeInformation.ProcessArchitecture.ToString().ToLowerInvariant();
#if NET
            yield return RuntimeInformation.RuntimeIdentifier;
#endif
            if (os == "linux" && File.Exists("/etc/alpine-release"))
            {
                yield return "linux-musl-" + arch;
            }

            yield return os + "-" + arch;
        }

        private static string DescribeFailure(List<string> attempts)
        {
            var text = new StringBuilder();
            text.Append("NetZeroMQ could not load libzmq (ZeroMQ 4.x). Tried, in order:");
            foreach (string attempt in attempts)
            {
                text.Append(Environment.NewLine).Append("  - ").Append(attempt);
            }

            text.Append(Environment.NewLine)
                .Append("Install libzmq: Debian/Ubuntu 'apt-get install libzmq5'; Fedora 'dnf install zeromq'; Alpine 'apk add libzmq'; ")
                .Append("macOS 'brew install zeromq'; Windows: vcpkg 'zeromq' or a libzmq.dll next to the application. ")
                .Append("Or point NetZeroMQ at a specific file with the ").Append(EnvironmentVariable)
                .Append(" environment variable or Libzmq.LibraryPath before first use.");
            return text.ToString();
        }

        /// <summary>Test hook: the attempts of the last load (empty when the first candidate loaded).</summary>
        internal static IReadOnlyList<string> LastAttempts => s_attempts ?? new List<string>();
    }
}
