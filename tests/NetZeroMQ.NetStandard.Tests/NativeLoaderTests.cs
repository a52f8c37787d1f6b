using System;
using Xunit;

namespace NetZeroMQ.NetStandard.Tests
{
    /// <summary>
    /// The netstandard2.0 build reaches NativeLibrary by reflection: a failed load must still carry the operating system
    /// loader's full reason (the runtime's exception arrives wrapped in a TargetInvocationException), and the check that a
    /// loaded library is libzmq must work through the same reflection. The whole chain, in child processes, is tested on the
    /// net8.0 build by LibzmqLoadingTests.
    /// </summary>
    public class NativeLoaderTests
    {
        [Fact]
        public void TryLoad_MissingFile_ReasonIsTheLoadersFullText()
        {
            const string missing = "/nonexistent/netzeromq-netstandard/libzmq.so.5";

            Assert.False(NativeLoader.TryLoad(missing, out nint handle, out string? reason));

            Assert.Equal(0, handle);
            Assert.Equal(missing + ": cannot open shared object file: No such file or directory", reason);
        }

        [Fact]
        public void HasExport_TheCLibrary_HasItsOwnFunctionsButNotZmqVersion()
        {
            Assert.True(NativeLoader.TryLoad("libc.so.6", out nint handle, out string? reason), reason);

            Assert.True(NativeLoader.HasExport(handle, "malloc"));
            Assert.False(NativeLoader.HasExport(handle, "zmq_version"));
        }
    }
}
