using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.ZeroCopy
{
    public class ZeroCopyExitTests
    {
        [Fact]
        public void ProcessExit_ZeroCopyBuffersStillQueued_ExitsCleanly()
        {
            (int exitCode, string output) = ChildProcess.Run("exit-with-zero-copy-queued");
            Assert.Contains("queued=100", output);
            Assert.Contains("exiting", output);
            Assert.Equal(0, exitCode);
        }
    }
}
