using System;
using System.Linq;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using NetZeroMQ.Hosting.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Hosting.Tests
{
    public class HandlerPolicyTests
    {
        [Fact]
        public async Task Handler_ThrowsWithLogAndContinue_LogsEvent100AndHandlesTheNextMessage()
        {
            var probe = new Probe();
            var records = new LogRecords();
            using IHost host = TestHosts.Build(TestHosts.Socket("jobs", "Pull"), services =>
            {
                services.AddSingleton(probe);
                services.AddNetZeroMQ().AddSocketWorker<ThrowingHandler>("jobs");
            }, records);
            await host.StartAsync();
            await records.WaitForAsync(103);

            Send(host, "jobs", "boom", "after");

            Assert.Equal(new[] { "after" }, await probe.NextAsync());
            var record = Assert.Single(records.WithId(100));
            Assert.Equal(LogLevel.Error, record.Level);
            Assert.Equal("the handler failed on purpose", record.Exception?.Message);
            Assert.False(host.Services.GetRequiredService<IHostApplicationLifetime>().ApplicationStopping.IsCancellationRequested);
            await host.StopAsync();
        }

        [Fact]
        public async Task Handler_ThrowsWithStopHost_LogsEvent101AndStopsTheHost()
        {
            var probe = new Probe();
            var records = new LogRecords();
            using IHost host = TestHosts.Build(
                TestHosts.Socket("jobs", "Pull").With("NetZeroMQ:Sockets:jobs:HandlerErrors", "StopHost"), services =>
                {
                    services.AddSingleton(probe);
                    services.AddNetZeroMQ().AddSocketWorker<ThrowingHandler>("jobs");
                }, records);
            await host.StartAsync();
            await records.WaitForAsync(103);

            Send(host, "jobs", "boom", "after");

            await host.WaitForShutdownAsync().WaitAsync(TestHosts.Timeout);
            var record = Assert.Single(records.WithId(101));
            Assert.Equal(LogLevel.Critical, record.Level);
            Assert.Empty(probe.Handled);
            Assert.Equal((0L, 0L), await ResourceMetrics.WaitForNoneOpenAsync());
        }

        private static void Send(IHost host, string socketName, params string[] messages)
        {
            using var context = new Context();
            using var push = new Socket(context, SocketType.Push) { Linger = TimeSpan.FromSeconds(5) };
            push.Connect(host.Services.GetRequiredService<SocketFactory>().GetPeers(socketName).LastEndpoint);
            foreach (string message in messages)
            {
                push.Send(message);
            }
        }
    }
}
