using System;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using NetZeroMQ.Hosting.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Hosting.Tests
{
    public class HealthCheckTests
    {
        private static readonly TimeSpan RequirePeerWithin = TimeSpan.FromMilliseconds(300);

        [Fact]
        public async Task Health_PeerLeavesAndReturns_GoesHealthyDegradedHealthyThenUnhealthyAfterStop()
        {
            var records = new LogRecords();
            using IHost host = TestHosts.Build(
                TestHosts.Socket("frontend", "Router").With("NetZeroMQ:Sockets:frontend:RequirePeerWithin", RequirePeerWithin.ToString()), services =>
                {
                    services.AddSingleton(new Probe());
                    services.AddNetZeroMQ().AddSocketWorker<EchoHandler>("frontend");
                    services.AddHealthChecks().AddNetZeroMQ();
                }, records);
            await host.StartAsync();
            await records.WaitForAsync(103);
            var health = host.Services.GetRequiredService<HealthCheckService>();
            SocketPeers peers = host.Services.GetRequiredService<SocketFactory>().GetPeers("frontend");
            int changes = 0;
            peers.Changed += (_, _) => changes++;

            using var client = new Context();
            using (var first = Connect(client, peers.LastEndpoint))
            {
                Assert.True(await peers.WaitForPeerAsync(TestHosts.Timeout));
                Assert.Equal(1, peers.Count);
                Assert.Null(peers.NoPeerSince);
                await Task.Delay(RequirePeerWithin * 2);
                HealthReport healthy = await health.CheckHealthAsync();
                Assert.Equal(HealthStatus.Healthy, healthy.Status);
                Assert.Equal(1, healthy.Entries["netzeromq"].Data["frontend.peers"]);
            }

            await WaitUntilAsync(() => peers.Count == 0);
            Assert.False(await peers.WaitForPeerAsync(TimeSpan.FromMilliseconds(50)));
            await Task.Delay(RequirePeerWithin * 2);
            HealthReport degraded = await health.CheckHealthAsync();
            Assert.Equal(HealthStatus.Degraded, degraded.Status);
            Assert.Contains("frontend", degraded.Entries["netzeromq"].Description);

            using (var second = Connect(client, peers.LastEndpoint))
            {
                Assert.True(await peers.WaitForPeerAsync(TestHosts.Timeout));
                Assert.Equal(HealthStatus.Healthy, (await health.CheckHealthAsync()).Status);
                Assert.Equal(3, changes);

                await host.StopAsync();
                Assert.Equal(HealthStatus.Unhealthy, (await health.CheckHealthAsync()).Status);
            }
        }

        [Fact]
        public async Task WaitForPeerAsync_Cancelled_ThrowsOperationCanceled()
        {
            var records = new LogRecords();
            using IHost host = TestHosts.Build(TestHosts.Socket("frontend", "Router"), services =>
            {
                services.AddSingleton(new Probe());
                services.AddNetZeroMQ().AddSocketWorker<EchoHandler>("frontend");
            }, records);
            await host.StartAsync();
            await records.WaitForAsync(103);
            SocketPeers peers = host.Services.GetRequiredService<SocketFactory>().GetPeers("frontend");
            using var cancel = new System.Threading.CancellationTokenSource(TimeSpan.FromMilliseconds(50));

            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => peers.WaitForPeerAsync(System.Threading.Timeout.InfiniteTimeSpan, cancel.Token));
            await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => peers.WaitForPeerAsync(TimeSpan.FromSeconds(-2)));
            await host.StopAsync();
        }

        private static Socket Connect(Context context, string endpoint)
        {
            var dealer = new Socket(context, SocketType.Dealer) { Linger = TimeSpan.Zero };
            dealer.Connect(endpoint);
            return dealer;
        }

        private static async Task WaitUntilAsync(Func<bool> condition)
        {
            DateTime end = DateTime.UtcNow + TestHosts.Timeout;
            while (!condition())
            {
                Assert.True(DateTime.UtcNow < end, "the condition did not hold in time");
                await Task.Delay(20);
            }
        }
    }
}
