using System;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// This suite runs once per target framework of the test project (net10.0 and net8.0). These tests prove that each run is
    /// on the runtime it claims, in the test process and in its child processes, so that "tested on .NET 8" stays true: a run
    /// rolled forward to a newer runtime fails here.
    /// </summary>
    public class RuntimeTests
    {
        internal const string ChildScenario = "runtime-version";

        private static int TargetMajor =>
            new FrameworkName(typeof(RuntimeTests).Assembly.GetCustomAttribute<TargetFrameworkAttribute>()!.FrameworkName).Version.Major;

        [Fact]
        public void Runtime_ThisProcess_IsTheOneTheTestBuildTargets()
        {
            Assert.Equal(TargetMajor, Environment.Version.Major);
            Assert.StartsWith(".NET " + TargetMajor + ".", RuntimeInformation.FrameworkDescription);
        }

        [Fact]
        public void Runtime_ChildProcess_IsTheOneTheTestBuildTargets()
        {
            (int exitCode, string output) = ChildProcess.Run(ChildScenario);

            Assert.True(exitCode == 0, output);
            Assert.StartsWith(".NET " + TargetMajor + ".", output.Trim());
        }

        [Fact]
        public void Library_UnderTest_IsTheNet8Build()
        {
            // Both test targets reference the library's net8.0 build (the one every modern .NET application gets).
            Assert.Equal(
                ".NETCoreApp,Version=v8.0",
                typeof(Context).Assembly.GetCustomAttribute<TargetFrameworkAttribute>()?.FrameworkName);
        }
    }
}
