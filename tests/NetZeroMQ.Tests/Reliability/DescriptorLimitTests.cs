using System;
using System.Collections.Generic;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;
using Xunit.Abstractions;

namespace NetZeroMQ.Tests.Reliability
{
    /// <summary>
    /// A process pushed past its file descriptor limit, in a child process whose limit is lowered to 1024 (setrlimit, so it
    /// runs on any Linux machine whatever its own limit). The scenario wants twice the limit: PULL sockets bound to tcp, each
    /// with a pending <c>RecvStringAsync</c>, then a PUSH connecting to each and sending one message (five descriptors a pair).
    /// (With 256 the PULL sockets alone would take every descriptor the runtime and the reserve leave, and no PUSH would be
    /// made; 1024 leaves room for some of each. The reactor case needs no room and runs at 256.)
    /// Pass: the process survives (a .NET process at zero headroom dies on its next thread start), every call that could not
    /// have a descriptor threw <see cref="ZmqError.TooManyOpenFiles"/> with the count and the limit, every pair that was made
    /// delivered, blocking receives and new threads still work at the limit, and after closing some pairs new ones work again.
    /// </summary>
    public class DescriptorLimitTests
    {
        internal const string Scenario = "descriptor-limit";
        internal const string ReactorScenario = "descriptor-limit-reactor";

        private const int Limit = 1024;
        private const int ReactorLimit = 256;
        private const int RLIMIT_NOFILE = 7;

        private readonly ITestOutputHelper _output;

        public DescriptorLimitTests(ITestOutputHelper output) => _output = output;

        [Fact]
        public void PairsForTwiceTheLimit_ProcessSurvivesRefusalsAreTooManyOpenFilesAndMadePairsDeliver()
        {
            (int exitCode, string output) = ChildProcess.Run(Scenario, new[] { Limit.ToString(CultureInfo.InvariantCulture) }, null, TimeSpan.FromSeconds(45), null);
            _output.WriteLine(output);
            Assert.True(exitCode == 0, $"the child did not survive (exit {exitCode}):\n{output}");
            Dictionary<string, string> v = ChildProcess.Values(output);
            double wanted = ChildProcess.Number(v, "pairs_wanted", output);
            double made = ChildProcess.Number(v, "pairs_made", output);
            Assert.True(ChildProcess.Number(v, "refused", output) > 0, "nothing was refused: the limit was never reached\n" + output);
            Assert.True(made > 0 && made < wanted, $"{made} of {wanted} pairs made\n" + output);
            Assert.Equal(made, ChildProcess.Number(v, "delivered", output));
            Assert.True(ChildProcess.Number(v, "open_at_limit", output) < ChildProcess.Number(v, "limit", output), "the descriptors ran out\n" + output);
            Assert.Equal(1, ChildProcess.Number(v, "thread_started_at_limit", output));
            Assert.Equal(1, ChildProcess.Number(v, "blocking_receive_at_limit", output));
            Assert.Equal(1, ChildProcess.Number(v, "new_pair_after_closing", output));
        }

        [Fact]
        public void AsyncReceive_ReactorCannotStartAtZeroHeadroom_ThrowsTooManyOpenFilesOnCallerAndWorksOnceFreed()
        {
            (int exitCode, string output) = ChildProcess.Run(ReactorScenario, new[] { ReactorLimit.ToString(CultureInfo.InvariantCulture) }, null, TimeSpan.FromSeconds(45), null);
            _output.WriteLine(output);
            Assert.True(exitCode == 0, $"the child failed (exit {exitCode}):\n{output}");
            Dictionary<string, string> v = ChildProcess.Values(output);
            Assert.Equal("ZmqException/TooManyOpenFiles", v.GetValueOrDefault("async_at_zero"));
            Assert.Equal("none", v.GetValueOrDefault("blocking_receive_at_zero"));
            Assert.Equal("received", v.GetValueOrDefault("async_after_freeing"));
        }

