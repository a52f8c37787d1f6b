using System.Collections.Generic;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;
using Xunit.Abstractions;

namespace NetZeroMQ.Tests.Async.Reactor
{
    /// <summary>
    /// How the reactor's tests run a child scenario: with the reactor named explicitly ("epoll" or "poll", through
    /// <see cref="AsyncSwitch.PortableReactor"/>'s variable, which the test assembly maps to the AppContext switch), so that
    /// both reactors are tested in every run whatever the parent's own setting; the child must exit 0, and its
    /// <c>key=value</c> lines are returned.
    /// </summary>
    internal static class ReactorChild
    {
        /// <summary>Both reactors, for a theory's data.</summary>
        internal static TheoryData<string> Kinds() => new TheoryData<string> { "epoll", "poll" };

        /// <summary>Runs <paramref name="scenario"/> on the reactor <paramref name="kind"/>, with <paramref name="more"/>
        /// variables besides; writes its output to the test's log and returns it in <paramref name="output"/>.</summary>
        internal static Dictionary<string, string> Run(
            ITestOutputHelper log, string scenario, string kind, out string output, IDictionary<string, string?>? more = null)
        {
            var environment = new Dictionary<string, string?> { [AsyncSwitch.PortableReactor.Variable] = kind == "poll" ? "1" : "0" };
            foreach (KeyValuePair<string, string?> variable in more ?? new Dictionary<string, string?>())
            {
                environment[variable.Key] = variable.Value;
            }

            (int exitCode, string text) = ChildProcess.Run(scenario, environment);
            log.WriteLine(text);
            output = text;
            Assert.True(exitCode == 0, $"the child failed (exit {exitCode}):\n{text}");
            return ChildProcess.Values(text);
        }
    }
}
