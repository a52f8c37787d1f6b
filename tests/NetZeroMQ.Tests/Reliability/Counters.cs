using System;

namespace NetZeroMQ.Tests.Reliability
{
    /// <summary>Readings of the library's <see cref="ResourceCounters"/> for tests.</summary>
    internal static class Counters
    {
        /// <summary>
        /// A reading taken after a full collection and the finalizers it queued, so that garbage left by earlier tests (a
        /// socket a test never disposed) cannot be closed by the finalizer thread in the middle of this test's count.
        /// </summary>
        internal static ResourceSnapshot Settled()
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            GC.Collect();
            return ResourceCounters.Snapshot();
        }
    }
}
