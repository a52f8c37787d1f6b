using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;
using Xunit.Abstractions;

namespace NetZeroMQ.Tests.Reliability
{
    /// <summary>
    /// <see cref="Context.Shutdown"/> must release every thread blocked on the context's sockets promptly: 8 threads, half in
    /// Recv and half in Poller.Poll, each measured from the Shutdown call to the end of its call. The bound is on the
    /// distribution (median and 95th percentile of all rounds), so one descheduled thread on a loaded 2-core machine does not
    /// decide the outcome, while a systematic delay does. Timing-sensitive, so the class runs alone.
    /// </summary>
    [Collection(IsolatedCollection.Name)]
    public class ShutdownLatencyTests
    {
        private const int BlockedThreads = 8;

        /// <summary>The bound for each released thread.</summary>
        private static readonly TimeSpan Bound = TimeSpan.FromMilliseconds(100);

        private readonly ITestOutputHelper _output;

        public ShutdownLatencyTests(ITestOutputHelper output) => _output = output;

        [Fact]
        public void Shutdown_EightThreadsBlockedInRecvAndPoll_EachReleasedWithin100Milliseconds()
        {
            const int Rounds = 25;
            var latencies = new List<double>();
            for (int round = 0; round < Rounds; round++)
            {
                latencies.AddRange(OneRound(round));
            }

            string distribution = Stats.Describe(latencies);
            _output.WriteLine("release latency after Shutdown: " + distribution);
            Assert.True(Stats.Percentile(latencies, 50) <= Bound.TotalMilliseconds / 5, "median too high: " + distribution);
            Assert.True(Stats.Percentile(latencies, 95) <= Bound.TotalMilliseconds, "95th percentile over " + Bound + ": " + distribution);
            Assert.True(Stats.Percentile(latencies, 100) <= 10 * Bound.TotalMilliseconds, "a thread took over 1 s: " + distribution);
        }

        private static IEnumerable<double> OneRound(int round)
        {
            Context context = Zmq.NewContext();
            var sockets = new List<Socket>();
            var pollers = new List<Poller>();
            var calls = new BlockingCall[BlockedThreads];
            using var ready = new CountdownEvent(BlockedThreads);
            try
            {
                for (int i = 0; i < BlockedThreads; i++)
                {
                    Socket socket = new Socket(context, i % 4 == 0 ? SocketType.Sub : SocketType.Pull);
                    socket.ReceiveTimeout = Timeout.InfiniteTimeSpan;
                    socket.Bind(Transports.BindEndpoint(i % 2 == 0 ? "tcp" : "inproc"));
                    sockets.Add(socket);
                    if (i < BlockedThreads / 2)
                    {
                        var buffer = new byte[8];
                        calls[i] = BlockingCall.Start(() =>
                        {
                            ready.Signal();
                            socket.Recv(buffer);
                        });
                    }
                    else
                    {
                        var poller = new Poller();
                        poller.Add(socket, PollEvents.In);
                        pollers.Add(poller);
                        calls[i] = BlockingCall.Start(() =>
                        {
                            ready.Signal();
                            poller.Poll(Timeout.InfiniteTimeSpan);
                        });
                    }
                }

                Assert.True(ready.Wait(TestTimeouts.Expected));
                Thread.Sleep(20); // let each thread reach its native wait

                long shutdownAt = Stopwatch.GetTimestamp();
                context.Shutdown();
                var latencies = new double[BlockedThreads];
                for (int i = 0; i < BlockedThreads; i++)
                {
                    Assert.True(calls[i].Join(TestTimeouts.Expected), $"round {round}: thread {i} was not released by Shutdown");
                    var e = Assert.IsType<ZmqException>(calls[i].Exception);
                    Assert.Equal(ZmqError.ContextTerminated, e.Error);
                    latencies[i] = calls[i].EndedAfter(shutdownAt).TotalMilliseconds;
                }

                return latencies;
            }
            finally
            {
                pollers.ForEach(p => p.Dispose());
                context.Dispose();
            }
        }
    }
}
