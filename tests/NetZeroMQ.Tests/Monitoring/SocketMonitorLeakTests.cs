using System;
using System.Collections.Generic;
using System.Globalization;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Monitoring
{
    /// <summary>
    /// 1,000 monitor create/dispose cycles leave descriptors and threads at their baseline. It counts process-wide resources,
    /// so it runs in a child process of its own: in the test run's process, sockets and contexts that other tests abandoned are
    /// finalized (and their contexts terminated on background threads) at arbitrary moments, which moved the counts.
    /// </summary>
    public class SocketMonitorLeakTests
    {
        /// <summary>Leeway for descriptors and threads the runtime itself may open meanwhile (thread pool, timers).</summary>
        private const int Margin = 8;

        [Fact]
        public void MonitorDispose_ThousandCycles_FileDescriptorsAndThreadsReturnToBaseline()
        {
            (int exitCode, string output) = ChildProcess.Run("monitor-cycles");
            Assert.True(exitCode == 0, $"the child failed (exit {exitCode}):\n{output}");
            Dictionary<string, string> v = ChildProcess.Values(output);
            double fdBefore = ChildProcess.Number(v, "fds_before", output), fdAfter = ChildProcess.Number(v, "fds_after", output);
            double threadsBefore = ChildProcess.Number(v, "threads_before", output), threadsAfter = ChildProcess.Number(v, "threads_after", output);
            Assert.True(fdAfter <= fdBefore + Margin, $"descriptors {fdBefore} -> {fdAfter}\n{output}");
            Assert.True(threadsAfter <= threadsBefore + Margin, $"threads {threadsBefore} -> {threadsAfter}\n{output}");
        }

        /// <summary>The child: warm up, read the baseline, 1,000 cycles, wait for libzmq's reaper, read again.</summary>
        internal static int Child()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);
            Transports.BindAnywhere(socket, "tcp");
            for (int i = 0; i < 10; i++)
            {
                socket.Monitor().Dispose(); // warm up: libzmq's reaper and I/O threads exist from here on
            }

            int fdBefore = ResourceProbe.OpenDescriptors();
            int threadsBefore = ResourceProbe.Threads();
            var events = new List<MonitorEvent>();
            for (int i = 0; i < 1000; i++)
            {
                using SocketMonitor monitor = socket.Monitor();
                if (monitor.TryRecv(out MonitorEvent? monitorEvent))
                {
                    events.Add(monitorEvent);
                }
            }

            Eventually.True(() => ResourceProbe.OpenDescriptors() <= fdBefore + Margin && ResourceProbe.Threads() <= threadsBefore + Margin);
            var inv = CultureInfo.InvariantCulture;
            Console.WriteLine("fds_before=" + fdBefore.ToString(inv));
            Console.WriteLine("fds_after=" + ResourceProbe.OpenDescriptors().ToString(inv));
            Console.WriteLine("threads_before=" + threadsBefore.ToString(inv));
            Console.WriteLine("threads_after=" + ResourceProbe.Threads().ToString(inv));
            Console.WriteLine("unexpected_events=" + events.Count.ToString(inv));
            return 0;
        }
    }
}
