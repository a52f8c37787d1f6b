using System;
using System.Collections.Generic;
using NetZeroMQ.Draft;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    public class LibzmqTests
    {
        [Fact]
        public void Version_LoadedLibrary_IsInTheSupportedRangeAndSameAsContextVersion()
        {
            Version version = Libzmq.Version;

            // 4.1 to 4.3 (docs/libzmq-versions.md): the suite runs against each.
            Assert.Equal(4, version.Major);
            Assert.InRange(version.Minor, 1, 3);
            Assert.True(version.Build >= 0);
            Assert.Equal(version, Context.Version);
            Assert.True(version >= Libzmq.MinimumVersion);
        }

        [Fact]
        public void Has_EveryBuild_IpcYesUnknownNoDraftAsExported()
        {
            // Debian's libzmq is built without the draft API, NetZeroMQ.Native's with it: "draft" must agree with what the
            // library exports (the draft probe looks the draft functions up in the loaded library, not through zmq_has).
            Assert.True(Libzmq.Has("ipc"));
            Assert.Equal(DraftApi.IsAvailable, Libzmq.Has("draft"));
            Assert.False(Libzmq.Has("no-such-capability"));
            Assert.Equal(Libzmq.Has("ipc"), Context.Has("ipc"));
            Assert.Equal(Libzmq.Has("draft"), Context.Has("draft"));
        }

        [Theory]
        [InlineData(null)]
        [InlineData("")]
        [InlineData("ip\0c")]
        public void Has_InvalidName_ThrowsArgumentException(string? capability)
        {
            Assert.ThrowsAny<ArgumentException>(() => Libzmq.Has(capability!));
            Assert.ThrowsAny<ArgumentException>(() => Context.Has(capability!));
        }

        [Fact]
        public void LoadedFrom_AfterUse_NamesTheLibrary()
        {
            using var context = new Context();
            Assert.False(string.IsNullOrWhiteSpace(Libzmq.LoadedFrom));
            Assert.Contains("libzmq", Libzmq.LoadedFrom);
        }

        [Fact]
        public void LibraryPath_SetAfterLoadToOtherPath_ThrowsInvalidOperation()
        {
            using var context = new Context();
            var e = Assert.Throws<InvalidOperationException>(() => Libzmq.LibraryPath = "/elsewhere/libzmq.so.5");
            Assert.Contains(Libzmq.LoadedFrom, e.Message);
        }

        [Fact]
        public void Load_InChildProcess_LoadsTheSystemLibrary()
        {
            (int exitCode, string output) = ChildProcess.Run("load-libzmq");

            Assert.True(exitCode == 0, output);
            Assert.Contains("loaded from ", output);
            Assert.Contains("libzmq", output);
        }

        [Fact]
        public void FirstErrorOfProcess_SocketAfterShutdown_ReportsContextTerminated()
        {
            // Regression: the exception's arguments were computed between the failing call and zmq_errno(), and the first
            // time in a process that overwrote errno ("Success [Unknown, errno 0]"). Only a fresh process shows it.
            (int exitCode, string output) = ChildProcess.Run("first-error-is-context-terminated");

            Assert.True(exitCode == 0, output);
            Assert.Contains(typeof(ZmqException).FullName!, output);
            Assert.Contains("Error=" + ZmqError.ContextTerminated, output);
        }
    }
}
