using System;
using System.Buffers;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Runtime.InteropServices;
using System.Text;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;
using Xunit.Abstractions;

namespace NetZeroMQ.Tests.Reliability
{
    /// <summary>
    /// The soak (long tier only): every kind of traffic and lifetime in a loop for <see cref="Tiers.SoakDuration"/>, sampling
    /// descriptors, threads and RSS every few seconds. Pass: after a warm-up of the first fifth, the least-squares growth over
    /// the rest stays under 5 descriptors, 3 threads and 20 MB, and every counted native object is released at the end. The
    /// figures go to the test output and to artifacts/soak-report.txt.
    /// </summary>
    [Collection(IsolatedCollection.Name)]
    public class SoakTests
    {
        private static readonly TimeSpan SampleEvery = TimeSpan.FromSeconds(5);

        private readonly ITestOutputHelper _output;

        public SoakTests(ITestOutputHelper output) => _output = output;

        [Fact]
        [Trait(Tiers.Category, Tiers.Long)]
        public void Soak_MixedTrafficForConfiguredDuration_NoGrowthInDescriptorsThreadsOrMemory()
        {
            TimeSpan duration = Tiers.SoakDuration;
            ResourceSnapshot countersBefore = Counters.Settled();
            var samples = new List<(double Minutes, ResourceProbe.Reading Reading)>();
            var clock = Stopwatch.StartNew();
            TimeSpan nextSample = TimeSpan.Zero;
            long iterations = 0, messages = 0;
            var report = new StringBuilder();
            while (clock.Elapsed < duration)
            {
                messages += OneIteration(iterations++);
                if (clock.Elapsed >= nextSample)
                {
                    ResourceProbe.Reading reading = ResourceProbe.Read();
                    samples.Add((clock.Elapsed.TotalMinutes, reading));
                    report.AppendLine(string.Format(CultureInfo.InvariantCulture, "t={0:F2} min iterations={1} messages={2} {3}", clock.Elapsed.TotalMinutes, iterations, messages, reading));
                    nextSample = clock.Elapsed + SampleEvery;
                }
            }

            ResourceSnapshot countersAfter = Counters.Settled();
            ResourceProbe.Reading final = ResourceProbe.Read();
            var measured = samples.GetRange(samples.Count / 5, samples.Count - samples.Count / 5);
            double window = measured[^1].Minutes - measured[0].Minutes;
            double fdSlope = Stats.Slope(measured.ConvertAll(s => (s.Minutes, (double)s.Reading.Descriptors)));
            double threadSlope = Stats.Slope(measured.ConvertAll(s => (s.Minutes, (double)s.Reading.Threads)));
            double rssSlope = Stats.Slope(measured.ConvertAll(s => (s.Minutes, s.Reading.RssMegabytes)));
            string summary = string.Format(
                CultureInfo.InvariantCulture,
                "soak {0:F1} min, {1} iterations, {2} messages; slopes over the last {3:F1} min: fds {4:F3}/min, threads {5:F3}/min, RSS {6:F3} MB/min; first {7}; last {8}; final {9}\ncounters before: {10}\ncounters after:  {11}",
                clock.Elapsed.TotalMinutes, iterations, messages, window, fdSlope, threadSlope, rssSlope, samples[0].Reading, samples[^1].Reading, final, countersBefore, countersAfter);
            report.Insert(0, summary + "\n");
            _output.WriteLine(report.ToString());
            string path = Environment.GetEnvironmentVariable("NETZEROMQ_SOAK_REPORT") ?? Path.Combine(Repository.Root, "artifacts", "soak-report.txt");
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            File.WriteAllText(path, report.ToString());

            Assert.True(samples.Count >= 5, "too few samples for a slope: " + samples.Count);
            Assert.True(fdSlope * window < 5, "descriptors grow: " + summary);
            Assert.True(threadSlope * window < 3, "threads grow: " + summary);
            Assert.True(rssSlope * window < 20, "RSS grows: " + summary);
            Assert.Equal(countersBefore.LiveContexts, countersAfter.LiveContexts);
            Assert.Equal(countersBefore.LiveSockets, countersAfter.LiveSockets);
            Assert.Equal(countersBefore.LiveMessages, countersAfter.LiveMessages);
            Assert.Equal(countersBefore.LiveWakers, countersAfter.LiveWakers);
            Assert.Equal(countersBefore.PinnedZeroCopyBuffers, countersAfter.PinnedZeroCopyBuffers);
            Assert.True(
                countersAfter.ZeroCopyPins - countersBefore.ZeroCopyPins >= ZeroCopySendsPerIteration * iterations,
                "the soak's zero-copy sends were not handed to libzmq as zero-copy: " + summary);
            Assert.Equal(countersBefore.OutstandingPooledBuffers, countersAfter.OutstandingPooledBuffers);
            Assert.Equal(countersBefore.ReleaseFailures, countersAfter.ReleaseFailures);
        }

