using System;
using System.Diagnostics;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using NetZeroMQ.Hosting.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Hosting.Tests
{
    public class HostLifetimeTests
    {
        [Fact]
        public async Task StopAsync_PendingReceiveAndHandlerMidway_ReturnsWithinShutdownTimeoutWithNothingOpen()
        {
            TimeSpan shutdownTimeout = TimeSpan.FromSeconds(5);
            var records = new LogRecords();
            var probe = new Probe();
            var configuration = TestHosts.Socket("idle", "Pull");
            foreach (var entry in TestHosts.Socket("busy", "Pull"))
            {
                configuration[entry.Key] = entry.Value;
            }

            using IHost host = TestHosts.Build(configuration, services =>
            {
                services.AddSingleton(probe);
                services.AddNetZeroMQ().AddSocketWorker<EchoHandler>("idle").AddSocketWorker<SlowHandler>("busy");
            }, records, shutdownTimeout);
            await host.StartAsync();
            var factory = host.Services.GetRequiredService<SocketFactory>();
            await records.WaitForAsync(103, r => r.Message.Contains("'busy'"));
            await records.WaitForAsync(103, r => r.Message.Contains("'idle'"));

            using (var client = new Context())
            using (var push = new Socket(client, SocketType.Push) { Linger = TimeSpan.Zero })
            {
                push.Connect(factory.GetPeers("busy").LastEndpoint);
                push.Send("work");
                await probe.Entered.Task.WaitAsync(TestHosts.Timeout);
            }

            var stopwatch = Stopwatch.StartNew();
            await host.StopAsync();
            stopwatch.Stop();

            Assert.True(stopwatch.Elapsed < shutdownTimeout, "stop took " + stopwatch.Elapsed);
            Assert.Equal((0L, 0L), await ResourceMetrics.WaitForNoneOpenAsync());
            Assert.Contains(records.WithId(104), r => r.Message.Contains("'idle'"));
            Assert.Contains(records.WithId(104), r => r.Message.Contains("'busy'"));
            Assert.Empty(records.WithId(107));
        }

        [Fact]
        public async Task StopAsync_HandlerIgnoresItsToken_ReturnsWithinShutdownTimeout()
        {
            TimeSpan shutdownTimeout = TimeSpan.FromSeconds(2);
            var records = new LogRecords();
            var probe = new Probe();
            using IHost host = TestHosts.Build(TestHosts.Socket("stubborn", "Pull"), services =>
            {
                services.AddSingleton(probe);
                services.AddNetZeroMQ().AddSocketWorker<StubbornHandler>("stubborn");
            }, records, shutdownTimeout);
            await host.StartAsync();
            await records.WaitForAsync(103);
            var factory = host.Services.GetRequiredService<SocketFactory>();
            using (var client = new Context())
            using (var push = new Socket(client, SocketType.Push) { Linger = TimeSpan.Zero })
            {
                push.Connect(factory.GetPeers("stubborn").LastEndpoint);
                push.Send("work");
                await probe.Entered.Task.WaitAsync(TestHosts.Timeout);
            }

            var stopwatch = Stopwatch.StartNew();
            await host.StopAsync();
            stopwatch.Stop();

            // The host gives up on the worker at its shutdown timeout; the stop never waits longer (plus scheduling slack).
            Assert.True(stopwatch.Elapsed < shutdownTimeout + TimeSpan.FromSeconds(1), "stop took " + stopwatch.Elapsed);
            Assert.True(stopwatch.Elapsed >= shutdownTimeout - TimeSpan.FromMilliseconds(100), "stop took only " + stopwatch.Elapsed);
            probe.Release.SetResult();
            Assert.Equal((0L, 0L), await ResourceMetrics.WaitForNoneOpenAsync());
        }

        [Fact]
        public async Task StopAsync_NoWorkerNoSocket_CreatesNoContext()
        {
            var records = new LogRecords();
            using IHost host = TestHosts.Build(TestHosts.Socket("unused", "Pull"), services => services.AddNetZeroMQ(), records);
            await host.StartAsync();
            Assert.Equal(0L, ResourceMetrics.Read().Contexts);
            await host.StopAsync();
            Assert.Equal((0L, 0L), ResourceMetrics.Read());
        }

        [Fact]
        public async Task StopAsync_RightAfterStart_EveryWorkerClosesItsSocketAndLogsItsStop()
        {
            // The stop begins before the worker's loop has run at all (it starts on the thread pool after StartAsync returns),
            // so the loop first runs with the context already shut down. It used to read the socket's endpoint there, which
            // failed with ContextTerminated before its try: the socket was never closed by the worker and its stop never logged.
            for (int round = 0; round < 5; round++)
            {
                var records = new LogRecords();
                using IHost host = TestHosts.Build(TestHosts.Socket("frontend", "Router"), services =>
                {
                    services.AddSingleton(new Probe());
                    services.AddNetZeroMQ().AddSocketWorker<EchoHandler>("frontend");
                }, records);
                await host.StartAsync();
                await host.StopAsync();

                Assert.Contains(records.WithId(104), r => r.Message.Contains("'frontend' stopped after 0 messages"));
                Assert.Empty(records.WithId(105));
            }
        }
    }
}
