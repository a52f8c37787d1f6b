using System.Diagnostics;
using System.IO;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// The budget check of benchmarks/instructions/measure.sh (its function in budget.sh), called with made-up counts: measuring
    /// needs valgrind and a NativeAOT build, the check itself does not.
    /// </summary>
    public class InstructionBudgetTests
    {
        private static readonly string Folder = Path.Combine(Repository.Root, "benchmarks", "instructions");

        [Theory]
        [InlineData("span", 100, 0, "budget: the span path costs 100 instructions per message, within its budget of 100")]
        [InlineData("message", 150, 0, "budget: the message path costs 150 instructions per message, within its budget of 200")]
        [InlineData("span", 101, 1, "budget: the span path costs 101 instructions per message, over its budget of 100 by 1 (fake-budgets.txt)")]
        [InlineData("message", 287, 1, "budget: the message path costs 287 instructions per message, over its budget of 200 by 87 (fake-budgets.txt)")]
        [InlineData("zerocopy", 1, 2, "budget: fake-budgets.txt has no budget for the zerocopy path (a line 'zerocopy <instructions>')")]
        [InlineData("#", 1, 2, "budget: fake-budgets.txt has no budget for the # path (a line '# <instructions>')")]
        public void CheckBudget_FakeCount_ComparesWithItsBudget(string path, int count, int exitCode, string line)
        {
            // A budgets file of made-up numbers in the format of budgets.txt: comments, then one "<path> <budget>" line each.
            (int code, string output) = Bash(
                "cd \"$(mktemp -d)\"; trap 'rm -rf \"$PWD\"' EXIT; printf '# comment line\\nspan 100\\nmessage 200\\n' > fake-budgets.txt; "
                + $". \"{Folder}/budget.sh\"; check_budget fake-budgets.txt '{path}' {count}");

            Assert.Equal(line, output.Trim());
            Assert.Equal(exitCode, code);
        }

        [Fact]
        public void BudgetsFile_EveryMeasuredPath_HasABudget()
        {
            // measure.sh measures the paths its modes=(...) and modes+=(...) lines list (the draft ones with a draft libzmq);
            // each must have a line, or the script fails every run. The paths are read from the script, so that a path added
            // there is checked here; the list printed first is asserted too, so that a parse that finds none cannot pass.
            (int code, string output) = Bash(". ./budget.sh; paths=$(sed -n 's/^ *modes+\\?=(\\(.*\\))$/\\1/p' measure.sh); echo paths: $paths; "
                + "for path in $paths; do check_budget budgets.txt \"$path\" 0; done");

            Assert.True(code == 0, output);
            Assert.StartsWith("paths: span message traced untraced clientserver-span clientserver radiodish\n", output);
        }

        private static (int ExitCode, string Output) Bash(string commands)
        {
            var start = new ProcessStartInfo("bash") { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = Folder };
            start.ArgumentList.Add("-c");
            start.ArgumentList.Add("set -euo pipefail; " + commands);
            using Process bash = Process.Start(start)!;
            var error = bash.StandardError.ReadToEndAsync();
            string output = bash.StandardOutput.ReadToEnd();
            Assert.True(bash.WaitForExit((int)TestTimeouts.Expected.TotalMilliseconds * 6), "bash did not finish");
            return (bash.ExitCode, output + error.Result);
        }
    }
}
