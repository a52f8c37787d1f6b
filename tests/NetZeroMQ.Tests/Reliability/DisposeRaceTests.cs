using System;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Reliability
{
    /// <summary>
    /// Dispose racing Dispose, and Dispose racing a blocked receive, counted through the library's own
    /// <see cref="ResourceCounters"/>: every socket is closed exactly once, whatever the interleaving. Process-wide counts, so
    /// the class runs alone. (SocketLifetimeTests keeps the per-kind timing checks; this is the volume and the counting.)
    /// </summary>
    [Collection(IsolatedCollection.Name)]
    public class DisposeRaceTests
    {
        private const int Threads = 64;

        /// <summary>The issue's full count: about 4 s on 2 cores, so the fast tier runs all of it.</summary>
        [Fact]
        public void Dispose_From64ThreadsAtOnce10000Rounds_EachSocketClosedExactlyOnce() => DisposeStorm(10_000);

        [Fact]
        public void Dispose_WhileRecvBlocked1000Rounds_RecvEndsWithObjectDisposedAndSocketClosedOnce()
        {
            const int Rounds = 1_000;
            using Context context = Zmq.NewContext();
            ResourceSnapshot before = Counters.Settled();
            var buffer = new byte[16];
            using var message = new Message();
            int wrong = 0;
            string? firstWrong = null;
            for (int round = 0; round < Rounds; round++)
            {
                Socket socket = new Socket(context, round % 2 == 0 ? SocketType.Pull : SocketType.Sub);
                socket.ReceiveTimeout = Timeout.InfiniteTimeSpan;
                socket.Bind(Transports.BindEndpoint(round % 3 == 0 ? "tcp" : "inproc"));
                int kind = round % 4;
                using var poller = kind == 3 ? new Poller() : null;
                poller?.Add(socket, PollEvents.In);
                BlockingCall call = BlockingCall.Start(() =>
                {
                    switch (kind)
                    {
                        case 0: socket.Recv(buffer); break;
                        case 1: socket.Recv(message); break;
                        case 2: socket.RecvString(); break;
                        default: poller!.Poll(Timeout.InfiniteTimeSpan); break;
                    }
                });

                // Land the Dispose before the call, at its start, and inside its wait.
                switch (round % 5)
                {
                    case 0: break;
                    case 1: Thread.SpinWait(50 * (round % 40)); break;
                    case 2: Thread.Yield(); break;
                    default: Thread.Sleep(1); break;
                }

                socket.Dispose();
                Assert.True(call.Join(TestTimeouts.Expected), $"round {round}: the blocked call did not end within {TestTimeouts.Expected}");
                if (call.Exception is not ObjectDisposedException)
                {
                    wrong++;
                    firstWrong ??= $"round {round} (kind {kind}): {call.Exception?.ToString() ?? "returned normally"}";
                }

                Assert.True(Eventually.True(() => socket.IsNativeClosed()), $"round {round}: zmq_close never ran");
            }

            Assert.True(wrong == 0, $"{wrong} of {Rounds} blocked calls did not end with ObjectDisposedException; first: {firstWrong}");
            ResourceSnapshot after = ResourceCounters.Snapshot();
            Assert.Equal(Rounds, after.SocketsOpened - before.SocketsOpened);
            Assert.Equal(Rounds, after.SocketsClosed - before.SocketsClosed);
            Assert.Equal(after.WakersCreated - before.WakersCreated, after.WakersClosed - before.WakersClosed);
        }

        /// <summary>
        /// <paramref name="rounds"/> sockets, each disposed by 64 threads released at once by a barrier. The 64 threads live for
        /// the whole test (a thread per dispose per round would measure thread creation instead).
        /// </summary>
        private static void DisposeStorm(int rounds)
        {
            using Context context = Zmq.NewContext();
            ResourceSnapshot before = Counters.Settled();
            Socket? current = null;
            int failures = 0;
            Exception? firstFailure = null;
            using var start = new Barrier(Threads + 1);
            using var done = new Barrier(Threads + 1);
            var workers = new BlockingCall[Threads];
            for (int t = 0; t < Threads; t++)
            {
                workers[t] = BlockingCall.Start(() =>
                {
                    for (int round = 0; round < rounds; round++)
                    {
                        if (!start.SignalAndWait(TestTimeouts.Expected))
                        {
                            return;
                        }

                        try
                        {
                            Volatile.Read(ref current)!.Dispose();
                        }
                        catch (Exception e)
                        {
                            Interlocked.Increment(ref failures);
                            Interlocked.CompareExchange(ref firstFailure, e, null);
                        }

                        if (!done.SignalAndWait(TestTimeouts.Expected))
                        {
                            return;
                        }
                    }
                });
            }

            for (int round = 0; round < rounds; round++)
            {
                Socket socket = new Socket(context, round % 2 == 0 ? SocketType.Pair : SocketType.Dealer);
                if (round % 8 == 0)
                {
                    socket.Bind(Transports.BindEndpoint("inproc"));
                }

                Volatile.Write(ref current, socket);
                Assert.True(start.SignalAndWait(TestTimeouts.Expected), $"round {round}: the disposing threads did not start");
                Assert.True(done.SignalAndWait(TestTimeouts.Expected), $"round {round}: the disposing threads did not finish");
                Assert.True(socket.IsDisposed);
                Assert.True(socket.IsNativeClosed(), $"round {round}: no thread closed the socket");
            }

            foreach (BlockingCall worker in workers)
            {
                Assert.True(worker.Join(TestTimeouts.Expected));
                Assert.Null(worker.Exception);
            }

            Assert.True(failures == 0, $"{failures} Dispose calls threw; first: {firstFailure}");
            ResourceSnapshot after = ResourceCounters.Snapshot();
            Assert.Equal(rounds, after.SocketsOpened - before.SocketsOpened);
            Assert.Equal(rounds, after.SocketsClosed - before.SocketsClosed);
        }
    }
}
