using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;
using Xunit.Abstractions;

namespace NetZeroMQ.Tests.Reliability
{
    /// <summary>
    /// Contexts and sockets that are never disposed, some with unsent messages to unreachable peers and infinite linger, some
    /// in a context that stays alive. In a child process so the library's counters see only this scenario. Pass: the finalizer
    /// thread gets through all of them within 2 s (it never blocks on zmq_ctx_term or a linger), every abandoned context is
    /// terminated and every abandoned socket closed (counters back to zero), and the live context then disposes promptly.
    /// (Extends FinalizationTests, which checks a few objects through libzmq's thread names, with volume and counts.)
    /// </summary>
    public class AbandonedObjectTests
    {
        private readonly ITestOutputHelper _output;

        public AbandonedObjectTests(ITestOutputHelper output) => _output = output;

        [Fact]
        public void Finalizers_FiftyAbandonedContextsAndSocketsWithUnsentMessages_NeverStallAndReleaseEverything()
        {
            (int exitCode, string output) = ChildProcess.Run("abandon", new[] { "50" }, null, TimeSpan.FromSeconds(90), null);
            _output.WriteLine(output);
            Assert.True(exitCode == 0, $"the child failed (exit {exitCode}):\n{output}");
            Dictionary<string, string> v = ChildProcess.Values(output);
            Assert.True(ChildProcess.Number(v, "finalizers_ms", output) <= 2000, "the finalizer thread stalled:\n" + output);
            Assert.Equal(0, ChildProcess.Number(v, "live_contexts_after", output));
            Assert.Equal(0, ChildProcess.Number(v, "live_sockets_after", output));
            Assert.True(ChildProcess.Number(v, "live_dispose_ms", output) <= 2000, "the live context's Dispose waited on abandoned sockets:\n" + output);
        }

        internal static int Child(string[] args)
        {
            int contexts = int.Parse(args[0], CultureInfo.InvariantCulture);
            int unreachable = LoopbackPorts.Unused();
            var live = new Context { DefaultLinger = Timeout.InfiniteTimeSpan };
            for (int i = 0; i < contexts; i++)
            {
                AbandonContext(unreachable, i);
                AbandonSocket(live, unreachable, i);
            }

            ResourceSnapshot abandoned = ResourceCounters.Snapshot();
            Console.WriteLine("live_contexts_before=" + abandoned.LiveContexts.ToString(CultureInfo.InvariantCulture));
            Console.WriteLine("live_sockets_before=" + abandoned.LiveSockets.ToString(CultureInfo.InvariantCulture));

            var clock = Stopwatch.StartNew();
            var collect = new Thread(() =>
            {
                GC.Collect();
                GC.WaitForPendingFinalizers();
                GC.Collect();
                GC.WaitForPendingFinalizers();
            }) { IsBackground = true };
            collect.Start();
            if (!collect.Join(TimeSpan.FromSeconds(30)))
            {
                Console.WriteLine("finalizers_ms=999999");
                return 1;
            }

            Console.WriteLine("finalizers_ms=" + clock.ElapsedMilliseconds.ToString(CultureInfo.InvariantCulture));

            // Termination runs on background threads; it ends once libzmq has let go (linger 0 for abandoned sockets).
            Eventually.True(() => ResourceCounters.Snapshot().LiveContexts <= 1 && ResourceCounters.Snapshot().LiveSockets == 0, TimeSpan.FromSeconds(20));
            Console.WriteLine("terminated_ms=" + clock.ElapsedMilliseconds.ToString(CultureInfo.InvariantCulture));
            var dispose = Stopwatch.StartNew();
            live.Dispose();
            Console.WriteLine("live_dispose_ms=" + dispose.ElapsedMilliseconds.ToString(CultureInfo.InvariantCulture));
            ResourceSnapshot after = ResourceCounters.Snapshot();
            Console.WriteLine("live_contexts_after=" + after.LiveContexts.ToString(CultureInfo.InvariantCulture));
            Console.WriteLine("live_sockets_after=" + after.LiveSockets.ToString(CultureInfo.InvariantCulture));
            Console.WriteLine("counters " + after);
            return 0;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void AbandonContext(int unreachablePort, int i)
        {
            var context = new Context { DefaultLinger = Timeout.InfiniteTimeSpan };
            Socket push = new Socket(context, SocketType.Push);
            push.Connect("tcp://127.0.0.1:" + unreachablePort.ToString(CultureInfo.InvariantCulture));
            push.TrySend("never delivered");
            Socket pull = new Socket(context, SocketType.Pull);
            pull.Bind(i % 2 == 0 ? "tcp://127.0.0.1:*" : "ipc://*");
            if (i % 3 == 0)
            {
                // A socket that has waited (it owns a waker) and a message that is never closed.
                pull.ReceiveTimeout = TimeSpan.FromMilliseconds(1);
                try
                {
                    pull.Recv(new byte[1]);
                }
                catch (ZmqException e) when (e.IsTimeout)
                {
                }

                _ = new Message(new byte[100]);
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void AbandonSocket(Context live, int unreachablePort, int i)
        {
            Socket socket = new Socket(live, i % 2 == 0 ? SocketType.Push : SocketType.Dealer);
            socket.Linger = Timeout.InfiniteTimeSpan;
            socket.Connect("tcp://127.0.0.1:" + unreachablePort.ToString(CultureInfo.InvariantCulture));
            socket.TrySend("never delivered");
        }
    }
}
