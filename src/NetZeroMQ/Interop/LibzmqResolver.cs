using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// Finds and loads libzmq, in this order: an explicit path (<see cref="LibraryPath"/>, set through <c>Libzmq.LibraryPath</c>, else the environment variable
    /// <c>NETZEROMQ_LIBZMQ</c>); the package's <c>runtimes/&lt;rid&gt;/native</c> folder; the system names. It is registered as the
    /// import resolver of this assembly, so every <c>[LibraryImport("libzmq")]</c> goes through it. A library that loads but
    /// does not export <c>zmq_version</c> is not libzmq and is refused; every failure is worded by <see cref="LibzmqLoadFailure"/>.
    /// </summary>
    /// <remarks>
    /// The runtime's default probing looks for <c>libzmq.so</c>, which Debian and Ubuntu only install with the development package;
    /// the runtime package ships <c>libzmq.so.5</c>. This is why clrzmq4's "Unable to load shared library 'libzmq'" was its most
    /// reported issue, and why the resolver tries the versioned names explicitly.
    /// </remarks>
    internal static class LibzmqResolver
    {
        internal const string EnvironmentVariable = "NETZEROMQ_LIBZMQ";

        /// <summary>The export every libzmq has: a library without it is not libzmq, whatever its file is called.</summary>
        private const string ProofExport = "zmq_version";

        private static readonly object s_lock = new object();
        private static nint s_libzmq;
        private static nint s_libc;
        private static string? s_loadedPath;
        private static LibzmqSource s_loadedSource;
        private static string? s_libraryPath;
        private static string? s_platformRuntimeIdentifier; // made once; a race makes the same string twice

        /// <summary>The oldest libzmq this binding runs on (the public <c>Libzmq.MinimumVersion</c>).</summary>
        internal static readonly Version MinimumVersion = new Version(4, 1, 0);

        /// <summary>
        /// The application's explicit path (the public <c>Libzmq.LibraryPath</c>). It can change only until libzmq is loaded:
        /// after that a different value would silently not apply, so setting one throws.
        /// </summary>
        internal static string? LibraryPath
        {
            get => Volatile.Read(ref s_libraryPath);
            set
            {
                // Under the load's lock, so a value cannot slip in while a load is reading the old one.
                lock (s_lock)
                {
                    if (s_loadedPath is not null && value != s_libraryPath)
                    {
                        throw new InvalidOperationException(
                            "libzmq is already loaded from '" + s_loadedPath + "'; set Libzmq.LibraryPath before the first use of NetZeroMQ.");
                    }

                    Volatile.Write(ref s_libraryPath, value);
                }
            }
        }

        /// <summary>The path (or system name) libzmq was loaded from, or null before the first load.</summary>
        internal static string? LoadedPath => s_loadedPath;

        /// <summary>Where <see cref="LoadedPath"/> came from.</summary>
        internal static LibzmqSource LoadedSource => s_loadedSource;

        /// <summary>The file name libzmq's shared library has on this platform, for messages.</summary>
        internal static string TypicalFileName => FileNames()[0];

        /// <summary>
        /// Loads libzmq now if it is not loaded yet; throws a <see cref="DllNotFoundException"/> that names the file, where its
        /// path came from and the loader's full reason (see <see cref="LibzmqLoadFailure"/>).
        /// </summary>
        internal static nint EnsureLoaded()
        {
            nint handle = Volatile.Read(ref s_libzmq);
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
                    nint loaded = Load(new List<LoadAttempt>(), out s_loadedPath, out s_loadedSource);
#if NET
                    // Before the handle is published: a thread that sees it may go on to send at once.
                    Interop.TransferExports.Bind(loaded);
#endif
                    Volatile.Write(ref s_libzmq, loaded);
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
            string? explicitPath = ExplicitPath(out LibzmqSource source);
            if (explicitPath is not null)
            {
                throw new NotSupportedException(
                    "This runtime has no NativeLibrary API, so NetZeroMQ cannot load libzmq from '" + explicitPath + "' (" +
                    LibzmqLoadFailure.Describe(source) + "). Put libzmq next to the application (Windows: libzmq.dll) " +
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

        private static nint Load(List<LoadAttempt> attempts, out string? loadedFrom, out LibzmqSource source)
        {
            string? explicitPath = ExplicitPath(out source);
            nint handle;
            if (explicitPath is not null)
            {
                // An explicit choice is never silently replaced by another library: that would hide a misconfiguration.
                if (!TryOne(explicitPath, attempts, out handle))
                {
                    throw new DllNotFoundException(LibzmqLoadFailure.ExplicitPath(attempts[attempts.Count - 1], source));
                }

                loadedFrom = explicitPath;
                return handle;
            }

            foreach (string candidate in PackageCandidates())
            {
                if (File.Exists(candidate) && TryOne(candidate, attempts, out handle))
                {
                    loadedFrom = candidate;
                    return handle;
                }
            }

            foreach (string name in FileNames())
            {
                if (TryOne(name, attempts, out handle))
                {
                    loadedFrom = name;
                    return handle;
                }
            }

            throw new DllNotFoundException(LibzmqLoadFailure.Search(attempts, PackageFolders()));
        }

        /// <summary><see cref="LibraryPath"/>, else the environment variable; null when neither is set.</summary>
        private static string? ExplicitPath(out LibzmqSource source)
        {
            string? libraryPath = LibraryPath;
            if (!string.IsNullOrEmpty(libraryPath))
            {
                source = LibzmqSource.LibraryPath;
                return libraryPath;
            }

            string? fromEnvironment = Environment.GetEnvironmentVariable(EnvironmentVariable);
            source = string.IsNullOrEmpty(fromEnvironment) ? LibzmqSource.Search : LibzmqSource.EnvironmentVariable;
            return string.IsNullOrEmpty(fromEnvironment) ? null : fromEnvironment;
        }

        /// <summary>Loads one candidate and keeps it only if it is libzmq; otherwise records why not.</summary>
        private static bool TryOne(string pathOrName, List<LoadAttempt> attempts, out nint handle)
        {
            if (!NativeLoader.TryLoad(pathOrName, out handle, out string? reason))
            {
                attempts.Add(new LoadAttempt(pathOrName, reason ?? "not loadable"));
                return false;
            }

            if (!NativeLoader.HasExport(handle, ProofExport))
            {
                // Without this check the first call would fail with a bare EntryPointNotFoundException for "libzmq", naming
                // neither the file nor the problem.
                NativeLoader.Free(handle);
                handle = 0;
                attempts.Add(new LoadAttempt(pathOrName, loaderReason: null));
                return false;
            }

            return true;
        }

        private static List<string> PackageFolders()
        {
            // The application folder: NuGet copies runtimes/<rid>/native there (and flattens it for RID-specific publishes).
            // Assembly.Location is not used because it is empty in single-file and NativeAOT applications.
            string baseDir = AppContext.BaseDirectory;
            var folders = new List<string>();
            foreach (string rid in RuntimeIdentifiers())
            {
                // The runtime's own identifier is often the portable one too (linux-x64): each folder once.
                string folder = Path.Combine(baseDir, "runtimes", rid, "native");
                if (!folders.Contains(folder))
                {
                    folders.Add(folder);
                }
            }

            folders.Add(baseDir);
            return folders;
        }

        private static IEnumerable<string> PackageCandidates()
        {
            foreach (string folder in PackageFolders())
            {
                foreach (string name in FileNames())
                {
                    yield return Path.Combine(folder, name);
                }
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

        /// <summary>
        /// This process's platform as a portable runtime identifier (<c>linux-musl-x64</c>, <c>osx-arm64</c>, <c>win-x86</c>),
        /// the name NetZeroMQ.Native's folders and the loading error's advice use. The runtime's own identifier may be a
        /// distribution's (<c>ubuntu.24.04-x64</c>, source-built .NET): this one is made from the OS, the C library and the
        /// process's architecture.
        /// </summary>
        internal static string PlatformRuntimeIdentifier => s_platformRuntimeIdentifier ??= MakePlatformRuntimeIdentifier();

        private static string MakePlatformRuntimeIdentifier()
        {
            string arch = RuntimeInformation.ProcessArchitecture.ToString().ToLowerInvariant();
            string os = RuntimeInformation.IsOSPlatform(OSPlatform.Windows) ? "win"
                : RuntimeInformation.IsOSPlatform(OSPlatform.OSX) ? "osx"
                : RuntimeInformation.IsOSPlatform(OSPlatform.Create("FREEBSD")) ? "freebsd"
                : IsMusl() ? "linux-musl"
                : "linux";
            return os + "-" + arch;
        }

        /// <summary>Whether this Linux runs on musl: the runtime says so (a musl build of .NET), or the system is Alpine.</summary>
        private static bool IsMusl()
        {
#if NET
            if (RuntimeInformation.RuntimeIdentifier.Contains("-musl-", StringComparison.Ordinal))
            {
                return true;
            }
#endif
            return File.Exists("/etc/alpine-release");
        }

        private static IEnumerable<string> RuntimeIdentifiers()
        {
#if NET
            yield return RuntimeInformation.RuntimeIdentifier;
#endif
            string platform = PlatformRuntimeIdentifier;
            yield return platform;
            if (platform.StartsWith("linux-musl-", StringComparison.Ordinal))
            {
                // What NuGet's graph falls back to from musl: a package with no musl folder may still carry a glibc build
                // that a compatibility layer (gcompat) can load.
                yield return "linux-" + platform.Substring("linux-musl-".Length);
            }
        }
    }
}
