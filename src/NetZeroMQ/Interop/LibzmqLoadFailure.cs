using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

namespace NetZeroMQ
{
    /// <summary>One candidate the resolver tried and could not use, with the reason.</summary>
    internal readonly struct LoadAttempt
    {
        internal LoadAttempt(string candidate, string? loaderReason)
        {
            Candidate = candidate;
            LoaderReason = loaderReason;
        }

        /// <summary>The path or system name tried.</summary>
        internal string Candidate { get; }

        /// <summary>The operating system loader's full explanation; null when the library loaded but is not libzmq.</summary>
        internal string? LoaderReason { get; }

        internal bool LoadedButNotLibzmq => LoaderReason is null;

        internal string Outcome => LoaderReason is null
            ? "the library loaded, but it is not libzmq: it exports no zmq_version function"
            : "the system loader says: " + LoaderReason;
    }

    /// <summary>
    /// The messages of a libzmq that could not be used. Each names the file, where its path came from, the loader's own reason
    /// in full, and advice that fits the case: a wrong explicit path is a configuration to correct, not a libzmq to install.
    /// </summary>
    internal static class LibzmqLoadFailure
    {
        /// <summary>
        /// The runtime identifiers NetZeroMQ.Native bundles a libzmq for: the ones <c>./build.sh native-all</c> builds and runs
        /// (<c>eng/native/runtimes.txt</c>; NativeRuntimesTests keeps the two lists equal).
        /// </summary>
        internal static readonly string[] BundledRuntimes =
            { "linux-x64", "linux-arm64", "linux-musl-x64", "linux-musl-arm64", "win-x64", "win-x86" };

        /// <summary>
        /// The command that installs libzmq on the platform <paramref name="rid"/> (a portable runtime identifier such as
        /// <c>osx-arm64</c>), with the package manager that platform's users have: Homebrew on macOS, vcpkg on Windows,
        /// apk on musl Linux (Alpine), apt or dnf on other Linux, pkg on FreeBSD.
        /// </summary>
        internal static string InstallCommand(string rid)
        {
            string arch = rid.Substring(rid.LastIndexOf('-') + 1);
            if (rid.StartsWith("osx-", StringComparison.Ordinal))
            {
                return "Homebrew 'brew install zeromq' (NetZeroMQ looks in /opt/homebrew/lib and /usr/local/lib)";
            }

            if (rid.StartsWith("win-", StringComparison.Ordinal))
            {
                return "vcpkg 'vcpkg install zeromq:" + arch + "-windows', then put its libzmq DLL next to the application or " +
                    "name it in the " + LibzmqResolver.EnvironmentVariable + " environment variable";
            }

            if (rid.StartsWith("linux-musl-", StringComparison.Ordinal))
            {
                return "Alpine 'apk add libzmq'";
            }

            if (rid.StartsWith("linux-", StringComparison.Ordinal))
            {
                return "Debian/Ubuntu 'apt-get install libzmq5'; Fedora/RHEL 'dnf install zeromq'; openSUSE 'zypper install libzmq5'";
            }

            if (rid.StartsWith("freebsd-", StringComparison.Ordinal))
            {
                return "FreeBSD 'pkg install libzmq4'";
            }

            return "Debian/Ubuntu 'apt-get install libzmq5'; Fedora 'dnf install zeromq'; Alpine 'apk add libzmq'; " +
                "macOS 'brew install zeromq'; Windows: vcpkg 'vcpkg install zeromq' or a libzmq.dll next to the application";
        }

        /// <summary>
        /// What to do on the platform <paramref name="rid"/> when no usable libzmq was found: where NetZeroMQ.Native bundles one,
        /// that it did not reach the application (it is deployed with the package); elsewhere, that there is none to bundle
        /// and the system's must be installed, with the command for that platform.
        /// </summary>
        internal static string PlatformAdvice(string rid)
        {
            if (Array.IndexOf(BundledRuntimes, rid) >= 0)
            {
                return "NetZeroMQ.Native bundles libzmq for this platform (" + rid + "), but no copy that loads was found beside the " +
                    "application: " +
                    "check that the NetZeroMQ.Native package (which the NetZeroMQ package depends on) is restored and its " +
                    "runtimes/" + rid + "/native folder deployed, or install the system's libzmq: " + InstallCommand(rid) + ".";
            }

            return "NetZeroMQ.Native bundles no libzmq for this platform (" + rid + "): NetZeroMQ uses the system's libzmq here. " +
                "Install it: " + InstallCommand(rid) + ".";
        }

        private static string UseSystem(LibzmqSource source) =>
            (source == LibzmqSource.LibraryPath ? "or set Libzmq.LibraryPath to null" : "or unset it") +
            " to use the libzmq installed on the system.";

        /// <summary>Where a path came from, as a phrase: "from Libzmq.LibraryPath".</summary>
        internal static string Describe(LibzmqSource source) => source switch
        {
            LibzmqSource.LibraryPath => "from Libzmq.LibraryPath",
            LibzmqSource.EnvironmentVariable => "from the " + LibzmqResolver.EnvironmentVariable + " environment variable",
            _ => "found by the system search",
        };

