using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Async.Reactor
{
    /// <summary>
    /// Which reactor runs: epoll on Linux unless <c>NETZEROMQ_REACTOR=poll</c> (or the AppContext switch) asks for the portable
    /// one. The first test checks this very run, so that the suite's second pass (build.sh runs the async tests again with
    /// the variable set) really exercises the portable reactor instead of epoll twice.
    /// </summary>
    public class ReactorChoiceTests
    {
        [Fact]
        public void Shared_InThisTestRun_IsTheReactorTheEnvironmentNames()
        {
            string? asked = Environment.GetEnvironmentVariable(ReactorChoice.EnvironmentVariable);
            string expected = asked == "poll" || !RuntimeInformation.IsOSPlatform(OSPlatform.Linux) ? "poll" : "epoll";
            Assert.Equal(expected, NetZeroMQ.Reactor.Shared.Kind);
        }

        [Theory]
        [InlineData("poll", "poll")]
        [InlineData("epoll", "epoll")]
        [InlineData("", "epoll")]
        public void FirstWait_ReactorVariable_StartsThatReactorAndDelivers(string variable, string kind)
        {
            Dictionary<string, string> v = RunKind(variable, out string output);
            Assert.True(v.GetValueOrDefault("received") == "served", output);
            Assert.Equal(RuntimeInformation.IsOSPlatform(OSPlatform.Linux) ? kind : "poll", v.GetValueOrDefault("kind")); // no epoll elsewhere
        }

        [Fact]
        public void FirstWait_AppContextSwitchSet_StartsThePortableReactorWhateverTheVariableSays()
        {
            (int exitCode, string output) = ChildProcess.Run(
                ReactorChildScenarios.Kind,
                new[] { "switch" },
                new Dictionary<string, string?> { [ReactorChoice.EnvironmentVariable] = "epoll" },
                TestTimeouts.Expected * 3,
                launcher: null);
            Assert.True(exitCode == 0, $"the child failed (exit {exitCode}):\n{output}");
            Dictionary<string, string> v = ChildProcess.Values(output);
            Assert.True(v.GetValueOrDefault("received") == "served", output);
            Assert.Equal("poll", v.GetValueOrDefault("kind"));
        }

        [Fact]
        public void FirstWait_ReactorVariableNamesNoReactor_ThrowsInvalidOperationNamingTheVariable()
        {
            Dictionary<string, string> v = RunKind("kqueue", out string output);
            Assert.True(v.GetValueOrDefault("error") == nameof(InvalidOperationException), output);
            Assert.Contains("NETZEROMQ_REACTOR is 'kqueue'", output);
        }

        private static Dictionary<string, string> RunKind(string variable, out string output)
        {
            (int exitCode, string text) = ChildProcess.Run(ReactorChildScenarios.Kind, new Dictionary<string, string?> { [ReactorChoice.EnvironmentVariable] = variable });
            output = text;
            Assert.True(exitCode == 0, $"the child failed (exit {exitCode}):\n{text}");
            return ChildProcess.Values(text);
        }
    }
}
