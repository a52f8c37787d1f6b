using System;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// Managed bytes a loop allocates on the calling thread in its steady state. A cost per iteration shows in every batch; a
    /// one-time cost of the runtime (tiering or on-stack replacement of the test's own loop under load: CI saw 196,704 bytes in
    /// one batch of 100,000 polls, and 7,192 in one of 100,000 receives into a reused message, never in the batch beside it)
    /// shows in one only. So the least of several batches is what an iteration allocates.
    /// </summary>
    internal static class SteadyAllocation
    {
        internal const int Batches = 3;

        /// <summary>Runs <paramref name="batch"/> <see cref="Batches"/> times and returns the least any run allocated.</summary>
        /// <param name="batch">One batch of iterations (the same number each time).</param>
        /// <param name="report">Gets each batch's number and bytes, for the test's output.</param>
        internal static long Least(Action batch, Action<int, long>? report = null)
        {
            long least = long.MaxValue;
            for (int i = 0; i < Batches; i++)
            {
                long before = GC.GetAllocatedBytesForCurrentThread();
                batch();
                long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
                report?.Invoke(i, allocated);
                least = Math.Min(least, allocated);
            }

            return least;
        }
    }
}