        /// <summary>The setting that chose the path, as the subject of advice.</summary>
        private static string Setting(LibzmqSource source) =>
            source == LibzmqSource.LibraryPath ? "Libzmq.LibraryPath" : "the " + LibzmqResolver.EnvironmentVariable + " environment variable";

        /// <summary>An explicit path (<c>Libzmq.LibraryPath</c> or the environment variable) gave no usable libzmq.</summary>
        internal static string ExplicitPath(LoadAttempt attempt, LibzmqSource source)
        {
            string path = attempt.Candidate;
            string setting = Setting(source);
            string fileName = LibzmqResolver.TypicalFileName;
            string advice;
            if (attempt.LoadedButNotLibzmq)
            {
                advice = "Point " + setting + " at libzmq's own shared library (" + fileName + "), " + UseSystem(source);
            }
            else if (Directory.Exists(path))
            {
                advice = "That path is a folder: give the path of the libzmq file in it (such as '" + Path.Combine(path, fileName) + "'), " +
                    UseSystem(source);
            }
            else if (path.IndexOf(Path.DirectorySeparatorChar) < 0 && path.IndexOf(Path.AltDirectorySeparatorChar) < 0)
            {
                // A bare name is looked up in the loader's search path, like the system search: installing libzmq can be the fix.
                advice = "'" + path + "' is a file name without a folder, which the loader looks up in the system's library search " +
                    "path: install libzmq (" + InstallCommand(LibzmqResolver.PlatformRuntimeIdentifier) + "), give the full path " +
                    "of the file, " + UseSystem(source);
            }
            else if (!File.Exists(path))
            {
                advice = "No file exists at that path: correct " + setting + ", " + UseSystem(source);
            }
            else
            {
                advice = "The file exists, but the loader refused it for the reason above (for example: not a shared library, built " +
                    "for another processor architecture, or a library it depends on is missing). Point " + setting + " at libzmq's " +
                    "shared library (" + fileName + "), " + UseSystem(source);
            }

            return "NetZeroMQ could not load libzmq from '" + path + "' (" + Describe(source) + "): " + attempt.Outcome + "." +
                Environment.NewLine + advice + " An explicit path is final: nothing else was tried.";
        }

        /// <summary>No explicit path was given and nothing the search tried was a usable libzmq.</summary>
        internal static string Search(IReadOnlyList<LoadAttempt> attempts, IEnumerable<string> packageFolders) =>
            Search(attempts, packageFolders, LibzmqResolver.PlatformRuntimeIdentifier);

        /// <summary><see cref="Search(IReadOnlyList{LoadAttempt}, IEnumerable{string})"/> for the platform <paramref name="rid"/>.</summary>
        internal static string Search(IReadOnlyList<LoadAttempt> attempts, IEnumerable<string> packageFolders, string rid)
        {
            var text = new StringBuilder();
            text.Append("NetZeroMQ could not load libzmq (ZeroMQ ").Append(LibzmqResolver.MinimumVersion.ToString(2))
                .Append(" or later): no path was given (Libzmq.LibraryPath, ").Append(LibzmqResolver.EnvironmentVariable)
                .Append("), and the system search found no libzmq that loads. It looked for a libzmq shipped with the application in");
            string separator = " ";
            foreach (string folder in packageFolders)
            {
                text.Append(separator).Append('\'').Append(folder).Append('\'');
                separator = ", ";
            }

            text.Append(", then tried, in order:");
            foreach (LoadAttempt attempt in attempts)
            {
                text.Append(Environment.NewLine).Append("  - ").Append(attempt.Candidate).Append(": ").Append(attempt.Outcome);
            }

            text.Append(Environment.NewLine)
                .Append(PlatformAdvice(rid)).Append(" Or point NetZeroMQ at the file with the ")
                .Append(LibzmqResolver.EnvironmentVariable).Append(" environment variable or Libzmq.LibraryPath before first use.");
            return text.ToString();
        }

        /// <summary>The loaded libzmq is older than <see cref="LibzmqResolver.MinimumVersion"/>.</summary>
        internal static string TooOld(Version version, string path, LibzmqSource source)
        {
            string advice = source == LibzmqSource.Search
                ? "Install a newer libzmq (" + InstallCommand(LibzmqResolver.PlatformRuntimeIdentifier) + "), or point NetZeroMQ at one with the " +
                  LibzmqResolver.EnvironmentVariable + " environment variable or Libzmq.LibraryPath."
                : "Point " + Setting(source) + " at libzmq " + LibzmqResolver.MinimumVersion.ToString(2) + " or later, " + UseSystem(source);
            return "libzmq " + version + " loaded from '" + path + "' (" + Describe(source) + ") is too old: NetZeroMQ needs " +
                LibzmqResolver.MinimumVersion + " or later." + Environment.NewLine + advice;
        }
    }
}
