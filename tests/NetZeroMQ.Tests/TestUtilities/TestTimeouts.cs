using System;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>Named timeouts: every blocking call in a test is bounded by one of these, so a failing test fails, never hangs.</summary>
    public static class TestTimeouts
    {
        /// <summary>For an operation that should succeed (a message that is on its way, a connection being made).</summary>
        public static readonly TimeSpan Expected = TimeSpan.FromSeconds(10);

        /// <summary>For showing that something does NOT happen (a message that must not arrive).</summary>
        public static readonly TimeSpan Absent = TimeSpan.FromMilliseconds(200);

        /// <summary>Upper bound of a whole test method, for [Fact(Timeout = ...)] on async tests.</summary>
        public const int TestMilliseconds = 60_000;
    }
}
