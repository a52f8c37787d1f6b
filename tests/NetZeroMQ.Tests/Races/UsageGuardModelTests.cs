using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;
using Xunit.Abstractions;
using static NetZeroMQ.Tests.Races.UsageGuardModel;

namespace NetZeroMQ.Tests.Races
{
    /// <summary>
    /// Every interleaving of the usage guard's protocol, store buffers included (<see cref="UsageGuardModel"/>): the owner, a
    /// second thread and a disposer, a few calls each. What a race test on real threads meets now and then, this meets every
    /// time: 16cdf6a fixed a test that asserted a former owner's calls succeed while another thread held the revoked guard;
    /// <see cref="EveryInterleaving_OwnerAfterTheSecondThreadRevoked_CanBeRefused"/> shows the model reaching that case. The
    /// checker's teeth: each deliberately broken variant of the model is caught.
    /// </summary>
    public class UsageGuardModelTests
    {
        private readonly ITestOutputHelper _output;

        public UsageGuardModelTests(ITestOutputHelper output) => _output = output;

        /// <summary>The bounded scenarios, each with the events that must happen in some interleaving of it (so that the search
        /// is known to reach the paths it claims to check).</summary>
        public static TheoryData<string> Scenarios => new TheoryData<string>
        {
            "biased, second thread enters, dispose",
            "biased, second thread try-enters, dispose",
            "biased, no dispose",
            "the owner's exit biases it, dispose",
            "checked, dispose",
        };

        private static (Scenario Scenario, string[] MustHappen) Named(string name) => name switch
        {
            "biased, second thread enters, dispose" => (
                new Scenario(Biased, OwnerCalls: 2, SecondCalls: 2, Api.Enter, Dispose: true),
                new[] { RevokerFoundOwnerInside, OwnerWithdrew, SecondCalledAfterRevoking, OwnerRefusedWhileSecondInACall, ReleasedByCaller }),
            "biased, second thread try-enters, dispose" => (
                new Scenario(Biased, OwnerCalls: 2, SecondCalls: 2, Api.TryEnterOut, Dispose: true),
                new[] { RevokerFoundOwnerInside, OwnerWithdrew, SecondCalledAfterRevoking, ReleasedByCaller }),
            "biased, no dispose" => (
                new Scenario(Biased, OwnerCalls: 2, SecondCalls: 2, Api.Enter, Dispose: false),
                new[] { RevokerFoundOwnerInside, OwnerWithdrew, SecondCalledAfterRevoking, OwnerRefusedWhileSecondInACall }),
            "the owner's exit biases it, dispose" => (
                new Scenario(Undecided, OwnerCalls: 2, SecondCalls: 1, Api.Enter, Dispose: true, BiasAfterCalls: 3, OwnerCallsInARow: 2),
                new[] { BiasedDuringRun, SecondCalledAfterRevoking, ReleasedByCaller }),
            "checked, dispose" => (
                new Scenario(Checked, OwnerCalls: 2, SecondCalls: 2, Api.Enter, Dispose: true),
                new[] { ReleasedByCaller }),
            _ => throw new ArgumentOutOfRangeException(nameof(name)),
        };

        [Theory]
        [MemberData(nameof(Scenarios))]
        public void EveryInterleaving_OwnerSecondThreadAndDisposer_KeepsEveryRule(string name)
        {
            (Scenario scenario, string[] mustHappen) = Named(name);
            var clock = Stopwatch.StartNew();
            Result result = Check(scenario);
            _output.WriteLine($"{name}: {result.States:N0} states, {result.Steps:N0} steps, {clock.Elapsed.TotalSeconds:F1} s");

            Assert.True(result.Violations.Count == 0, Describe(result.Violations));
            Assert.All(mustHappen, e => Assert.Contains(e, result.Events));
            Assert.True(result.States > 1000, "the search covered " + result.States + " states only");
        }

        [Fact]
        public void EveryInterleaving_OwnerAfterTheSecondThreadRevoked_CanBeRefused()
        {
            // The second thread revokes the bias while the owner is out and makes its call; the owner's next call finds the
            // object checked and held, and is refused: concurrent use, as it should be (the expectation 16cdf6a removed).
            Result result = Check(new Scenario(Biased, OwnerCalls: 1, SecondCalls: 1, Api.Enter, Dispose: false));

            Assert.Empty(result.Violations);
            Assert.Contains(OwnerRefusedWhileSecondInACall, result.Events);
            Assert.Contains(SecondCalledAfterRevoking, result.Events);
        }

        [Fact]
        public void Checker_RevokerSkipsTheBarrier_FindsTwoClaimsAtOnce()
        {
            Result result = Check(new Scenario(Biased, OwnerCalls: 1, SecondCalls: 1, Api.Enter, Dispose: false, Flaw: Flaw.RevokerSkipsBarrier));

            Assert.Contains(result.Violations, v => v.Rule == "never two claims at once");
            Assert.Empty(Check(new Scenario(Biased, OwnerCalls: 1, SecondCalls: 1, Api.Enter, Dispose: false)).Violations);
        }

