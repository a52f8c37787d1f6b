using System;
using System.Collections.Generic;
using System.Diagnostics;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Reliability
{
    /// <summary>
    /// A context's socket slots (<see cref="Context.MaxSockets"/>): libzmq frees a closed socket's slot later, on its reaper
    /// thread, so a new socket may find every slot taken by sockets already closed; the library then waits (bounded) for the
    /// reaper. When every slot is held by a socket still open, waiting frees nothing, and the refusal comes at once.
    /// </summary>
    public class SocketSlotTests
    {
        /// <summary>Well under the library's 2 s wait for the reaper, well over a refusal without waiting.</summary>
        private static readonly TimeSpan NoWait = TimeSpan.FromSeconds(1);

        [Fact]
        public void Constructor_EverySlotHeldByAnOpenSocket_RefusedAtOnceWithTooManyOpenFiles()
        {
            using Context context = Zmq.NewContext();
            context.MaxSockets = 4;
            var open = new List<Socket>();
            try
            {
                for (int i = 0; i < 4; i++)
                {
                    open.Add(new Socket(context, SocketType.Pair));
                }

                var clock = Stopwatch.StartNew();
                var e = Assert.Throws<ZmqException>(() => new Socket(context, SocketType.Pair));
                clock.Stop();
                Assert.Equal(ZmqError.TooManyOpenFiles, e.Error);
                Assert.Contains("zmq_socket", e.Message);
                Assert.True(clock.Elapsed < NoWait, $"the refusal took {clock.Elapsed.TotalMilliseconds:F0} ms");
            }
            finally
            {
                open.ForEach(s => s.Dispose());
            }
        }

        [Fact]
        public void Constructor_SlotsHeldByClosedSockets_EveryCycleGetsASocket()
        {
            using Context context = Zmq.NewContext();
            context.MaxSockets = 4;
            using Socket kept = new Socket(context, SocketType.Pull);
            for (int i = 0; i < 2_000; i++)
            {
                using Socket socket = new Socket(context, SocketType.Push);
                using SocketMonitor monitor = kept.Monitor();
            }

            using Socket last = new Socket(context, SocketType.Push);
            Assert.Equal(SocketType.Push, last.Type);
        }
    }
}
