using System.Diagnostics;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// The prerequisite checks of build.sh (eng/prerequisites.sh), run the way build.sh runs them: bash with
    /// <c>set -euo pipefail</c>. A check that reports "missing" for something present makes build.sh run apt-get again
    /// (through sudo on a machine without root).
    /// </summary>
    public class BuildScriptTests
    {
        [Fact]
        public void SharedLibraryPresent_Libzmq200TimesUnderPipefail_NeverReportsMissing()
        {
            // `ldconfig -p | grep -q` failed here about once in eight: grep exits at the first match, ldconfig dies of
            // SIGPIPE, and pipefail makes that the check's result. 200 calls of the old check all succeeding has a chance
            // of about 1 in 10^11.
            (int exitCode, string output) = Bash(
                "missing=0; for i in $(seq 200); do shared_library_present libzmq.so.5 || missing=$((missing + 1)); done; " +
                "echo \"missing=$missing\"");

            Assert.True(exitCode == 0, output);
            Assert.Equal("missing=0", output.Trim());
        }

        [Fact]
        public void SharedLibraryPresent_UnknownLibrary_ReportsMissing()
        {
            (int exitCode, string output) = Bash(
                "if shared_library_present libnetzeromq-none.so.9; then echo present; else echo absent; fi; " +
                "if shared_library_present libzmq.so; then echo present; else echo absent; fi");

            Assert.True(exitCode == 0, output);
            Assert.Equal("absent\npresent", output.Trim());
        }

        [Fact]
        public void MissingAptPackages_TestJobOnThisMachine_NothingToInstall()
        {
            // This suite runs after build.sh installed the test job's prerequisites: nothing may be reported missing now.
            (int exitCode, string output) = Bash("echo \"[$(missing_apt_packages test)]\"");

            Assert.True(exitCode == 0, output);
            Assert.Equal("[]", output.Trim());
        }

        private static (int ExitCode, string Output) Bash(string commands)
        {
            // env restores the default action of SIGPIPE, which .NET ignores and a child inherits: under a terminal or CI the
            // signal kills a writer whose reader has gone, and that is the trap these checks must not fall into.
            var start = new ProcessStartInfo("env")
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                WorkingDirectory = Repository.Root,
            };
            start.ArgumentList.Add("--default-signal=PIPE");
            start.ArgumentList.Add("bash");
            start.ArgumentList.Add("-c");
            start.ArgumentList.Add("set -euo pipefail; . eng/prerequisites.sh; " + commands);
            using Process bash = Process.Start(start)!;
            var error = bash.StandardError.ReadToEndAsync();
            string output = bash.StandardOutput.ReadToEnd();
            Assert.True(bash.WaitForExit((int)TestTimeouts.Expected.TotalMilliseconds * 6), "bash did not finish");
            return (bash.ExitCode, output + error.Result);
        }
    }
}
