using Xunit;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// Tests that measure process-wide things (outstanding zero-copy buffers, release callbacks, allocations on every thread,
    /// thread counts) run in this collection, alone: no other test runs at the same time.
    /// </summary>
    [CollectionDefinition(Name, DisableParallelization = true)]
    public sealed class IsolatedCollection
    {
        public const string Name = "Isolated (process-wide measurements)";
    }
}
