using System;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// Base of the tests that exercise the zero-copy machinery itself (release slots, deferred release on libzmq's threads):
    /// it turns off the small-payload copy of <see cref="ZeroCopyPolicy"/> for the test and restores it afterwards. Such
    /// tests run in the <see cref="IsolatedCollection"/>, so no other test sees the process-wide setting change.
    /// </summary>
    public abstract class ZeroCopyMachineryTest : IDisposable
    {
        private readonly int _savedThreshold;

        protected ZeroCopyMachineryTest()
        {
            _savedThreshold = ZeroCopyPolicy.CopyThreshold;
            ZeroCopyPolicy.CopyThreshold = 0;
        }

        public void Dispose()
        {
            ZeroCopyPolicy.CopyThreshold = _savedThreshold;
            GC.SuppressFinalize(this);
        }
    }
}