        [Fact]
        public void Checker_OwnerSkipsTheReread_FindsTwoClaimsAtOnce()
        {
            Result result = Check(new Scenario(Biased, OwnerCalls: 1, SecondCalls: 1, Api.Enter, Dispose: false, Flaw: Flaw.OwnerSkipsReread));

            Assert.Contains(result.Violations, v => v.Rule == "never two claims at once");
        }

        [Fact]
        public void Checker_TryEnterOutCallerWithoutTheRecheck_FindsANativeCallAfterTheRelease()
        {
            // TryEnter(out bool) reads the Dispose flag before it claims: a Dispose that lands in between may have released
            // the object already (it saw no claim), so a caller that uses a true result without reading IsDisposeRequested
            // again calls into a released object. The guard's contract asks for the re-read.
            Result result = Check(new Scenario(Checked, OwnerCalls: 0, SecondCalls: 1, Api.TryEnterOutWithoutRecheck, Dispose: true));

            Assert.Contains(result.Violations, v => v.Rule == "no native call starts after the release");
            Assert.Empty(Check(new Scenario(Checked, OwnerCalls: 0, SecondCalls: 1, Api.TryEnterOut, Dispose: true)).Violations);
        }

        [Fact]
        public void Checker_DisposerSkipsTheBarrier_FindsAReleaseDuringACallOrALeak()
        {
            Result result = Check(new Scenario(Biased, OwnerCalls: 1, SecondCalls: 0, Api.Enter, Dispose: true, Flaw: Flaw.DisposerSkipsBarrier));

            _output.WriteLine(Describe(result.Violations));
            Assert.Contains(result.Violations, v => v.Rule == "never released during a native call");
            Assert.Contains(result.Violations, v => v.Rule == "a disposed object is released (no leak)");
            Assert.Empty(Check(new Scenario(Biased, OwnerCalls: 1, SecondCalls: 0, Api.Enter, Dispose: true)).Violations);
        }

        [Fact]
        public void Checker_ExitReleasesWithoutLookingAtTheState_FindsAReleaseDuringAnotherThreadsCall()
        {
            // The guard before this model: a thread leaves its call, another claims the object and enters its native call,
            // a Dispose lands (and leaves the release to that call), and then the first thread's exit reads the Dispose flag
            // and releases the object under the second thread's call.
            Result result = Check(new Scenario(Checked, OwnerCalls: 1, SecondCalls: 1, Api.Enter, Dispose: true, Flaw: Flaw.ExitReleasesWithoutLookingAtTheState));

            Assert.Contains(result.Violations, v => v.Rule == "never released during a native call");
            Assert.Empty(Check(new Scenario(Checked, OwnerCalls: 1, SecondCalls: 1, Api.Enter, Dispose: true)).Violations);
        }

        [Fact]
        public void Checker_DisposerCountsAWithdrawingOwner_FindsALeak()
        {
            // The guard before this model: the owner's claim meets a revocation and withdraws, its flag still set in memory;
            // the disposer, with the object checked and free, took the flag for a call in flight and left the release to it.
            Result result = Check(new Scenario(Biased, OwnerCalls: 1, SecondCalls: 1, Api.Enter, Dispose: true, Flaw: Flaw.DisposerCountsAWithdrawingOwner));

            Assert.Contains(result.Violations, v => v.Rule == "a disposed object is released (no leak)");
            Assert.Empty(Check(new Scenario(Biased, OwnerCalls: 1, SecondCalls: 1, Api.Enter, Dispose: true)).Violations);
        }

        /// <summary>Each step of the model names the line of the guard it models (<c>// [file] code</c>): every such line must
        /// still be in that file, so that a change to the guard's steps fails here until the model follows it.</summary>
        [Fact]
        public void Model_EveryStep_NamesALineThatIsInTheGuard()
        {
            string native = Path.Combine(Repository.Root, "src", "NetZeroMQ", "Native");
            string model = File.ReadAllText(Path.Combine(Repository.Root, "tests", "NetZeroMQ.Tests", "Races", "UsageGuardModel.cs"));
            var files = new Dictionary<string, string[]>();
            var references = Regex.Matches(model, @"^\s*// \[(?<file>UsageGuard[.A-Za-z]*\.cs)\] (?<code>.+?)\s*$", RegexOptions.Multiline);

            Assert.True(references.Count >= 30, "the model names " + references.Count + " lines of the guard");
            foreach (Match reference in references)
            {
                string file = reference.Groups["file"].Value;
                if (!files.TryGetValue(file, out string[]? lines))
                {
                    lines = File.ReadAllLines(Path.Combine(native, file)).Select(l => l.Trim()).ToArray();
                    files[file] = lines;
                }

                string code = reference.Groups["code"].Value;
                Assert.True(lines.Any(l => l.Contains(code, StringComparison.Ordinal)), $"{file} has no line '{code}'");
            }
        }

        private static string Describe(IReadOnlyList<Violation> violations) =>
            string.Join(Environment.NewLine + Environment.NewLine, violations.Select(v => "violated: " + v.Rule + Environment.NewLine + v.Trace));
    }
}
