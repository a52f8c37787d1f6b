using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.IO.Compression;
using System.Linq;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Packaging
{
    /// <summary>
    /// NetZeroMQ.Native holds only binaries that <c>./build.sh native-all</c> ran: the runtimes it may hold are one list,
    /// <c>eng/native/runtimes.txt</c>, which the job builds and runs and which the package's project checks every staged
    /// runtime against (with the job's record of what passed). A runtime added to the package by hand, or one that nothing
    /// here can run, fails the pack; these tests pack with such folders and read the package that results.
    /// </summary>
    public class NativeRuntimesTests
    {
        private static readonly TimeSpan PackTimeout = TimeSpan.FromMinutes(5);

        [Fact]
        public void RuntimesList_IsWhatTheLibraryCallsBundled()
        {
            Assert.Equal(LibzmqLoadFailure.BundledRuntimes.OrderBy(r => r, StringComparer.Ordinal), ShippedRuntimes().OrderBy(r => r, StringComparer.Ordinal));
        }

        [Fact]
        public void RuntimesList_EveryRuntime_HasABuildASmokeTestAndARunnerInTheJob()
        {
            string native = Path.Combine(Repository.Root, "eng", "native");
            string build = File.ReadAllText(Path.Combine(native, "build-libzmq.sh"));
            string smoke = File.ReadAllText(Path.Combine(native, "smoke.sh"));
            string setup = File.ReadAllText(Path.Combine(native, "setup.sh"));
            foreach (string rid in ShippedRuntimes())
            {
                Assert.Contains(rid, build);
                Assert.Contains(rid + ")", smoke); // a case of its own: compiled and run on its platform or an emulator
                Assert.Contains(rid + ")", setup); // the tools it needs
            }

            // native-all is the whole list, and a runtime outside it is refused by the job itself.
            Assert.Contains("eng/native/native.sh --all", File.ReadAllText(Path.Combine(Repository.Root, "build.sh")));
            string job = File.ReadAllText(Path.Combine(native, "native.sh"));
            Assert.Contains("\"$here/runtimes.txt\"", job);
            Assert.Contains("is not in eng/native/runtimes.txt", job);
        }

        [Fact]
        public void Pack_RuntimeNotListedOrNotRun_FailsNamingEach()
        {
            string artifacts = StageArtifacts(staged: new[] { "linux-x64", "osx-arm64", "win-x86" }, passed: new[] { "linux-x64", "osx-arm64" });
            try
            {
                (int exitCode, string output) = Pack(artifacts);

                Assert.True(exitCode != 0, output);
                Assert.Contains("NetZeroMQ.Native ships only binaries that ./build.sh native-all ran. Not in eng/native/runtimes.txt: [osx-arm64]; " +
                    "not passed in the run that staged them (no line in " + artifacts + "passed-runtimes.txt): [win-x86].", output);
                Assert.Empty(Directory.GetFiles(Path.Combine(artifacts, "out"), "*.nupkg"));
            }
            finally
            {
                Directory.Delete(artifacts, recursive: true);
            }
        }

        [Fact]
        public void Pack_ListedRuntimesThatPassed_HoldsExactlyThose()
        {
            string[] runtimes = { "linux-musl-x64", "win-x86" };
            string artifacts = StageArtifacts(staged: runtimes, passed: runtimes);
            try
            {
                (int exitCode, string output) = Pack(artifacts);

                Assert.True(exitCode == 0, output);
                string package = Assert.Single(Directory.GetFiles(Path.Combine(artifacts, "out"), "NetZeroMQ.Native.*.nupkg"));
                using ZipArchive zip = ZipFile.OpenRead(package);
                Assert.Equal(
                    new[] { "runtimes/linux-musl-x64/native/libzmq.so", "runtimes/win-x86/native/libzmq.dll" },
                    zip.Entries.Select(e => e.FullName).Where(n => n.StartsWith("runtimes/", StringComparison.Ordinal)).OrderBy(n => n, StringComparer.Ordinal));
            }
            finally
            {
                Directory.Delete(artifacts, recursive: true);
            }
        }

        /// <summary>The runtime identifiers of eng/native/runtimes.txt, comments and blank lines aside.</summary>
        private static IReadOnlyList<string> ShippedRuntimes()
        {
            List<string> runtimes = File.ReadAllLines(Path.Combine(Repository.Root, "eng", "native", "runtimes.txt"))
                .Select(line => line.Trim())
                .Where(line => line.Length > 0 && !line.StartsWith("#", StringComparison.Ordinal))
                .ToList();
            Assert.NotEmpty(runtimes);
            return runtimes;
        }

        /// <summary>A folder laid out as eng/native/native.sh leaves artifacts/native/, with stand-in files for the libraries.</summary>
        private static string StageArtifacts(string[] staged, string[] passed)
        {
            string artifacts = Path.Combine(Path.GetTempPath(), "netzeromq-native-" + Guid.NewGuid().ToString("N")) + Path.DirectorySeparatorChar;
            foreach (string rid in staged)
            {
                string folder = Path.Combine(artifacts, "runtimes", rid, "native");
                Directory.CreateDirectory(folder);
                File.WriteAllText(Path.Combine(folder, rid.StartsWith("win-", StringComparison.Ordinal) ? "libzmq.dll" : "libzmq.so"), "stand-in for " + rid);
            }

            File.WriteAllLines(Path.Combine(artifacts, "passed-runtimes.txt"), passed);
            File.WriteAllText(Path.Combine(artifacts, "LICENSE.txt"), "licence texts");
            Directory.CreateDirectory(Path.Combine(artifacts, "out"));
            return artifacts;
        }

        private static (int ExitCode, string Output) Pack(string artifacts)
        {
            var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
            foreach (string argument in new[]
            {
                "pack", Path.Combine(Repository.Root, "src", "NetZeroMQ.Native", "NetZeroMQ.Native.csproj"), "-c", "Release", "--nologo",
                "-o", Path.Combine(artifacts, "out"), "-p:NativeArtifacts=" + artifacts,
            })
            {
                start.ArgumentList.Add(argument);
            }

            using Process process = Process.Start(start) ?? throw new InvalidOperationException("could not start dotnet");
            var error = process.StandardError.ReadToEndAsync();
            var output = process.StandardOutput.ReadToEndAsync();
            if (!process.WaitForExit((int)PackTimeout.TotalMilliseconds))
            {
                process.Kill(entireProcessTree: true);
                throw new TimeoutException("dotnet pack did not finish within " + PackTimeout);
            }

            return (process.ExitCode, output.Result + error.Result);
        }
    }
}
