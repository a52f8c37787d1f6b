using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    public class ConcurrencyChecksTests
    {
        [Fact]
        public void Enabled_ByDefault_IsTrue() => Assert.True(ConcurrencyChecks.Enabled);

        [Fact]
        public void DisabledBySwitch_DataDisposeBusyDetectionAndAsync_AllStillCorrect()
        {
            (int exitCode, string output) = ChildProcess.Run(UncheckedModeScenario.Name);
            Assert.Contains("unchecked: ok", output);
            Assert.Equal(0, exitCode);
        }
    }
}