        /// <summary>The child of <see cref="PairsForTwiceTheLimit_ProcessSurvivesRefusalsAreTooManyOpenFilesAndMadePairsDeliver"/>.</summary>
        internal static int Child(string[] args)
        {
            int limit = LowerLimit(int.Parse(args[0], CultureInfo.InvariantCulture));
            int wanted = 2 * limit / 5; // five descriptors a pair: twice what the limit holds
            int refused = 0;
            string? firstRefusal = null;
            bool Refused(ZmqException e)
            {
                if (e.Error != ZmqError.TooManyOpenFiles)
                {
                    Console.WriteLine("unexpected error: " + e);
                    return false;
                }

                refused++;
                firstRefusal ??= e.Message;
                return true;
            }

            using var context = new Context { DefaultLinger = TimeSpan.Zero };

            // A blocking pair made first, used again at the limit.
            using Socket syncPull = new Socket(context, SocketType.Pull);
            using Socket syncPush = new Socket(context, SocketType.Push);
            syncPush.Connect(Transports.BindAnywhere(syncPull, "tcp"));

            var pulls = new List<(Socket Pull, string Endpoint, Task<string> Received)>();
            for (int i = 0; i < wanted; i++)
            {
                Socket? pull = null;
                try
                {
                    pull = new Socket(context, SocketType.Pull);
                    pull.Bind("tcp://127.0.0.1:*");
                    pulls.Add((pull, pull.LastEndpoint!, pull.RecvStringAsync().AsTask()));
                }
                catch (ZmqException e)
                {
                    pull?.Dispose();
                    if (!Refused(e))
                    {
                        return 1;
                    }
                }
            }

            var pushes = new List<Socket>();
            var made = new List<int>();
            for (int i = 0; i < pulls.Count; i++)
            {
                Socket? push = null;
                try
                {
                    push = new Socket(context, SocketType.Push);
                    push.Connect(pulls[i].Endpoint);
                    push.Send("pair " + i.ToString(CultureInfo.InvariantCulture));
                    pushes.Add(push);
                    made.Add(i);
                }
                catch (ZmqException e)
                {
                    push?.Dispose();
                    if (!Refused(e))
                    {
                        return 1;
                    }
                }
            }

            Console.WriteLine("pairs_wanted=" + wanted.ToString(CultureInfo.InvariantCulture));
            Console.WriteLine("pairs_made=" + made.Count.ToString(CultureInfo.InvariantCulture));
            Console.WriteLine("refused=" + refused.ToString(CultureInfo.InvariantCulture));
            Console.WriteLine("first refusal: " + firstRefusal);
            if (firstRefusal is not null && !firstRefusal.Contains("of this process's " + limit.ToString(CultureInfo.InvariantCulture) + " file descriptors", StringComparison.Ordinal))
            {
                Console.WriteLine("the refusal does not give the count and the limit");
                return 1;
            }

            int delivered = 0;
            foreach (int i in made)
            {
                Task<string> received = pulls[i].Received;
                if (received.Wait(TestTimeouts.Expected) && received.Result == "pair " + i.ToString(CultureInfo.InvariantCulture))
                {
                    delivered++;
                }
            }

            Console.WriteLine("delivered=" + delivered.ToString(CultureInfo.InvariantCulture));
            Console.WriteLine("open_at_limit=" + Open().ToString(CultureInfo.InvariantCulture));

            // The runtime can still start a thread, and a blocking receive still works.
            var thread = new Thread(() => { });
            thread.Start();
            Console.WriteLine("thread_started_at_limit=" + (thread.Join(TestTimeouts.Expected) ? "1" : "0"));
            syncPush.Send("sync");
            Console.WriteLine("blocking_receive_at_limit=" + (syncPull.TryRecvString(TestTimeouts.Expected, out string? sync) && sync == "sync" ? "1" : "0"));

            // Close ten pairs; once the connects of the burst no longer count as promised, a new pair works again.
            for (int k = 0; k < 10 && k < made.Count; k++)
            {
                pushes[k].Dispose();
                pulls[made[k]].Pull.Dispose();
            }

            Thread.Sleep((2 * DescriptorHeadroom.PromiseWindowMs) + 100);
            using (Socket pull = new Socket(context, SocketType.Pull))
            using (Socket push = new Socket(context, SocketType.Push))
            {
                pull.Bind("tcp://127.0.0.1:*");
                Task<string> received = pull.RecvStringAsync().AsTask();
                push.Connect(pull.LastEndpoint!);
                push.Send("again");
                Console.WriteLine("new_pair_after_closing=" + (received.Wait(TestTimeouts.Expected) && received.Result == "again" ? "1" : "0"));
            }

            foreach (Socket push in pushes)
            {
                push.Dispose();
            }

            foreach ((Socket pull, _, _) in pulls)
            {
                pull.Dispose();
            }

            Console.WriteLine("survived");
            return 0;
        }

