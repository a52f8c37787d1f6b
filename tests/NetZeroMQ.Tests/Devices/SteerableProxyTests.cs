using System;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Devices
{
    public sealed class SteerableProxyTests : IDisposable
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

            proxy.Pause();
            _ = proxy.GetStatistics(); // the proxy has handled PAUSE when it answers the next command
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
        public async Task GetStatistics_AfterMessages_CountsThem()
        {
            using var proxy = new SteerableProxy(_frontend, _backend);
            Task running = proxy.Start();
            _producer.Send("12345");
            _producer.SendMultipart("ab", "cde");
            _consumer.RecvString();
            _consumer.RecvMultipartBytes();

            ProxyStatistics stats = proxy.GetStatistics(TestTimeouts.Expected);

            Assert.Equal(2UL, stats.FrontendMessagesReceived);
            Assert.Equal(10UL, stats.FrontendBytesReceived);
            Assert.Equal(2UL, stats.BackendMessagesSent);
            Assert.Equal(10UL, stats.BackendBytesSent);
            Assert.Equal(0UL, stats.BackendMessagesReceived);
            Assert.Equal(0UL, stats.FrontendMessagesSent);
            proxy.Terminate();
            await running.WaitAsync(TestTimeouts.Expected);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Terminate_WhileRunning_ReleasesSocketGuards()
        {
            using var proxy = new SteerableProxy(_frontend, _backend);
            Task running = proxy.Start();
            Assert.True(Eventually.True(() => proxy.IsRunning));
            Assert.Throws<InvalidOperationException>(() => _backend.TrySend("x"));

            proxy.Terminate();
            await running.WaitAsync(TestTimeouts.Expected);

            Assert.False(proxy.IsRunning);
            Assert.True(_backend.TrySend("direct"));
            Assert.Equal("direct", _consumer.RecvString());
            Assert.Throws<InvalidOperationException>(() => proxy.Run());
            Assert.Throws<InvalidOperationException>(() => proxy.GetStatistics());
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Run_ContextShutdown_EndsCleanly()
        {
            using var proxy = new SteerableProxy(_frontend, _backend);
            Task running = proxy.Start();
            Assert.True(Eventually.True(() => proxy.IsRunning));

            _context.Shutdown();

            await running.WaitAsync(TestTimeouts.Expected);
            Assert.True(proxy.IsFinished);
        }

        [Fact]
        public void Dispose_WhileRunning_TerminatesWithinBound()
        {
            var proxy = new SteerableProxy(_frontend, _backend);
            Task running = proxy.Start();
            Assert.True(Eventually.True(() => proxy.IsRunning));

            proxy.Dispose();

            Assert.True(running.IsCompleted);
            Assert.True(proxy.IsFinished);
            Assert.Throws<ObjectDisposedException>(() => proxy.Pause());
        }

        public void Dispose() => _context.Dispose();
    }
}
