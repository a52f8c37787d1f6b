using System.Collections.Generic;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;
using Xunit.Abstractions;

namespace NetZeroMQ.Tests.Async.Reactor
{
    /// <summary>
    /// The AppContext switch <c>NetZeroMQ.InlineAsyncCompletions</c>: with it, the continuation of an awaited operation that the
    /// reactor completed runs on the reactor thread, after the reactor has let go of the socket; without it, never there. Each
    /// case runs in a child process (the switch is read once per process), against both reactors.
    /// </summary>
    public class InlineCompletionTests
    {
        private readonly ITestOutputHelper _output;

        public InlineCompletionTests(ITestOutputHelper output) => _output = output;

        public static TheoryData<string> Kinds() => ReactorChild.Kinds();

        /// <summary>
        /// This run's own setting is the one its variable names, so that build.sh's pass of the async tests with
        /// NETZEROMQ_TEST_INLINE_COMPLETIONS=1 really runs their continuations on the reactor thread, and the other runs do not.
        /// </summary>
        [Fact]
        public void Enabled_InThisTestRun_IsWhatTheTestVariableNames()
        {
            AsyncSwitch inline = AsyncSwitch.InlineCompletions;
            Assert.True(inline.InvalidValue is null, inline.Variable + " is '" + inline.InvalidValue + "'; it takes 1 (inline) or 0.");
            Assert.Equal(System.Environment.GetEnvironmentVariable(inline.Variable) == "1", InlineCompletions.Enabled);
        }

        [Theory]
        [MemberData(nameof(Kinds))]
        public void SwitchOn_AwaitedWaitsResumeOnTheReactorThread_AndCallTheSameSocketAgain(string kind)
        {
            Dictionary<string, string> v = Run(kind, "on", out string output);
            Assert.Equal("True", v.GetValueOrDefault("enabled"));
            Assert.Equal(kind, v.GetValueOrDefault("kind"));
            Assert.True(v.GetValueOrDefault("waited") == "True", output); // the receive really waited: the reactor woke it
            Assert.Equal("woken up", v.GetValueOrDefault("received"));
            Assert.Equal(NetZeroMQ.Reactor.ThreadName, v.GetValueOrDefault("continuation_thread"));

            // Every continuation sends or receives on the socket the reactor just retried: all 2,000 round trips arrived, in
            // order, and the requester's continuations did run on the reactor thread (not one of them would, if they were
            // queued to the thread pool).
            Assert.Equal("2000", v.GetValueOrDefault("round_trips"));
            Assert.Equal("2000", v.GetValueOrDefault("served"));
            Assert.True(ChildProcess.Number(v, "continuations_on_reactor", output) > 0, output);
        }

        [Theory]
        [MemberData(nameof(Kinds))]
        public void SwitchOn_AWaitInAnInlineContinuationThrows_AndTheReactorGoesOn(string kind)
        {
            Dictionary<string, string> v = Run(kind, "on", out string output);
            Assert.Equal("first", v.GetValueOrDefault("first"));
            Assert.Equal(NetZeroMQ.Reactor.ThreadName, v.GetValueOrDefault("refusal_thread"));
            foreach (string call in new[] { "blocking", "timed" })
            {
                string outcome = v.GetValueOrDefault(call) ?? "";
                Assert.StartsWith("InvalidOperationException: A receive that has to wait was called on NetZeroMQ's async reactor thread", outcome);
                Assert.Contains("NetZeroMQ.InlineAsyncCompletions", outcome);
            }

            Assert.Equal("returned False", v.GetValueOrDefault("try")); // a try that does not wait is fine there
            Assert.Equal("still served", v.GetValueOrDefault("after_refusal"));
        }

        [Theory]
        [MemberData(nameof(Kinds))]
        public void SwitchOn_AnAwaitUnderASynchronizationContext_ResumesThroughIt(string kind)
        {
            Dictionary<string, string> v = Run(kind, "on", out string output);
            Assert.Equal("posted", v.GetValueOrDefault("posted_received"));
            Assert.Equal("posted", v.GetValueOrDefault("posted_thread"));
            Assert.True(v.GetValueOrDefault("posts") == "1", output);
        }

        [Theory]
        [MemberData(nameof(Kinds))]
        public void SwitchOff_AwaitedWaitsNeverResumeOnTheReactorThread(string kind)
        {
            Dictionary<string, string> v = Run(kind, "off", out string output);
            Assert.Equal("False", v.GetValueOrDefault("enabled"));
            Assert.Equal(kind, v.GetValueOrDefault("kind"));
            Assert.True(v.GetValueOrDefault("waited") == "True", output);
            Assert.Equal("woken up", v.GetValueOrDefault("received"));
            Assert.NotEqual(NetZeroMQ.Reactor.ThreadName, v.GetValueOrDefault("continuation_thread"));
            Assert.Equal("2000", v.GetValueOrDefault("round_trips"));
            Assert.Equal("0", v.GetValueOrDefault("continuations_on_reactor"));
        }

        private Dictionary<string, string> Run(string kind, string inline, out string output) =>
            ReactorChild.Run(
                _output,
                InlineCompletionScenarios.Scenario,
                kind,
                out output,
                new Dictionary<string, string?> { [AsyncSwitch.InlineCompletions.Variable] = inline == "on" ? "1" : "0" });
    }
}
