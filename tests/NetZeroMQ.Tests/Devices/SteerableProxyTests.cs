using System;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Devices
{
    /// <summary>
    /// The steering of a <see cref="SteerableProxy"/>: its life, and commands that return once the proxy has acted on them.
    /// The proxy's own loop does the same on every libzmq version (libzmq's zmq_proxy_steerable aborted on STATISTICS in 4.1
    /// and 4.2, swapped PAUSE and RESUME in 4.3.5, and spun while paused with a message waiting): these tests run unchanged on
    /// every version. Forwarding is in SteerableProxyTests.Forwarding.cs.
    /// </summary>
    public sealed partial class SteerableProxyTests : IDisposable
    {
        private readonly Context _context = Zmq.NewContext();
        private readonly Socket _frontend;
        private readonly Socket _backend;
        private readonly Socket _producer;
        private readonly Socket _consumer;

        public SteerableProxyTests()
        {
            _frontend = Zmq.NewSocket(_context, SocketType.Pull);
            _backend = Zmq.NewSocket(_context, SocketType.Push);
            _producer = Zmq.NewSocket(_context, SocketType.Push);
            _consumer = Zmq.NewSocket(_context, SocketType.Pull);
            _producer.Connect(Transports.BindAnywhere(_frontend, "inproc"));
            _consumer.Connect(Transports.BindAnywhere(_backend, "inproc"));
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task PauseResume_MessageSentWhilePaused_ArrivesOnlyAfterResume()
        {
            using var proxy = new SteerableProxy(_frontend, _backend);
            Task running = proxy.Start();
            _producer.Send("first");
            Assert.Equal("first", _consumer.RecvString());

            proxy.Pause(); // returns once paused: no statistics round trip needed before the next send
            _producer.Send("held");
            _consumer.ReceiveTimeout = TestTimeouts.Absent;
            Assert.False(_consumer.TryRecvString(out _));
            Assert.Equal(ZmqError.TryAgain, Assert.Throws<ZmqException>(() => _consumer.RecvString()).Error);

            proxy.Resume();
            _consumer.ReceiveTimeout = TestTimeouts.Expected;
            Assert.Equal("held", _consumer.RecvString());

            proxy.Terminate();
            await running.WaitAsync(TestTimeouts.Expected);
            Assert.True(proxy.IsFinished);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task PauseResume_Alternating_EachCommandMeansWhatItSays()
        {
            // libzmq 4.3.5 resumes on PAUSE and pauses on RESUME: every round checks both meanings.
            using var proxy = new SteerableProxy(_frontend, _backend);
            Task running = proxy.Start();
            _consumer.ReceiveTimeout = TestTimeouts.Absent;
            for (int round = 0; round < 3; round++)
            {
                proxy.Pause();
                _producer.Send("round " + round);
                Assert.False(_consumer.TryRecvString(TestTimeouts.Absent, out _), "forwarded while paused in round " + round);

                proxy.Resume();
                Assert.True(_consumer.TryRecvString(TestTimeouts.Expected, out string? text), "not forwarded after Resume in round " + round);
                Assert.Equal("round " + round, text);
            }

            proxy.Terminate();
            await running.WaitAsync(TestTimeouts.Expected);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task GetStatistics_AfterMessages_CountsThem()
        {
            using var proxy = new SteerableProxy(_frontend, _backend);
            Task running = proxy.Start();
            _producer.Send("12345");
            _producer.SendMultipart("ab", "cde");
            _consumer.RecvString();
            _consumer.RecvMultipartBytes();

            ProxyStatistics stats = proxy.GetStatistics(TestTimeouts.Expected);

            Assert.Equal(2UL, stats.FrontendMessagesReceived); // messages, not frames (libzmq 4.3.5 counted 3)
            Assert.Equal(10UL, stats.FrontendBytesReceived);
            Assert.Equal(2UL, stats.BackendMessagesSent);
            Assert.Equal(10UL, stats.BackendBytesSent);
            Assert.Equal(0UL, stats.BackendMessagesReceived);
            Assert.Equal(0UL, stats.BackendBytesReceived);
            Assert.Equal(0UL, stats.FrontendMessagesSent);
            Assert.Equal(0UL, stats.FrontendBytesSent);
            proxy.Terminate();
            await running.WaitAsync(TestTimeouts.Expected);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task GetStatistics_AfterPauseAndResume_AnswersEachTimeWithTheCounters()
        {
            // On libzmq 4.3.5 every command got an empty reply, so a PAUSE's reply was read as the statistics reply.
            using var proxy = new SteerableProxy(_frontend, _backend);
            Task running = proxy.Start();
            _producer.Send("abc");
            Assert.Equal("abc", _consumer.RecvString());

            proxy.Pause();
            ProxyStatistics paused = proxy.GetStatistics(TestTimeouts.Expected);
            proxy.Resume();
            ProxyStatistics resumed = proxy.GetStatistics(TestTimeouts.Expected);
            proxy.Pause();
            proxy.Resume();
            ProxyStatistics again = proxy.GetStatistics(TestTimeouts.Expected);

            foreach (ProxyStatistics stats in new[] { paused, resumed, again })
            {
                Assert.Equal(1UL, stats.FrontendMessagesReceived);
                Assert.Equal(3UL, stats.FrontendBytesReceived);
                Assert.Equal(1UL, stats.BackendMessagesSent);
                Assert.Equal(3UL, stats.BackendBytesSent);
            }

            proxy.Terminate();
            await running.WaitAsync(TestTimeouts.Expected);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Start_ThenGetStatisticsAtOnce_Answers()
        {
            using var proxy = new SteerableProxy(_frontend, _backend);

            Task running = proxy.Start();

            Assert.True(proxy.IsRunning); // Start returns once the proxy runs
            Assert.Equal(0UL, proxy.GetStatistics(TestTimeouts.Expected).FrontendMessagesReceived);
            Assert.Throws<InvalidOperationException>(() => StartOnly(proxy)); // it runs once: Start refuses at once
            proxy.Terminate();
            await running.WaitAsync(TestTimeouts.Expected);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Terminate_WhileRunning_ReleasesSocketGuardsBeforeReturning()
        {
            using var proxy = new SteerableProxy(_frontend, _backend);
            Task running = proxy.Start();
            Assert.True(proxy.IsRunning);
            Assert.Throws<InvalidOperationException>(() => _backend.TrySend("x"));

            proxy.Terminate();

            Assert.True(proxy.IsFinished);
            Assert.False(proxy.IsRunning);
            Assert.True(_backend.TrySend("direct")); // no wait for the task: Terminate returned once the sockets were free
            Assert.Equal("direct", _consumer.RecvString());
            await running.WaitAsync(TestTimeouts.Expected);
            Assert.Throws<InvalidOperationException>(() => proxy.Run());
            Assert.Throws<InvalidOperationException>(() => proxy.GetStatistics());
            proxy.Pause(); // after the end: nothing to do, no error
            proxy.Terminate();
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Pause_BeforeStart_StartsPaused()
        {
            using var proxy = new SteerableProxy(_frontend, _backend);
            proxy.Pause();
            _producer.Send("early");

            Task running = proxy.Start();

            Assert.False(_consumer.TryRecvString(TestTimeouts.Absent, out _));
            proxy.Resume();
            Assert.True(_consumer.TryRecvString(TestTimeouts.Expected, out string? text));
            Assert.Equal("early", text);
            proxy.Terminate();
            await running.WaitAsync(TestTimeouts.Expected);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Terminate_BeforeStart_EndsAsItStarts()
        {
            using var proxy = new SteerableProxy(_frontend, _backend);
            proxy.Terminate();
            Assert.Throws<InvalidOperationException>(() => proxy.GetStatistics()); // not running yet

            await proxy.Start().WaitAsync(TestTimeouts.Expected);

            Assert.True(proxy.IsFinished);
            Assert.True(_backend.TrySend("free")); // released
            Assert.Equal("free", _consumer.RecvString());
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Start_SocketDisposed_FaultsTaskAndFinishes()
        {
            using var proxy = new SteerableProxy(_frontend, _backend);
            _backend.Dispose();

            Task running = proxy.Start();

            await Assert.ThrowsAsync<ObjectDisposedException>(() => running.WaitAsync(TestTimeouts.Expected));
            Assert.True(proxy.IsFinished);
            Assert.True(_frontend.TryRecvString(out _) is false); // the frontend's guard was released
        }

        [Fact]
        public void Run_OnCallersThread_StopsOnTerminateFromAnother()
        {
            using var proxy = new SteerableProxy(_frontend, _backend);
            Exception? failure = null;
            var thread = new Thread(() =>
            {
                try
                {
                    proxy.Run();
                }
                catch (Exception e)
                {
                    failure = e;
                }
            });
            thread.Start();
            Assert.True(Eventually.True(() => proxy.IsRunning));
            _producer.Send("through");
            Assert.Equal("through", _consumer.RecvString());

            proxy.Terminate();

            Assert.True(thread.Join(TestTimeouts.Expected), "Run did not return after Terminate");
            Assert.Null(failure);
        }

        [Fact]
        public void GetStatistics_NegativeTimeout_Throws()
        {
            using var proxy = new SteerableProxy(_frontend, _backend);
            Assert.Throws<ArgumentOutOfRangeException>(() => proxy.GetStatistics(TimeSpan.FromMilliseconds(-2)));
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Run_ContextShutdown_EndsCleanly()
        {
            using var proxy = new SteerableProxy(_frontend, _backend);
            Task running = proxy.Start();
            Assert.True(proxy.IsRunning);

            _context.Shutdown();

            await running.WaitAsync(TestTimeouts.Expected);
            Assert.True(proxy.IsFinished);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Run_ContextShutdownWhilePaused_EndsCleanly()
        {
            using var proxy = new SteerableProxy(_frontend, _backend);
            Task running = proxy.Start();
            proxy.Pause();

            _context.Shutdown();

            await running.WaitAsync(TestTimeouts.Expected);
            Assert.True(proxy.IsFinished);
            proxy.Resume(); // the proxy ended: nothing to do
        }

        [Fact]
        public void Dispose_WhileRunning_TerminatesWithinBound()
        {
            var proxy = new SteerableProxy(_frontend, _backend);
            Task running = proxy.Start();
            Assert.True(proxy.IsRunning);

            proxy.Dispose();

            Assert.True(running.IsCompleted);
            Assert.True(proxy.IsFinished);
            Assert.Throws<ObjectDisposedException>(() => proxy.Pause());
            Assert.Throws<ObjectDisposedException>(() => StartOnly(proxy));
        }

        public void Dispose() => _context.Dispose();

        /// <summary>Start, for a test that expects it to throw before it returns a task.</summary>
        private static void StartOnly(SteerableProxy proxy) => _ = proxy.Start();
    }
}
