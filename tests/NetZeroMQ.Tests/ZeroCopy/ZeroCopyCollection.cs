using Xunit;

namespace NetZeroMQ.Tests.ZeroCopy
{
    /// <summary>
    /// Zero-copy tests count process-wide things (outstanding buffers, release callbacks), so they run alone, not next to
    /// other tests that might send zero-copy messages at the same time.
    /// </summary>
    [CollectionDefinition(Name, DisableParallelization = true)]
    public sealed class ZeroCopyCollection
    {
        public const string Name = "Zero-copy (process-wide counters)";
    }
}
