using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;
using Xunit.Abstractions;

namespace NetZeroMQ.Tests.Reliability
{
    /// <summary>
    /// Signals delivered to threads blocked in libzmq. The .NET runtime handles SIGCHLD (for <see cref="Process"/>), so a
    /// storm of short child processes makes blocked poll/recv calls return EINTR. Two sources at once: /bin/true started
    /// again and again, and SIGCHLD sent straight to each blocked thread with tgkill, so the interruption is certain rather
    /// than left to which thread the kernel picks. Pass: no <see cref="ZmqError.Interrupted"/> ever reaches the caller, and each
    /// timeout still holds to within 10%. Timing-sensitive, so the class runs alone.
    /// </summary>
    [Collection(IsolatedCollection.Name)]
    public class SignalTests
    {
        private const int SIGCHLD = 17; // Linux, every architecture .NET runs on

        private static readonly TimeSpan Timeout = TimeSpan.FromMilliseconds(500);

        private readonly ITestOutputHelper _output;

        public SignalTests(ITestOutputHelper output) => _output = output;

        [Fact]
        public void BlockingCalls_SigchldStorm_NoInterruptedErrorAndTimeoutsWithinTenPercent()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = new Socket(context, SocketType.Pull);
            pull.Bind(Transports.BindEndpoint("inproc"));
            pull.ReceiveTimeout = Timeout;

            // A PUSH at its high-water mark: the send blocks (libzmq's own wait, in slices) until its timeout.
            using Socket sink = new Socket(context, SocketType.Pull);
            sink.ReceiveHighWatermark = 1;
            using Socket push = new Socket(context, SocketType.Push);
            push.SendHighWatermark = 1;
            push.Connect(Transports.BindAnywhere(sink, "inproc"));
            int queued = 0;
            while (push.TrySend(new byte[] { 1 }))
            {
                Assert.True(++queued < 10_000, "the high-water mark was never reached");
            }

            push.SendTimeout = Timeout;

            using Socket polled = new Socket(context, SocketType.Pull);
            polled.Bind(Transports.BindEndpoint("inproc"));
            using var poller = new Poller();
            poller.Add(polled, PollEvents.In);

            const int Repeats = 6;
            var tids = new int[3];
            var elapsed = new List<(string Call, double Ms)>();
            var errors = new List<string>();
            using var stop = new CancellationTokenSource();

            BlockingCall Blocked(int index, string name, Func<bool> call) => BlockingCall.Start(() =>
            {
                Volatile.Write(ref tids[index], gettid());
                for (int i = 0; i < Repeats; i++)
                {
                    var clock = Stopwatch.StartNew();
                    try
                    {
                        bool timedOut = call();
                        lock (elapsed)
                        {
                            if (!timedOut)
                            {
                                errors.Add(name + ": returned before its timeout");
                            }

                            elapsed.Add((name, clock.Elapsed.TotalMilliseconds));
                        }
                    }
                    catch (Exception e)
                    {
                        lock (elapsed)
                        {
                            errors.Add(name + ": " + e);
                        }
                    }
                }
            });

            // Start the storms first: the first Process.Start installs the runtime's SIGCHLD handler.
            int children = 0;
            int signals = 0;
            BlockingCall spawner = BlockingCall.Start(() =>
            {
                while (!stop.IsCancellationRequested)
                {
                    using Process p = Process.Start(new ProcessStartInfo("/bin/true") { UseShellExecute = false })!;
                    p.WaitForExit(10_000);
                    Interlocked.Increment(ref children);
                }
            });
            Assert.True(Eventually.True(() => Volatile.Read(ref children) > 0), "no child process ran");

            BlockingCall[] calls =
            {
                Blocked(0, "Recv", () => IsTimeout(() => pull.Recv(new byte[8]))),
                Blocked(1, "Send", () => IsTimeout(() => push.Send(new byte[] { 2 }))),
                Blocked(2, "Poll", () => poller.Poll(Timeout) == 0),
            };
            BlockingCall killer = BlockingCall.Start(() =>
            {
                int pid = Environment.ProcessId;
                while (!stop.IsCancellationRequested)
                {
                    foreach (int tid in tids)
                    {
                        if (tid != 0 && tgkill(pid, tid, SIGCHLD) == 0)
                        {
                            Interlocked.Increment(ref signals);
                        }
                    }

                    Thread.Sleep(1);
                }
            });

            try
            {
                foreach (BlockingCall call in calls)
                {
                    Assert.True(call.Join(TimeSpan.FromSeconds(30)), "a blocked call did not finish its repeats");
                    Assert.Null(call.Exception);
                }
            }
            finally
            {
                stop.Cancel();
                Assert.True(spawner.Join(TestTimeouts.Expected));
                Assert.True(killer.Join(TestTimeouts.Expected));
            }

            _output.WriteLine($"{children} child processes, {signals} SIGCHLD sent to blocked threads");
            foreach ((string call, double ms) in elapsed)
            {
                _output.WriteLine($"{call}: {ms:F1} ms (timeout {Timeout.TotalMilliseconds} ms)");
            }

            Assert.True(errors.Count == 0, string.Join("\n", errors));
            Assert.True(signals >= 100, $"only {signals} signals reached the blocked threads: the storm was too weak to show anything");
            Assert.Equal(3 * Repeats, elapsed.Count);
            double low = Timeout.TotalMilliseconds * 0.9, high = Timeout.TotalMilliseconds * 1.1;
            Assert.All(elapsed, e => Assert.True(e.Ms >= low && e.Ms <= high, $"{e.Call} timed out after {e.Ms:F1} ms, outside [{low}, {high}]"));
        }

        private static bool IsTimeout(Action call)
        {
            try
            {
                call();
                return false;
            }
            catch (ZmqException e) when (e.IsTimeout)
            {
                return true;
            }
        }

        [DllImport("libc", SetLastError = true)]
        private static extern int tgkill(int tgid, int tid, int sig);

        [DllImport("libc")]
        private static extern int gettid();
    }
}
