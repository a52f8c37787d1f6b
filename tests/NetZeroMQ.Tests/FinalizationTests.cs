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
            WeakReference[] abandoned = AbandonOnStarterThread(port, 4);
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

        /// <summary>
        /// The name of the thread that makes the abandoned contexts' sockets, and with the first of each context starts its
        /// libzmq threads, which take this name from it (<see cref="CountLibzmqThreads"/>). At most 15 characters, Linux's
        /// limit, and given to no other thread of the suite.
        /// </summary>
        private const string StarterName = "nzmq-abandoner";

        /// <summary>The thread id (<c>/proc/self/task</c>) of the last starter thread, which is not a libzmq thread.</summary>
        private static string? s_starterTask;

        /// <summary>
        /// Abandons <paramref name="count"/> contexts from a thread named <see cref="StarterName"/>, joined before it returns.
        /// </summary>
        private static WeakReference[] AbandonOnStarterThread(int unreachablePort, int count)
        {
            WeakReference[]? abandoned = null;
            Exception? failure = null;
            var starter = new Thread(() =>
            {
                try
                {
                    // /proc/thread-self links to /proc/<pid>/task/<tid>: this thread's id, as /proc/self/task lists it.
                    s_starterTask = Path.GetFileName(new DirectoryInfo("/proc/thread-self").LinkTarget);
                    abandoned = Enumerable.Range(0, count).Select(_ => Abandon(unreachablePort)).ToArray();
                }
                catch (Exception e)
                {
                    failure = e;
                }
            })
            {
                IsBackground = true,
                Name = StarterName,
            };
            starter.Start();
            Assert.True(starter.Join(FinalizerBound), "the contexts to abandon were not made in time");
            Assert.Null(failure);
            Assert.NotNull(s_starterTask);
            return abandoned!;
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
        /// libzmq's background threads (Linux exposes thread names in /proc). libzmq 4.2 and later name them "ZMQbg/...":
        /// "ZMQbg/Reaper" and "ZMQbg/IO/0" from 4.3.2, "ZMQbg/0", "ZMQbg/1", ... (a count of the threads it started) before,
        /// whose reaper no name tells apart (<c>ctx.cpp</c> <c>start_thread</c>). libzmq 4.1 names them nothing
        /// (<c>thread.cpp</c> has no <c>pthread_setname_np</c>), so they keep the name Linux copies into a new thread from the
        /// thread that made it: those of the abandoned contexts are the threads named <see cref="StarterName"/> but the
        /// starter itself. (A 4.2 or later thread bears that name only until it renames itself, and is counted once either way.)
        /// </summary>
        private static int CountLibzmqThreads() =>
            Directory.GetDirectories("/proc/self/task").Count(task =>
            {
                try
                {
                    string name = File.ReadAllText(Path.Combine(task, "comm")).TrimEnd('\n'); // the kernel ends it with a newline
                    return name.Contains("ZMQbg/", StringComparison.Ordinal)
                        || (name == StarterName && Path.GetFileName(task) != s_starterTask);
                }
                catch (IOException)
                {
                    return false; // the thread ended while we looked
                }
            });
    }
}
