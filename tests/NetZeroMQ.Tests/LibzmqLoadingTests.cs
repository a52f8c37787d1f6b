using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// How loading libzmq fails, case by case. Loading happens once per process, so each case runs in a child process
    /// (<see cref="Child"/>) that sets the path the way the case says and reports what the first use of NetZeroMQ threw.
    /// Every failure must name the file, where its path came from, the loader's full reason, and advice that fits.
    /// </summary>
    public class LibzmqLoadingTests
    {
        internal const string Scenario = "load-libzmq-from";

        internal const string DraftProbeScenario = "draft-probe-without-libzmq";

        [Fact]
        public void DraftApi_LibzmqCannotLoad_IsFalseEveryTimeAndTheNextCallThrowsDllNotFound()
        {
            // The draft probe's type initializer met the loading error: TypeInitializationException on this and every later access.
            (int exitCode, string output) = ChildProcess.Run(
                DraftProbeScenario, Array.Empty<string>(), Environment("/nonexistent/netzeromq-test/libzmq.so.5"), TimeSpan.FromSeconds(60), launcher: null);

            Assert.True(exitCode == 0, output);
            Assert.Contains("IsAvailable=False", output);
            Assert.Contains("again=False HasPoller=False HasConnectPeer=False HasVersionedMonitor=False", output);
            Assert.Contains(typeof(DllNotFoundException).FullName!, output);
            Assert.DoesNotContain(nameof(TypeInitializationException), output);
            Assert.DoesNotContain("a context without libzmq", output);
        }

        private const string FromEnvironment = "environment";
        private const string FromLibraryPath = "library-path";

        public static TheoryData<string> Sources => new TheoryData<string> { FromEnvironment, FromLibraryPath };

        [Theory]
        [MemberData(nameof(Sources))]
        public void Load_ExplicitPathMissing_NamesPathSourceAndFullLoaderReason(string source)
        {
            const string missing = "/nonexistent/netzeromq-test/libzmq.so.5";

            string output = RunChild(source, missing);

            AssertExplicitPathRefused(output, missing, source);
            Assert.Contains("the system loader says: " + missing + ": cannot open shared object file: No such file or directory", output);
            Assert.Contains("No file exists at that path: correct " + SettingName(source), output);
        }

        [Theory]
        [InlineData(FromEnvironment, "hello", "file too short")]
        [InlineData(FromLibraryPath, "hello", "file too short")]
        [InlineData(FromEnvironment, "this is a text file, long enough to hold an ELF header, but it is not a shared library", "invalid ELF header")]
        [InlineData(FromLibraryPath, "this is a text file, long enough to hold an ELF header, but it is not a shared library", "invalid ELF header")]
        public void Load_ExplicitPathIsNotALibrary_NamesPathSourceAndFullLoaderReason(string source, string content, string loaderReason)
        {
            string folder = NewTemporaryFolder();
            try
            {
                string file = Path.Combine(folder, "libzmq.so.5");
                File.WriteAllText(file, content);

                string output = RunChild(source, file);

                AssertExplicitPathRefused(output, file, source);
                Assert.Contains("the system loader says: " + file + ": " + loaderReason, output);
                Assert.Contains("The file exists, but the loader refused it", output);
                Assert.Contains("Point " + SettingName(source) + " at libzmq's shared library (libzmq.so.5)", output);
            }
            finally
            {
                Directory.Delete(folder, recursive: true);
            }
        }

        [Theory]
        [MemberData(nameof(Sources))]
        public void Load_ExplicitPathIsAFolder_SaysSoAndNamesTheFileToGive(string source)
        {
            string folder = NewTemporaryFolder();
            try
            {
                string output = RunChild(source, folder);

                AssertExplicitPathRefused(output, folder, source);
                Assert.Contains("the system loader says: " + folder + ": cannot read file data: Is a directory", output);
                Assert.Contains("That path is a folder", output);
                Assert.Contains(Path.Combine(folder, "libzmq.so.5"), output);
            }
            finally
            {
                Directory.Delete(folder, recursive: true);
            }
        }

        [Theory]
        [MemberData(nameof(Sources))]
        public void Load_ExplicitPathIsAnotherLibrary_SaysItIsNotLibzmq(string source)
        {
            // The C library: a real shared library, loaded in every process, that is certainly not libzmq.
            string libc = MappedLibrary("/libc.so.6");

            string output = RunChild(source, libc);

            AssertExplicitPathRefused(output, libc, source);
            Assert.Contains("the library loaded, but it is not libzmq: it exports no zmq_version function", output);
            Assert.Contains("Point " + SettingName(source) + " at libzmq's own shared library (libzmq.so.5)", output);
            Assert.DoesNotContain(nameof(EntryPointNotFoundException), output);
        }

        [Theory]
        [MemberData(nameof(Sources))]
        public void Load_ExplicitBareNameNotFound_AdvisesInstallOrFullPath(string source)
        {
            const string name = "libzmq.so.99";

            string output = RunChild(source, name);

            Assert.Contains(typeof(DllNotFoundException).FullName!, output);
            Assert.Contains("could not load libzmq from '" + name + "' (" + SourcePhrase(source) + ")", output);
            Assert.Contains("the system loader says: " + name + ": cannot open shared object file: No such file or directory", output);
            Assert.Contains("a file name without a folder", output);
            Assert.Contains("apt-get install libzmq5", output); // a bare name is a system search: installing can be the fix
        }

        [Theory]
        [MemberData(nameof(Sources))]
        public void Load_ExplicitPathIsLibzmqOlderThanMinimum_NamesPathSourceAndVersion(string source)
        {
            string folder = NewTemporaryFolder();
            try
            {
                string library = BuildLibrary(
                    folder, "void zmq_version(int *major, int *minor, int *patch) { *major = 4; *minor = 0; *patch = 5; }\n");

                string output = RunChild(source, library);

                Assert.Contains(typeof(NotSupportedException).FullName!, output);
                Assert.Contains(
                    "libzmq 4.0.5 loaded from '" + library + "' (" + SourcePhrase(source) + ") is too old: NetZeroMQ needs " +
                    Libzmq.MinimumVersion + " or later", output);
                Assert.Contains("Point " + SettingName(source) + " at libzmq 4.1 or later", output);
                Assert.DoesNotContain("apt-get", output);
            }
            finally
            {
                Directory.Delete(folder, recursive: true);
            }
        }

        [Theory]
        [MemberData(nameof(Sources))]
        public void Load_ExplicitPathIsTheRealLibzmq_LoadsItFromThere(string source)
        {
            string libzmq = MappedLibrary("/libzmq.so");

            string output = RunChild(source, libzmq);

            Assert.Contains("loaded from " + libzmq + " version " + Libzmq.Version, output);
        }

        [Fact]
        public void Load_SystemSearchFindsOnlyABrokenLibzmq_ListsEachNameWithLoaderReasonAndAdvisesInstall()
        {
            // A mount namespace in which libzmq's file reads as empty: the system names still resolve, and the loader refuses
            // each with its own reason. Needs CAP_SYS_ADMIN (root, as in CI) for unshare; without it the test fails and says so.
            string libzmq = SystemLibrary("libzmq.so.5");
            string[] launcher = { "unshare", "--mount", "--propagation", "private", "sh", "-c",
                "mount --bind /dev/null \"$0\" && exec \"$@\"", libzmq };

            (int exitCode, string output) = ChildProcess.Run(
                Scenario, new[] { FromEnvironment }, Environment(null), TimeSpan.FromSeconds(60), launcher);

            Assert.True(exitCode == 0, output);
            Assert.Contains(typeof(DllNotFoundException).FullName!, output);
            Assert.Contains("no path was given (Libzmq.LibraryPath, NETZEROMQ_LIBZMQ), and the system search found no libzmq that loads", output);
            Assert.Contains("  - libzmq.so.5: the system loader says: ", output);
            Assert.Contains("  - libzmq.so: the system loader says: ", output);
            Assert.Contains("libzmq.so.5: file too short", output);
            Assert.Contains(Path.Combine(AppContext.BaseDirectory, "runtimes", "linux-x64", "native"), output);
            Assert.Contains("apt-get install libzmq5", output);
            Assert.Contains("NETZEROMQ_LIBZMQ environment variable or Libzmq.LibraryPath", output);
        }

        /// <summary>The child: sets the path as <paramref name="args"/> say, then uses NetZeroMQ and reports what happened.</summary>
        internal static int Child(string[] args)
        {
            try
            {
                if (args[0] == FromLibraryPath)
                {
                    Libzmq.LibraryPath = args[1];
                }

                using (new Context())
                {
                    Console.WriteLine("loaded from " + Libzmq.LoadedFrom + " version " + Libzmq.Version);
                }
            }
            catch (Exception e)
            {
                Console.WriteLine(e.GetType().FullName);
                Console.WriteLine(e.Message);
            }

            return 0;
        }

        private static void AssertExplicitPathRefused(string output, string path, string source)
        {
            Assert.Contains(typeof(DllNotFoundException).FullName!, output);
            Assert.Contains("NetZeroMQ could not load libzmq from '" + path + "' (" + SourcePhrase(source) + "): ", output);
            Assert.Contains(source == FromEnvironment
                ? "or unset it to use the libzmq installed on the system."
                : "or set Libzmq.LibraryPath to null to use the libzmq installed on the system.", output);
            Assert.Contains("nothing else was tried", output);
            Assert.DoesNotContain("apt-get", output); // the user pointed at a wrong file: installing libzmq is not the fix
            Assert.DoesNotContain("loaded from", output); // an explicit choice is never replaced by the system library
        }

        private static string RunChild(string source, string path)
        {
            (int exitCode, string output) = source == FromEnvironment
                ? ChildProcess.Run(Scenario, new[] { source }, Environment(path), TimeSpan.FromSeconds(60), launcher: null)
                : ChildProcess.Run(Scenario, new[] { source, path }, Environment(null), TimeSpan.FromSeconds(60), launcher: null);
            Assert.True(exitCode == 0, output);
            return output;
        }

        /// <summary>The child's environment: the variable set to <paramref name="path"/>, or removed so the parent's cannot leak in.</summary>
        private static Dictionary<string, string?> Environment(string? path) =>
            new Dictionary<string, string?> { [LibzmqResolver.EnvironmentVariable] = path };

        private static string SourcePhrase(string source) =>
            source == FromEnvironment ? "from the NETZEROMQ_LIBZMQ environment variable" : "from Libzmq.LibraryPath";

        private static string SettingName(string source) =>
            source == FromEnvironment ? "the NETZEROMQ_LIBZMQ environment variable" : "Libzmq.LibraryPath";

        /// <summary>The full path of a library mapped into this process whose path contains <paramref name="fragment"/>.</summary>
        private static string MappedLibrary(string fragment)
        {
            _ = Libzmq.Version; // libzmq is mapped once it is loaded
            string? path = File.ReadLines("/proc/self/maps")
                .Select(line => line.IndexOf('/') is int slash and >= 0 ? line.Substring(slash) : "")
                .FirstOrDefault(candidate => candidate.Contains(fragment, StringComparison.Ordinal));
            return path ?? throw new InvalidOperationException("no library matching '" + fragment + "' is mapped into the test process");
        }

        /// <summary>
        /// The file the system search loads as <paramref name="name"/>: the dynamic loader's cache entry for this process's
        /// architecture, links followed. Not the libzmq mapped into this process: the suite also runs against another one
        /// (NETZEROMQ_LIBZMQ, as CI does with NetZeroMQ.Native's), and hiding that file would leave the system's in view.
        /// </summary>
        private static string SystemLibrary(string name)
        {
            var start = new ProcessStartInfo(File.Exists("/sbin/ldconfig") ? "/sbin/ldconfig" : "ldconfig", "-p") { RedirectStandardOutput = true };
            using Process ldconfig = Process.Start(start)!;
            string cache = ldconfig.StandardOutput.ReadToEnd();
            Assert.True(ldconfig.WaitForExit((int)TestTimeouts.Expected.TotalMilliseconds), "ldconfig did not finish");

            // Lines look like "<tab>libzmq.so.5 (libc6,x86-64) => /lib/x86_64-linux-gnu/libzmq.so.5".
            string abi = RuntimeInformation.ProcessArchitecture == System.Runtime.InteropServices.Architecture.Arm64 ? "AArch64" : "x86-64";
            string? entry = cache.Split('\n').Select(line => line.Trim())
                .FirstOrDefault(line => line.StartsWith(name + " (", StringComparison.Ordinal) && line.Contains(abi, StringComparison.Ordinal));
            if (entry is null)
            {
                throw new InvalidOperationException("the dynamic loader's cache lists no " + name + " for " + abi);
            }

            string path = entry.Substring(entry.IndexOf("=> ", StringComparison.Ordinal) + 3);
            return new FileInfo(path).ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? path;
        }

        private static string NewTemporaryFolder()
        {
            string folder = Path.Combine(Path.GetTempPath(), "netzeromq-loading-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(folder);
            return folder;
        }

        /// <summary>Compiles <paramref name="source"/> (C) into <c>libzmq.so.5</c> in <paramref name="folder"/> with gcc.</summary>
        private static string BuildLibrary(string folder, string source)
        {
            string c = Path.Combine(folder, "fake.c");
            string library = Path.Combine(folder, "libzmq.so.5");
            File.WriteAllText(c, source);
            var start = new ProcessStartInfo("gcc") { RedirectStandardOutput = true, RedirectStandardError = true };
            foreach (string argument in new[] { "-shared", "-fPIC", "-o", library, c })
            {
                start.ArgumentList.Add(argument);
            }

            using Process gcc = Process.Start(start)!;
            string errors = gcc.StandardError.ReadToEnd() + gcc.StandardOutput.ReadToEnd();
            Assert.True(gcc.WaitForExit((int)TestTimeouts.Expected.TotalMilliseconds), "gcc did not finish");
            Assert.True(gcc.ExitCode == 0, "gcc failed: " + errors);
            return library;
        }
    }
}