        /// <summary>Zero-copy sends per <see cref="OneIteration"/>: i % 3 is 0 or 1 for 67 of its 100 push/pull messages.</summary>
        private const int ZeroCopySendsPerIteration = 67;

        /// <summary>Above <see cref="ZeroCopyPolicy.CopyThreshold"/>'s default (1 KiB), so the buffers really are handed to libzmq
        /// (smaller ones are copied and released at once, and would not exercise the release machinery).</summary>
        private const int ZeroCopySize = 2048;

        /// <summary>One round of everything: a fresh context, request/reply over tcp, push/pull over ipc with zero-copy and
        /// pooled receives, pub/sub over inproc, a monitor, a poller, and a disposal with sockets still open. Returns messages moved.</summary>
        private static long OneIteration(long iteration)
        {
            long moved = 0;
            Context context = Zmq.NewContext();
            try
            {
                using (Socket rep = Zmq.NewSocket(context, SocketType.Rep))
                using (Socket req = Zmq.NewSocket(context, SocketType.Req))
                using (SocketMonitor monitor = req.Monitor())
                {
                    req.Connect(Transports.BindAnywhere(rep, "tcp"));
                    using var message = new Message();
                    for (int i = 0; i < 50; i++)
                    {
                        req.Send("ping " + i);
                        rep.Recv(message);
                        rep.Send(message);
                        Assert.Equal("ping " + i, req.RecvString());
                        moved += 2;
                    }

                    while (monitor.TryRecv(out _))
                    {
                    }
                }

                using (Socket pull = Zmq.NewSocket(context, SocketType.Pull))
                using (Socket push = Zmq.NewSocket(context, SocketType.Push))
                using (var poller = new Poller())
                {
                    push.Connect(Transports.BindAnywhere(pull, "ipc"));
                    poller.Add(pull, PollEvents.In);
                    for (int i = 0; i < 100; i++)
                    {
                        switch (i % 3)
                        {
                            case 0:
                                IntPtr native = Marshal.AllocHGlobal(ZeroCopySize);
                                push.SendZeroCopy(native, ZeroCopySize, Marshal.FreeHGlobal);
                                break;
                            case 1:
                                byte[] rented = ArrayPool<byte>.Shared.Rent(ZeroCopySize);
                                push.SendZeroCopy(rented, ZeroCopySize, ArrayPool<byte>.Shared);
                                break;
                            default:
                                push.Send(new byte[64]);
                                break;
                        }

                        Assert.True(poller.Poll(TestTimeouts.Expected) == 1);
                        using PooledBuffer received = pull.RecvPooled();
                        Assert.True(received.Length > 0);
                        moved++;
                    }
                }

                Socket pub = Zmq.NewSocket(context, SocketType.Pub);
                Socket sub = Zmq.NewSocket(context, SocketType.Sub);
                string endpoint = Transports.BindAnywhere(pub, "inproc");
                sub.Subscribe("t");
                sub.Connect(endpoint);
                for (int i = 0; i < 20; i++)
                {
                    pub.Send("t" + i);
                }

                while (sub.TryRecv(new byte[8], out _))
                {
                    moved++;
                }

                if (iteration % 2 == 0)
                {
                    pub.Dispose(); // the other half are left open for Context.Dispose to close
                    sub.Dispose();
                }
            }
            finally
            {
                context.Dispose();
            }

            return moved;
        }
    }
}
