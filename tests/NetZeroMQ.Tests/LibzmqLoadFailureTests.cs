using System;
using System.IO;
using System.Runtime.InteropServices;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// The advice of the loading error, platform by platform: it names the platform (its runtime identifier) and the install
    /// command of that platform's package manager, and says whether NetZeroMQ.Native bundles a libzmq for it. The whole
    /// failure, in a child process, is in <see cref="LibzmqLoadingTests"/>.
    /// </summary>
    public class LibzmqLoadFailureTests
    {
        private static readonly LoadAttempt[] Attempts = { new LoadAttempt("libzmq.5.dylib", "dlopen(libzmq.5.dylib, 0x0005): tried: 'libzmq.5.dylib' (no such file)") };

        [Theory]
        [InlineData("osx-arm64", "Homebrew 'brew install zeromq' (NetZeroMQ looks in /opt/homebrew/lib and /usr/local/lib)")]
        [InlineData("osx-x64", "Homebrew 'brew install zeromq'")]
        [InlineData("win-arm64", "vcpkg 'vcpkg install zeromq:arm64-windows', then put its libzmq DLL next to the application")]
        [InlineData("linux-arm", "Debian/Ubuntu 'apt-get install libzmq5'; Fedora/RHEL 'dnf install zeromq'")]
        [InlineData("linux-riscv64", "Debian/Ubuntu 'apt-get install libzmq5'; Fedora/RHEL 'dnf install zeromq'")]
        [InlineData("linux-musl-arm", "Alpine 'apk add libzmq'")]
        [InlineData("freebsd-x64", "FreeBSD 'pkg install libzmq4'")]
        public void Search_PlatformWithoutBundledLibzmq_NamesPlatformAndItsInstallCommand(string rid, string command)
        {
            string message = LibzmqLoadFailure.Search(Attempts, new[] { "/app/runtimes/" + rid + "/native", "/app" }, rid);

            Assert.Contains("NetZeroMQ.Native bundles no libzmq for this platform (" + rid + "): NetZeroMQ uses the system's libzmq here. Install it: " + command, message);
            Assert.Contains("  - libzmq.5.dylib: the system loader says: dlopen(libzmq.5.dylib, 0x0005)", message);
            Assert.EndsWith("Or point NetZeroMQ at the file with the NETZEROMQ_LIBZMQ environment variable or Libzmq.LibraryPath before first use.", message);
            // One platform's advice, not every platform's: a macOS user is not told about apt-get, nor a Linux user about brew.
            Assert.Equal(rid.StartsWith("osx-", StringComparison.Ordinal), message.Contains("brew", StringComparison.Ordinal));
            Assert.Equal(rid.StartsWith("win-", StringComparison.Ordinal), message.Contains("vcpkg", StringComparison.Ordinal));
            Assert.Equal(rid.StartsWith("linux-", StringComparison.Ordinal) && !rid.Contains("musl", StringComparison.Ordinal),
                message.Contains("apt-get", StringComparison.Ordinal));
        }

        [Theory]
        [InlineData("linux-x64", "apt-get install libzmq5")]
        [InlineData("linux-musl-arm64", "apk add libzmq")]
        [InlineData("win-x86", "vcpkg install zeromq:x86-windows")]
        public void Search_PlatformWithBundledLibzmq_SaysThePackageDidNotReachTheApplication(string rid, string command)
        {
            string message = LibzmqLoadFailure.Search(Attempts, new[] { "/app" }, rid);

            Assert.Contains("NetZeroMQ.Native bundles libzmq for this platform (" + rid + "), but no copy that loads was found beside the application: " +
                "check that the NetZeroMQ.Native package (which the NetZeroMQ package depends on) is restored and its runtimes/" + rid +
                "/native folder deployed, or install the system's libzmq: ", message);
            Assert.Contains(command, message);
            Assert.DoesNotContain("bundles no libzmq", message);
        }

        [Fact]
        public void PlatformRuntimeIdentifier_ThisProcess_IsThePortableIdentifierOfThisMachine()
        {
            // The machines this suite runs on: Linux with glibc (Debian, Ubuntu).
            Assert.True(RuntimeInformation.IsOSPlatform(OSPlatform.Linux) && !File.Exists("/etc/alpine-release"), "this test expects glibc Linux");
            string expected = "linux-" + RuntimeInformation.ProcessArchitecture.ToString().ToLowerInvariant();

            Assert.Equal(expected, LibzmqResolver.PlatformRuntimeIdentifier);
        }
    }
}
