using System.Linq;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using NetZeroMQ.Hosting.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Hosting.Tests
{
    public class LoggingTests
    {
        [Fact]
        public async Task Worker_BindsWildcardPort_LogsTheChosenPortWithEventId3()
        {
            var records = new LogRecords();
            using IHost host = TestHosts.Build(TestHosts.Socket("frontend", "Router"), services =>
            {
                services.AddSingleton(new Probe());
                services.AddNetZeroMQ().AddSocketWorker<EchoHandler>("frontend");
            }, records);
            await host.StartAsync();
            await records.WaitForAsync(103);
            string endpoint = host.Services.GetRequiredService<SocketFactory>().GetPeers("frontend").LastEndpoint;

            LogRecords.LogRecord bound = await records.WaitForAsync(3, r => r.Message.EndsWith(endpoint));
            Assert.Equal("NetZeroMQ", bound.Category);
            Assert.Equal(LogLevel.Information, bound.Level);
            Assert.Equal("SocketBound", bound.EventId.Name);
            Assert.DoesNotContain(":*", bound.Message);
            Assert.Contains(records.WithId(1), r => r.Message.Contains("(router) opened"));

            await host.StopAsync();
            Assert.Contains(records.WithId(2), r => r.Message.Contains("(router) closed"));
            Assert.Contains(records.WithId(104), r => r.Category == "NetZeroMQ.Hosting");
        }

        [Fact]
        public async Task Worker_PeerFailsCurveHandshake_LogsHandshakeFailedWithEventId5()
        {
            using CurveKeyPair server = CurveKeyPair.Generate();
            using CurveKeyPair client = CurveKeyPair.Generate();
            using CurveKeyPair wrong = CurveKeyPair.Generate();
            var records = new LogRecords();
            using IHost host = TestHosts.Build(
                TestHosts.Socket("frontend", "Router")
                    .With("NetZeroMQ:Sockets:frontend:CurveSecretKey", server.SecretKeyToZ85())
                    .With("NetZeroMQ:Sockets:frontend:CurveClientKeys:0", client.PublicKey.ToZ85()), services =>
                {
                    services.AddSingleton(new Probe());
                    services.AddNetZeroMQ().AddSocketWorker<EchoHandler>("frontend");
                }, records);
            await host.StartAsync();
            await records.WaitForAsync(103);
            string endpoint = host.Services.GetRequiredService<SocketFactory>().GetPeers("frontend").LastEndpoint;

            using (var context = new Context())
            using (var dealer = new Socket(context, SocketType.Dealer) { Linger = System.TimeSpan.Zero })
            {
                // The client expects another server key: the server cannot decrypt its HELLO and the handshake fails.
                dealer.SetCurveClient(client, wrong.PublicKey);
                dealer.Connect(endpoint);
                LogRecords.LogRecord failed = await records.WaitForAsync(5);
                Assert.Equal(LogLevel.Warning, failed.Level);
                Assert.Equal("HandshakeFailed", failed.EventId.Name);
            }

            using (var context = new Context())
            using (var dealer = new Socket(context, SocketType.Dealer) { Linger = System.TimeSpan.Zero })
            {
                // The right server key but a client key the configuration does not admit: the ZAP authenticator denies it.
                dealer.SetCurveClient(wrong, server.PublicKey);
                dealer.Connect(endpoint);
                LogRecords.LogRecord denied = await records.WaitForAsync(6);
                Assert.Equal(LogLevel.Warning, denied.Level);
                Assert.Contains("CURVE", denied.Message);
                Assert.Contains("domain 'frontend'", denied.Message);
            }

            Assert.Equal(0, host.Services.GetRequiredService<SocketFactory>().GetPeers("frontend").Count);
            await host.StopAsync();
        }
    }
}
