using System;
using System.Collections.Generic;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Races
{
    /// <summary>
    /// Two threads using one message at once must get <see cref="InvalidOperationException"/> (or, against a Dispose,
    /// <see cref="ObjectDisposedException"/>), as the README promises, and every read must be one whole payload: no member may
    /// copy into or out of native memory after letting go of the message's guard, where the other thread can free it. Each
    /// pair runs in a child process (<see cref="MessageRaceScenarios"/>), because the defect kills the process (SIGSEGV).
    /// The class runs alone: its children keep both cores busy for about half a minute, which would skew the timing-sensitive
    /// tests beside them (reaper lag in the churn test, cancellation latency).
    /// </summary>
    [Collection(IsolatedCollection.Name)]
    public class MessageRaceTests
    {
        private const int DurationMs = 1000;

        /// <summary>
        /// glibc serves the payloads with mmap, but after the first such block is freed it raises its threshold and serves
        /// later ones from the heap, where a use after free corrupts silently instead of faulting. A fixed threshold keeps every
        /// payload mmapped, so touching one after its release is a SIGSEGV every time.
        /// </summary>
        private static readonly Dictionary<string, string?> s_mmapEveryPayload = new Dictionary<string, string?>
        {
            ["MALLOC_MMAP_THRESHOLD_"] = "131072",
        };

        public static TheoryData<string> Pairs => new TheoryData<string>(MessageRaceScenarios.Names);

        [Theory]
        [MemberData(nameof(Pairs))]
        public void MemberPair_TwoThreadsLoopingForOneSecond_WholePayloadsOrExceptionsAndNoCrash(string pair)
        {
            (int exitCode, string output) = ChildProcess.Run(
                MessageRaceScenarios.Prefix + pair,
                new[] { DurationMs.ToString(System.Globalization.CultureInfo.InvariantCulture) },
                s_mmapEveryPayload,
                limit: TimeSpan.FromSeconds(60),
                launcher: null);
            Assert.True(exitCode == 0, $"the child exited with {exitCode} (134 or 139 is a crash: abort or SIGSEGV); its output:\n{output}");
            Dictionary<string, string> values = ChildProcess.Values(output);
            double Value(string key) => ChildProcess.Number(values, key, output);
            Assert.Equal(0, Value("torn"));
            Assert.Equal(0, Value("unexpected"));

            // Both threads made progress, and they really ran at once.
            Assert.True(Value("a.ok") > 0 && Value("b.ok") > 0, "a side never succeeded:\n" + output);
            Assert.True(Value("overlaps") > 0, "the threads never overlapped:\n" + output);
        }

        [Fact]
        public void Rebuild_FromItsOwnDataOrASliceOfIt_KeepsTheBytes()
        {
            (int exitCode, string output) = ChildProcess.Run(MessageRaceScenarios.RebuildFromOwnData);
            Assert.True(exitCode == 0, $"the child exited with {exitCode}; its output:\n{output}");
            Assert.Contains("wrong=0", output);
        }
    }
}
