using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>Tests that count process-wide things (libzmq's threads, GC effects) run alone, after the parallel tests.</summary>
    [CollectionDefinition(Name, DisableParallelization = true)]
    public sealed class NonParallelCollection
    {
        public const string Name = "Non-parallel";
    }

    /// <summary>Contexts and sockets that are never disposed: the finalizers must release them without blocking.</summary>
    [Collection(NonParallelCollection.Name)]
    public class FinalizationTests
    {
        private static readonly TimeSpan FinalizerBound = TimeSpan.FromSeconds(10);
        private static readonly object s_holderLock = new object();
        private static System.Collections.Generic.List<Context>? s_holder;

        [Fact]
        public void Finalizers_AbandonedContextsWithUnsentMessagesAndInfiniteLinger_CompleteAndTerminateContexts()
        {
            int threadsBefore = CountLibzmqThreads();
            int port = LoopbackPorts.Unused();
            WeakReference[] abandoned = Enumerable.Range(0, 4).Select(_ => Abandon(port)).ToArray();
            // A libzmq thread names itself once it runs, so give the new ones a moment. (Other tests' contexts may still be
            // finishing their termination, so only a lower bound holds here.)
            var started = Stopwatch.StartNew();
            while (CountLibzmqThreads() < ThreadsPerContext * abandoned.Length && started.Elapsed < FinalizerBound)
            {
                Thread.Sleep(10);
            }

            Assert.True(CountLibzmqThreads() >= ThreadsPerContext * abandoned.Length, "the abandoned contexts were not running");
            s_holder = null; // from here on nothing references them

            // A finalizer that blocked (zmq_ctx_term waiting for an infinite linger) would stall WaitForPendingFinalizers for
            // good: run it on another thread so a stall fails this test instead of hanging the run.
            BlockingCall collect = BlockingCall.Start(() =>
            {
                for (int i = 0; i < 3; i++)
                {
                    GC.Collect();
                    GC.WaitForPendingFinalizers();
                }
            });
            Assert.True(collect.Join(FinalizerBound), "GC.WaitForPendingFinalizers did not complete: a finalizer blocked");
            Assert.All(abandoned, w => Assert.False(w.IsAlive));

            // zmq_ctx_term runs on a background thread; when it completes, libzmq's reaper and I/O threads are gone.
            var elapsed = Stopwatch.StartNew();
            while (CountLibzmqThreads() > threadsBefore && elapsed.Elapsed < FinalizerBound)
            {
                Thread.Sleep(20);
            }

            Assert.True(
                CountLibzmqThreads() <= threadsBefore,
                $"abandoned contexts were not terminated: {CountLibzmqThreads()} libzmq threads, {threadsBefore} before");
        }

        [Fact]
        public void Finalizers_AbandonedSocketOfLiveContext_ReleasedAndContextDisposesPromptly()
        {
            var context = new Context { DefaultLinger = Timeout.InfiniteTimeSpan };
            string endpoint = Transports.BindEndpoint("inproc");
            AbandonSocket(context, endpoint, LoopbackPorts.Unused());

            BlockingCall collect = BlockingCall.Start(() =>
            {
                GC.Collect();
                GC.WaitForPendingFinalizers();
            });
            Assert.True(collect.Join(FinalizerBound), "GC.WaitForPendingFinalizers did not complete");

            // The finalizer closed the socket (its inproc name is free again) with linger 0, so its unsent message cannot
            // hold up the context's termination even though the linger asked for was infinite.
            SocketLifetimeTests.AssertEndpointReleased(context, endpoint);
            BlockingCall dispose = BlockingCall.Start(context.Dispose);
            Assert.True(dispose.Join(TimeSpan.FromSeconds(5)), "Context.Dispose waited on an abandoned socket's linger");
            Assert.Null(dispose.Exception);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static WeakReference Abandon(int unreachablePort)
        {
            var context = new Context { DefaultLinger = Timeout.InfiniteTimeSpan };
            lock (s_holderLock)
            {
                (s_holder ??= new System.Collections.Generic.List<Context>()).Add(context); // alive until the test lets go
            }

            Socket push = new Socket(context, SocketType.Push);
            push.Linger = Timeout.InfiniteTimeSpan;
            push.Connect("tcp://127.0.0.1:" + unreachablePort);
            Assert.True(push.TrySend("never delivered"));
            Socket pull = new Socket(context, SocketType.Pull);
            pull.Bind("tcp://127.0.0.1:*");
            return new WeakReference(context);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void AbandonSocket(Context context, string endpoint, int unreachablePort)
        {
            Socket socket = new Socket(context, SocketType.Push);
            socket.Linger = Timeout.InfiniteTimeSpan;
            socket.Bind(endpoint);
            socket.Connect("tcp://127.0.0.1:" + unreachablePort);
            Assert.True(socket.TrySend("never delivered"));
        }

        /// <summary>A context with sockets runs libzmq's reaper and one I/O thread (the default <see cref="Context.IOThreads"/>).</summary>
        private const int ThreadsPerContext = 2;

        /// <summary>
        /// libzmq's background threads, which it names "ZMQbg/..." (Linux exposes thread names in /proc): "ZMQbg/Reaper" and
        /// "ZMQbg/IO/0" from 4.3.2, "ZMQbg/0", "ZMQbg/1", ... (a count of the threads it started) before, whose reaper no
        /// name tells apart (<c>ctx.cpp</c> <c>start_thread</c>).
        /// </summary>
        private static int CountLibzmqThreads() =>
            Directory.GetDirectories("/proc/self/task").Count(task =>
            {
                try
                {
                    return File.ReadAllText(Path.Combine(task, "comm")).Contains("ZMQbg/", StringComparison.Ordinal);
                }
                catch (IOException)
                {
                    return false; // the thread ended while we looked
                }
            });
    }
}
