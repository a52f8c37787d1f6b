using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using NetZeroMQ.Hosting.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Hosting.Tests
{
    public class OptionsValidationTests
    {
        [Theory]
        [InlineData("NetZeroMQ:IOThreads", "-1")]
        [InlineData("NetZeroMQ:IOThreads", "many")]
        [InlineData("NetZeroMQ:Linger", "01:00:01")]
        [InlineData("NetZeroMQ:Sockets:frontend:Type", "Tube")]
        [InlineData("NetZeroMQ:Sockets:frontend:Bind:0", "localhost:5555")]
        [InlineData("NetZeroMQ:Sockets:frontend:CurveSecretKey", "not-a-key")]
        [InlineData("NetZeroMQ:Sockets:frontend:RequirePeerWithin", "-00:00:01")]
        [InlineData("NetZeroMQ:Sockets:frontend:CurveClientKeys:0", "tooshort")]
        public async Task StartAsync_BadValue_ThrowsOptionsValidationExceptionNamingTheKeyBeforeAnySocket(string key, string value)
        {
            var records = new LogRecords();
            using IHost host = TestHosts.Build(TestHosts.Socket("frontend", "Router").With(key, value), services =>
            {
                services.AddSingleton(new Probe());
                services.AddNetZeroMQ().AddSocketWorker<EchoHandler>("frontend");
            }, records);

            OptionsValidationException e = await Assert.ThrowsAsync<OptionsValidationException>(() => host.StartAsync());

            Assert.Contains(key, e.Message);
            Assert.Equal((0L, 0L), ResourceMetrics.Read());
        }

        [Fact]
        public async Task StartAsync_WorkerOfUnconfiguredSocket_ThrowsNamingTheKey()
        {
            using IHost host = TestHosts.Build(TestHosts.Socket("frontend", "Router"), services =>
            {
                services.AddSingleton(new Probe());
                services.AddNetZeroMQ().AddSocketWorker<EchoHandler>("backend");
            }, new LogRecords());

            OptionsValidationException e = await Assert.ThrowsAsync<OptionsValidationException>(() => host.StartAsync());

            Assert.Contains("NetZeroMQ:Sockets:backend", e.Message);
        }

        [Fact]
        public async Task StartAsync_CurveKeysFromConfiguration_ServerAndClientTalk()
        {
            using CurveKeyPair server = CurveKeyPair.Generate();
            using CurveKeyPair client = CurveKeyPair.Generate();
            var probe = new Probe();
            var records = new LogRecords();
            var configuration = TestHosts.Socket("frontend", "Router")
                .With("NetZeroMQ:Sockets:frontend:CurveSecretKey", server.SecretKeyToZ85())
                .With("NetZeroMQ:Sockets:frontend:CurveClientKeys:0", client.PublicKey.ToZ85());
            using IHost host = TestHosts.Build(configuration, services =>
            {
                services.AddSingleton(probe);
                services.AddNetZeroMQ().AddSocketWorker<EchoHandler>("frontend");
            }, records);
            await host.StartAsync();
            await records.WaitForAsync(103);
            string endpoint = host.Services.GetRequiredService<SocketFactory>().GetPeers("frontend").LastEndpoint;

            using (var context = new Context())
            using (var dealer = new Socket(context, SocketType.Dealer) { Linger = System.TimeSpan.Zero, ReceiveTimeout = TestHosts.Timeout })
            {
                dealer.SetCurveClient(client, server.PublicKey);
                dealer.Connect(endpoint);
                dealer.Send("secret hello");
                Assert.Equal("secret hello", dealer.RecvString());
            }

            Assert.Equal(new[] { "secret hello" }, await probe.NextAsync());
            await host.StopAsync();
        }
    }
}
