using System;
using System.Diagnostics;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Devices
{
    /// <summary>What a <see cref="SteerableProxy"/> forwards: both directions, capture, a full destination, and what a pause costs.</summary>
    public sealed partial class SteerableProxyTests
    {
        /// <summary>How long the CPU tests hold the proxy still.</summary>
        private static readonly TimeSpan Still = TimeSpan.FromSeconds(1);

        /// <summary>CPU seconds per second a proxy that waits may use (libzmq's paused proxy used 1.00 with a message waiting).</summary>
        private const double IdleCpuShare = 0.2;

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Run_RequestReplyThroughRouterDealer_CountsBothDirections()
        {
            using Socket router = Zmq.NewSocket(_context, SocketType.Router);
            using Socket dealer = Zmq.NewSocket(_context, SocketType.Dealer);
            using Socket client = Zmq.NewSocket(_context, SocketType.Req);
            using Socket worker = Zmq.NewSocket(_context, SocketType.Rep);
            client.Connect(Transports.BindAnywhere(router, "inproc"));
            worker.Connect(Transports.BindAnywhere(dealer, "inproc"));
            using var proxy = new SteerableProxy(router, dealer);
            Task running = proxy.Start();

            for (int i = 0; i < 3; i++)
            {
                client.Send("ping" + i);
                Assert.Equal("ping" + i, worker.RecvString());
                worker.Send("pong" + i);
                Assert.Equal("pong" + i, client.RecvString());
            }

            ProxyStatistics stats = proxy.GetStatistics(TestTimeouts.Expected);
            // Each request is [routing id][empty][ping<i>] on the ROUTER, [empty][ping<i>] on the DEALER; replies alike.
            Assert.Equal(3UL, stats.FrontendMessagesReceived);
            Assert.Equal(3UL, stats.BackendMessagesSent);
            Assert.Equal(3UL, stats.BackendMessagesReceived);
            Assert.Equal(3UL, stats.FrontendMessagesSent);
            Assert.Equal(stats.FrontendBytesReceived, stats.BackendBytesSent);
            Assert.Equal(stats.BackendBytesReceived, stats.FrontendBytesSent);
            Assert.Equal(3UL * (5 + 5), stats.FrontendBytesReceived); // 5-byte routing id + "pingN"
            proxy.Terminate();
            await running.WaitAsync(TestTimeouts.Expected);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Run_FrontendIsBackend_SendsBackToTheSameSocket()
        {
            using Socket pair = Zmq.NewSocket(_context, SocketType.Pair);
            using Socket peer = Zmq.NewSocket(_context, SocketType.Pair);
            peer.Connect(Transports.BindAnywhere(pair, "inproc"));
            using var proxy = new SteerableProxy(pair, pair);
            Task running = proxy.Start();

            peer.SendMultipart("echo", "me");

            Assert.Equal(new[] { "echo", "me" }, Strings(peer.RecvMultipartBytes()));
            ProxyStatistics stats = proxy.GetStatistics(TestTimeouts.Expected);
            Assert.Equal((1UL, 6UL, 1UL, 6UL), (stats.FrontendMessagesReceived, stats.FrontendBytesReceived, stats.BackendMessagesSent, stats.BackendBytesSent));
            Assert.Equal((0UL, 0UL), (stats.BackendMessagesReceived, stats.FrontendMessagesSent));
            proxy.Terminate();
            await running.WaitAsync(TestTimeouts.Expected);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Run_WithCapture_CopiesWholeMessagesAndKeepsGoingWhenCaptureCannotTake()
        {
            using Socket capture = Zmq.NewSocket(_context, SocketType.Push);
            capture.SendHighWatermark = 1;
            string captureEndpoint = Transports.BindAnywhere(capture, "inproc");
            using var proxy = new SteerableProxy(_frontend, _backend, capture);
            Task running = proxy.Start();

            // No peer on the capture socket yet: it cannot take a copy, and the proxy goes on without one.
            _producer.SendMultipart("lost", "copy");
            Assert.Equal(new[] { "lost", "copy" }, Strings(_consumer.RecvMultipartBytes()));

            using Socket tap = Zmq.NewSocket(_context, SocketType.Pull);
            tap.Connect(captureEndpoint);
            Assert.True(Eventually.True(() =>
            {
                _producer.Send("probe");
                Assert.Equal("probe", _consumer.RecvString());
                return tap.TryRecvString(TestTimeouts.Absent, out _);
            }));
            _producer.SendMultipart("a", "bc", "def");
            Assert.Equal(new[] { "a", "bc", "def" }, Strings(_consumer.RecvMultipartBytes()));
            byte[][] copied = tap.RecvMultipartBytes();
            while (copied.Length == 1 && Encoding.UTF8.GetString(copied[0]) == "probe")
            {
                copied = tap.RecvMultipartBytes();
            }

            Assert.Equal(new[] { "a", "bc", "def" }, Strings(copied));
            proxy.Terminate();
            await running.WaitAsync(TestTimeouts.Expected);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Terminate_DestinationFull_DropsHeldMessageWholeAndAnswersMeanwhile()
        {
            using Socket frontend = Zmq.NewSocket(_context, SocketType.Pull);
            using Socket unconnected = Zmq.NewSocket(_context, SocketType.Push); // no peer: it can take nothing
            using Socket producer = Zmq.NewSocket(_context, SocketType.Push);
            producer.Connect(Transports.BindAnywhere(frontend, "inproc"));
            using var proxy = new SteerableProxy(frontend, unconnected);
            Task running = proxy.Start();

            producer.SendMultipart("held", "back");
            producer.SendMultipart("next", "one");
            // Answered while the backend takes nothing: the proxy holds the first frame and waits for the backend, not in it.
            Assert.True(Eventually.True(() => proxy.GetStatistics(TestTimeouts.Expected).FrontendBytesReceived == 4),
                "the proxy did not take the first frame");
            ProxyStatistics stats = proxy.GetStatistics(TestTimeouts.Expected);
            Assert.Equal((0UL, 4UL, 0UL, 0UL), (stats.FrontendMessagesReceived, stats.FrontendBytesReceived, stats.BackendMessagesSent, stats.BackendBytesSent));
            proxy.Pause();
            proxy.Resume();

            proxy.Terminate();

            await running.WaitAsync(TestTimeouts.Expected);
            // The held message is gone whole; the frontend stands at the next message's first frame.
            Assert.True(frontend.TryRecvMultipartBytes(TestTimeouts.Expected, out byte[][]? next));
            Assert.Equal(new[] { "next", "one" }, Strings(next!));
        }

        [Fact]
        public void Pause_WithMessageWaiting_UsesNoCpu()
        {
            using var proxy = new SteerableProxy(_frontend, _backend);
            (Thread thread, ThreadCpuTime cpu) = RunOnThread(proxy);
            Assert.True(Eventually.True(() => proxy.IsRunning));
            proxy.Pause();
            _producer.Send("waiting"); // inproc: in the frontend's queue when Send returns

            TimeSpan before = cpu.Used();
            var clock = Stopwatch.StartNew();
            Thread.Sleep(Still);
            double share = (cpu.Used() - before).TotalSeconds / clock.Elapsed.TotalSeconds;

            Assert.True(share < IdleCpuShare, $"the paused proxy used {share:F2} s of CPU per second ({(cpu.IsPerThread ? "its thread" : "the process")})");
            proxy.Resume();
            Assert.Equal("waiting", _consumer.RecvString()); // it was waiting all along
            proxy.Terminate();
            Assert.True(thread.Join(TestTimeouts.Expected));
        }

        [Fact]
        public void Run_DestinationRefusesWhatItSaidItWouldTake_RetriesWithoutSpinning()
        {
            // A ROUTER with RouterMandatory reports that it can send while any peer's pipe has room, and refuses (EAGAIN) a
            // message for a peer whose pipe is full. A loop that polled for output would spin; this one retries after a
            // growing pause.
            using Socket frontend = Zmq.NewSocket(_context, SocketType.Pull);
            using Socket router = Zmq.NewSocket(_context, SocketType.Router);
            using Socket peer = Zmq.NewSocket(_context, SocketType.Dealer);
            using Socket idle = Zmq.NewSocket(_context, SocketType.Dealer);
            using Socket producer = Zmq.NewSocket(_context, SocketType.Push);
            router.SetOption(SocketOptions.RouterMandatory, true);
            router.SendHighWatermark = 1;
            peer.ReceiveHighWatermark = 1;
            peer.RoutingId = Encoding.UTF8.GetBytes("P");
            idle.RoutingId = Encoding.UTF8.GetBytes("Q");
            producer.Connect(Transports.BindAnywhere(frontend, "inproc"));
            string routerEndpoint = Transports.BindAnywhere(router, "inproc");
            peer.Connect(routerEndpoint);
            idle.Connect(routerEndpoint);
            peer.Send("hello"); // the ROUTER has met both peers
            idle.Send("hello");
            router.RecvMultipartBytes();
            router.RecvMultipartBytes();
            using var proxy = new SteerableProxy(frontend, router);
            (Thread thread, ThreadCpuTime cpu) = RunOnThread(proxy);
            Assert.True(Eventually.True(() => proxy.IsRunning));

            const int Count = 20;
            for (int i = 0; i < Count; i++)
            {
                producer.SendMultipart("P", "m" + i);
            }

            Assert.True(Eventually.True(() => proxy.GetStatistics(TestTimeouts.Expected).BackendMessagesSent > 0));
            TimeSpan before = cpu.Used();
            var clock = Stopwatch.StartNew();
            Thread.Sleep(Still);
            double share = (cpu.Used() - before).TotalSeconds / clock.Elapsed.TotalSeconds;
            Assert.True(share < IdleCpuShare, $"the proxy used {share:F2} s of CPU per second waiting for a full peer");
            Assert.True(proxy.GetStatistics(TestTimeouts.Expected).BackendMessagesSent < Count, "the peer's pipe never filled");

            for (int i = 0; i < Count; i++)
            {
                Assert.Equal("m" + i, peer.RecvString());
            }

            proxy.Terminate();
            Assert.True(thread.Join(TestTimeouts.Expected));
        }

        /// <summary>Runs the proxy on a thread of the test's (so that its CPU time can be read) and returns it with its measure.</summary>
        private static (Thread Thread, ThreadCpuTime Cpu) RunOnThread(SteerableProxy proxy)
        {
            ThreadCpuTime? cpu = null;
            using var measured = new ManualResetEventSlim();
            var thread = new Thread(() =>
            {
                cpu = ThreadCpuTime.OfCurrentThread();
                measured.Set();
                proxy.Run();
            })
            { IsBackground = true };
            thread.Start();
            Assert.True(measured.Wait(TestTimeouts.Expected));
            return (thread, cpu!);
        }

        private static string[] Strings(byte[][] frames) => Array.ConvertAll(frames, f => Encoding.UTF8.GetString(f));
    }
}
