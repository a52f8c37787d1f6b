using System.Collections.Generic;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;
using Xunit.Abstractions;

namespace NetZeroMQ.Tests.Async.Reactor
{
    /// <summary>
    /// The reactor treated like System.Net.Sockets' SocketAsyncEngine treats its own: a library thread that carries no
    /// caller's context, and faults (a failed wait, a failed epoll_ctl) that end the operations concerned with an exception
    /// instead of spinning a core or ending the process. Each case runs in a child process with the reactor named
    /// explicitly (<see cref="AsyncSwitch.PortableReactor"/>, which the test assembly maps to the AppContext switch), so both
    /// reactors are tested in every run.
    /// </summary>
    public class ReactorHardeningTests
    {
        private readonly ITestOutputHelper _output;

        public ReactorHardeningTests(ITestOutputHelper output) => _output = output;

        public static TheoryData<string> Kinds() => ReactorChild.Kinds();

        [Theory]
        [MemberData(nameof(Kinds))]
        public void ReactorThread_FirstCallerHadAsyncLocal_ReleaseCallbackOnReactorDoesNotSeeIt(string kind)
        {
            Dictionary<string, string> v = Run(ReactorChildScenarios.ExecutionContextScenario, kind, out string output);
            Assert.Equal(kind, v.GetValueOrDefault("kind"));
            Assert.Equal("4096", v.GetValueOrDefault("received"));
            Assert.Equal("True", v.GetValueOrDefault("released"));

            // The callback really ran on the reactor thread (otherwise the check below would prove nothing) ...
            Assert.True(v.GetValueOrDefault("release_thread") == NetZeroMQ.Reactor.ThreadName, output);

            // ... and that thread does not carry the AsyncLocal of the caller that happened to start it.
            Assert.Equal("(none)", v.GetValueOrDefault("release_saw"));
        }

        [Theory]
        [MemberData(nameof(Kinds))]
        public void Dispose_ManySocketsWithPendingReceivesWhileTheirDescriptorsFire_EndsEachPromptly(string kind)
        {
            Dictionary<string, string> v = Run(ReactorChildScenarios.DisposeScenario, kind, out string output);
            Assert.Equal(kind, v.GetValueOrDefault("kind"));
            Assert.True(v.GetValueOrDefault("disposed") == "True", output);
            Assert.Equal("300", v.GetValueOrDefault("ended_disposed"));
            Assert.Equal("0", v.GetValueOrDefault("registered_after"));
        }

        [Fact]
        public void Epoll_SetClosedBehindItsBack_ArmAndRegisterFailTheirCallersWaitFailureEndsPendingProcessSurvives()
        {
            Dictionary<string, string> v = Run(ReactorChildScenarios.BrokenScenario, "epoll", out string output);
            Assert.Equal("epoll", v.GetValueOrDefault("kind"));

            // epoll_ctl failures end the operation that asked, on its own task, not the reactor thread.
            Assert.StartsWith("ZmqException/", v.GetValueOrDefault("arm_failure"));
            Assert.Contains("epoll_ctl (arming the async reactor for the socket)", v.GetValueOrDefault("arm_failure"));
            Assert.StartsWith("ZmqException/", v.GetValueOrDefault("register_failure"));
            Assert.Contains("epoll_ctl (adding the socket to the async reactor)", v.GetValueOrDefault("register_failure"));

            // The failed registration gave its slot back.
            Assert.Equal("True", v.GetValueOrDefault("registered_unchanged"));

            // The wait that was under way still delivers; the next one fails, and what waited ends with the reason.
            Assert.Equal("value woken", v.GetValueOrDefault("woken"));
            AssertStopped(v, "epoll_wait (the async reactor's wait)", output);
        }

        [Fact]
        public void Poll_WaitFailsPersistently_PendingAndLaterOperationsFailProcessSurvives()
        {
            Dictionary<string, string> v = Run(ReactorChildScenarios.BrokenScenario, "poll", out string output);
            Assert.Equal("poll", v.GetValueOrDefault("kind"));
            AssertStopped(v, "zmq_poll (the async reactor's wait)", output);
        }

        private static void AssertStopped(Dictionary<string, string> v, string wait, string output)
        {
            Assert.True(v.GetValueOrDefault("stopped_reason")?.Contains(wait) == true, output);
            foreach (string key in new[] { "pending_at_stop", "after_stop" })
            {
                string outcome = v.GetValueOrDefault(key) ?? "(not reported)";
                Assert.True(outcome.StartsWith("ZmqException/", System.StringComparison.Ordinal), key + ": " + outcome);
                Assert.Contains("NetZeroMQ's async reactor has stopped: ", outcome);
                Assert.Contains(wait, outcome);
            }

            // The blocking API does not need the reactor, and the process is still there to say so.
            Assert.Equal("blocking", v.GetValueOrDefault("blocking_after_stop"));
            Assert.Equal("True", v.GetValueOrDefault("survived"));
        }

        private Dictionary<string, string> Run(string scenario, string kind, out string output) =>
            ReactorChild.Run(_output, scenario, kind, out output);
    }
}
