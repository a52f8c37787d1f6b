using System;

namespace NetZeroMQ
{
    /// <summary>
    /// Whether sockets and messages prove on every call that no other thread is using them at the same moment. On by default.
    /// </summary>
    /// <remarks>
    /// <para>What the check costs: a socket or message that one thread keeps using (64 calls in a row) is checked with plain
    /// stores and reads, no interlocked instruction, and a second thread that comes to it later pays one process-wide memory
    /// barrier, once, after which the object is checked with one interlocked instruction per call (about 5 ns, measured by the
    /// benchmark tool's <c>CallOverheadBenchmarks</c>, close to a tenth of the whole cost of a small inproc message). Either
    /// way two threads using the object at the same moment are caught. Applications that know each socket is used by one
    /// thread at a time can turn the check off for the process, before any NetZeroMQ object exists:</para>
    /// <code>AppContext.SetSwitch("NetZeroMQ.DisableConcurrentUseDetection", true);</code>
    /// <para>or in the project file:
    /// <c>&lt;RuntimeHostConfigurationOption Include="NetZeroMQ.DisableConcurrentUseDetection" Value="true" /&gt;</c>.</para>
    /// <para>With the check off, <c>Dispose</c> from another thread is still safe (it never frees an object under a call) and an
    /// object that is visibly busy still throws <see cref="InvalidOperationException"/>; only two threads entering at the same
    /// instant can slip through, and libzmq's behaviour is then undefined. Sockets that use the async API keep the check.
    /// The switch needs a .NET 8+ target; the netstandard2.0 build always checks.</para>
    /// </remarks>
    public static class ConcurrencyChecks
    {
        /// <summary>The <see cref="AppContext"/> switch that turns the check off.</summary>
        public const string DisableSwitchName = "NetZeroMQ.DisableConcurrentUseDetection";

        /// <summary>Whether the check is on for objects created from now on (read once, when NetZeroMQ is first used).</summary>
        public static bool Enabled { get; } = !(AppContext.TryGetSwitch(DisableSwitchName, out bool disabled) && disabled);
    }
}
