using System;

namespace NetZeroMQ.Tests.Reliability
{
    /// <summary>The reliability suite's child-process scenarios (see <see cref="TestUtilities.ChildProcess"/>).</summary>
    internal static class ReliabilityChildScenarios
    {
        internal static bool TryRun(string scenario, string[] args, out int exitCode)
        {
            switch (scenario)
            {
                case "hostile-input":
                    exitCode = HostileInputTests.Child();
                    return true;
                default:
                    exitCode = 2;
                    return false;
            }
        }
    }
}
