using System;

namespace NetZeroMQ.Tests.Reliability
{
    /// <summary>The reliability suite's child-process scenarios (see <see cref="TestUtilities.ChildProcess"/>).</summary>
    internal static class ReliabilityChildScenarios
    {
        internal static bool TryRun(string scenario, string[] args, out int exitCode)
        {
            Func<string[], int>? run = scenario switch
            {
                "hostile-input" => _ => HostileInputTests.Child(),
                "socket-churn" => ChurnTests.Child,
                "garbage-router" => GarbageInputTests.Child,
                "abandon" => AbandonedObjectTests.Child,
                "partition-survivor" => PartitionTests.Child,
                "monitor-cycles" => _ => Monitoring.SocketMonitorLeakTests.Child(),
                DescriptorLimitTests.Scenario => DescriptorLimitTests.Child,
                DescriptorLimitTests.ReactorScenario => DescriptorLimitTests.ReactorChild,
                _ => null,
            };
            exitCode = run is null ? 2 : run(args);
            return run is not null;
        }
    }
}
