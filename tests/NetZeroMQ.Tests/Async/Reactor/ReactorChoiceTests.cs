using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Async.Reactor
{
    /// <summary>
    /// Which reactor runs: epoll on Linux unless the AppContext switch <c>NetZeroMQ.UsePortableReactor</c> asks for the portable
    /// one; the library reads no environment variable. The first test checks this very run, so that the suite's second pass
    /// (build.sh runs the async tests again with NETZEROMQ_TEST_PORTABLE_REACTOR=1, which the test assembly maps to
    /// the switch) really exercises the portable reactor instead of epoll twice.
    /// </summary>
    public class ReactorChoiceTests
    {
        [Fact]
        public void Shared_InThisTestRun_IsTheReactorTheTestVariableNames()
        {
            Assert.True(AsyncSwitch.PortableReactor.InvalidValue is null, AsyncSwitch.PortableReactor.Variable + " is '" + AsyncSwitch.PortableReactor.InvalidValue + "'; it takes 1 (the portable reactor) or 0.");
            string? asked = Environment.GetEnvironmentVariable(AsyncSwitch.PortableReactor.Variable);
            string expected = asked == "1" || !RuntimeInformation.IsOSPlatform(OSPlatform.Linux) ? "poll" : "epoll";
            Assert.Equal(expected, NetZeroMQ.Reactor.Shared.Kind);
        }

        [Theory]
        [InlineData("1", "poll")]
        [InlineData("0", "epoll")]
        [InlineData("", "epoll")]
        public void FirstWait_SwitchFromTheTestVariable_StartsThatReactorAndDelivers(string variable, string kind)
        {
            Dictionary<string, string> v = RunKind(new Dictionary<string, string?> { [AsyncSwitch.PortableReactor.Variable] = variable }, out string output);
            Assert.True(v.GetValueOrDefault("received") == "served", output);
            Assert.Equal(RuntimeInformation.IsOSPlatform(OSPlatform.Linux) ? kind : "poll", v.GetValueOrDefault("kind")); // no epoll elsewhere
        }

        [Fact]
        public void FirstWait_AppContextSwitchSetInCode_StartsThePortableReactor()
        {
            (int exitCode, string output) = ChildProcess.Run(
                ReactorChildScenarios.Kind,
                new[] { "switch" },
                new Dictionary<string, string?> { [AsyncSwitch.PortableReactor.Variable] = "" },
                TestTimeouts.Expected * 3,
                launcher: null);
            Assert.True(exitCode == 0, $"the child failed (exit {exitCode}):\n{output}");
            Dictionary<string, string> v = ChildProcess.Values(output);
            Assert.True(v.GetValueOrDefault("received") == "served", output);
            Assert.Equal("poll", v.GetValueOrDefault("kind"));
        }

        [Theory]
        [InlineData("poll")]
        [InlineData("kqueue")]
        public void FirstWait_OldReactorVariableSet_IsIgnored(string value)
        {
            // NETZEROMQ_REACTOR chose the reactor before the AppContext switch became the one way: it must change nothing now.
            Dictionary<string, string> v = RunKind(
                new Dictionary<string, string?> { ["NETZEROMQ_REACTOR"] = value, [AsyncSwitch.PortableReactor.Variable] = "" }, out string output);
            Assert.True(v.GetValueOrDefault("received") == "served", output);
            Assert.Equal(RuntimeInformation.IsOSPlatform(OSPlatform.Linux) ? "epoll" : "poll", v.GetValueOrDefault("kind"));
        }

        private static Dictionary<string, string> RunKind(Dictionary<string, string?> environment, out string output)
        {
            (int exitCode, string text) = ChildProcess.Run(ReactorChildScenarios.Kind, environment);
            output = text;
            Assert.True(exitCode == 0, $"the child failed (exit {exitCode}):\n{text}");
            return ChildProcess.Values(text);
        }
    }
}