        /// <summary>
        /// The child of <see cref="AsyncReceive_ReactorCannotStartAtZeroHeadroom_ThrowsTooManyOpenFilesOnCallerAndWorksOnceFreed"/>:
        /// the first async receive that has to wait starts the reactor, here with not one descriptor free.
        /// </summary>
        internal static int ReactorChild(string[] args)
        {
            LowerLimit(int.Parse(args[0], CultureInfo.InvariantCulture));
            using var context = new Context { DefaultLinger = TimeSpan.Zero };
            using Socket pull = new Socket(context, SocketType.Pull);
            using Socket push = new Socket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "tcp"));

            // Take every descriptor left, then try; only then write anything (the console needs nothing new, but be sure).
            var fillers = new List<int>();
            int fd;
            while ((fd = eventfd(0, 0x80000)) >= 0)
            {
                fillers.Add(fd);
            }

            string atZero;
            try
            {
                pull.RecvStringAsync().AsTask().Wait(TestTimeouts.Absent);
                atZero = "no exception";
            }
            catch (Exception e)
            {
                // A frame receive reports its failure through the task it returns.
                Exception error = e is AggregateException { InnerException: { } inner } ? inner : e;
                atZero = error.GetType().Name + (error is ZmqException z ? "/" + z.Error : "") + " " + error.Message;
            }

            // No waker can be made now: a timed receive waits in slices, and times out without an exception.
            string blocking;
            try
            {
                blocking = pull.TryRecvString(TestTimeouts.Absent, out _) ? "received" : "none";
            }
            catch (Exception e)
            {
                blocking = e.GetType().Name + " " + e.Message;
            }

            foreach (int filler in fillers)
            {
                close(filler);
            }

            Console.WriteLine("filled=" + fillers.Count.ToString(CultureInfo.InvariantCulture));
            Console.WriteLine("async_at_zero=" + (atZero.StartsWith("ZmqException/TooManyOpenFiles ", StringComparison.Ordinal) ? "ZmqException/TooManyOpenFiles" : atZero));
            Console.WriteLine("message at zero: " + atZero);
            Console.WriteLine("blocking_receive_at_zero=" + blocking);

            // The failed start is not remembered: with descriptors free again, the same call works.
            string after;
            try
            {
                Task<string> received = pull.RecvStringAsync().AsTask();
                push.Send("freed");
                after = received.Wait(TestTimeouts.Expected) && received.Result == "freed" ? "received" : "nothing";
            }
            catch (Exception e)
            {
                after = e.GetType().Name + " " + e.Message;
            }

            Console.WriteLine("async_after_freeing=" + after);
            return 0;
        }

        /// <summary>Lowers this process's soft descriptor limit (the hard one stays); returns the limit set.</summary>
        private static int LowerLimit(int limit)
        {
            if (getrlimit(RLIMIT_NOFILE, out RLimit current) != 0)
            {
                throw new InvalidOperationException("getrlimit failed: errno " + Marshal.GetLastWin32Error());
            }

            limit = (int)Math.Min((ulong)limit, (ulong)current.Maximum);
            var lowered = new RLimit { Current = (nuint)limit, Maximum = current.Maximum };
            if (setrlimit(RLIMIT_NOFILE, in lowered) != 0)
            {
                throw new InvalidOperationException("setrlimit failed: errno " + Marshal.GetLastWin32Error());
            }

            Console.WriteLine("limit=" + limit.ToString(CultureInfo.InvariantCulture));
            Console.WriteLine("open_at_start=" + Open().ToString(CultureInfo.InvariantCulture));
            return limit;
        }

        /// <summary>The open descriptors, measured without opening one.</summary>
        private static long Open() => DescriptorHeadroom.TryMeasure(out long open, out _) ? open : -1;

        [StructLayout(LayoutKind.Sequential)]
        private struct RLimit
        {
            internal nuint Current;
            internal nuint Maximum;
        }

        [DllImport("libc", SetLastError = true)]
        private static extern int getrlimit(int resource, out RLimit limit);

        [DllImport("libc", SetLastError = true)]
        private static extern int setrlimit(int resource, in RLimit limit);

        [DllImport("libc", SetLastError = true)]
        private static extern int eventfd(uint initval, int flags);

        [DllImport("libc")]
        private static extern int close(int fd);
    }
}
