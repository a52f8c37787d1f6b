using System;
using System.Diagnostics;
using System.IO;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Monitoring
{
    [CollectionDefinition(nameof(ResourceCountingCollection), DisableParallelization = true)]
    public class ResourceCountingCollection
    {
    }

    /// <summary>Counts process-wide resources, so it runs alone (no other test creates sockets meanwhile).</summary>
    [Collection(nameof(ResourceCountingCollection))]
    public class SocketMonitorLeakTests
    {
        [Fact]
        public void MonitorDispose_ThousandCycles_FileDescriptorsAndThreadsReturnToBaseline()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);
            Transports.BindAnywhere(socket, "tcp");
            for (int i = 0; i < 10; i++)
            {
                socket.Monitor().Dispose(); // warm up: libzmq's reaper and I/O threads exist from here on
            }

            Assert.True(Eventually.True(() => OpenDescriptors() <= Baseline(out _)));
            int fdBaseline = OpenDescriptors();
            int threadBaseline = Threads();

            for (int i = 0; i < 1000; i++)
            {
                using SocketMonitor monitor = socket.Monitor();
                Assert.False(monitor.TryRecv(out _));
            }

            Assert.True(Eventually.True(() => OpenDescriptors() <= fdBaseline + 4), "fds " + OpenDescriptors() + " vs " + fdBaseline);
            Assert.True(Eventually.True(() => Threads() <= threadBaseline + 4), "threads " + Threads() + " vs " + threadBaseline);
        }

        private static int Baseline(out int value) => value = OpenDescriptors();

        private static int OpenDescriptors() => Directory.GetFileSystemEntries("/proc/self/fd").Length;

        private static int Threads()
        {
            using Process process = Process.GetCurrentProcess();
            return process.Threads.Count;
        }
    }
}
