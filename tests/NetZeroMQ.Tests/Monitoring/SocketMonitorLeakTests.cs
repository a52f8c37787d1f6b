using System;
using System.Collections.Generic;
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

            GC.Collect();
            GC.WaitForPendingFinalizers();
            int fdBaseline = OpenDescriptors();
            int threadBaseline = Threads();
            var events = new List<MonitorEvent>();

            for (int i = 0; i < 1000; i++)
            {
                using SocketMonitor monitor = socket.Monitor();
                if (monitor.TryRecv(out MonitorEvent? monitorEvent))
                {
                    events.Add(monitorEvent); // not expected, but not what this test is about: reported below if it fails
                }
            }

            string seen = " (events seen: " + string.Join(", ", events) + ")";
            Assert.True(Eventually.True(() => OpenDescriptors() <= fdBaseline + Margin), "fds " + OpenDescriptors() + " vs " + fdBaseline + seen);
            Assert.True(Eventually.True(() => Threads() <= threadBaseline + Margin), "threads " + Threads() + " vs " + threadBaseline + seen);
        }

        /// <summary>Leeway for descriptors and threads the runtime itself may open meanwhile (thread pool, timers).</summary>
        private const int Margin = 8;

        private static int OpenDescriptors() => Directory.GetFileSystemEntries("/proc/self/fd").Length;

        private static int Threads()
        {
            using Process process = Process.GetCurrentProcess();
            return process.Threads.Count;
        }
    }
}
