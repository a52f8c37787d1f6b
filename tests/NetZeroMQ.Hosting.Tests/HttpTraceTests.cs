using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using NetZeroMQ.Hosting.Tests.TestUtilities;
using OpenTelemetry.Trace;
using Xunit;

namespace NetZeroMQ.Hosting.Tests
{
    public class HttpTraceTests
    {
        [Fact]
        public async Task HttpRequest_ForwardedOverZeroMQToWorker_OneTraceIdFromServerSpanToHandler()
        {
            var spans = new List<Activity>();
            var probe = new Probe();
            var records = new LogRecords();
            WebApplicationBuilder builder = WebApplication.CreateBuilder();
            builder.WebHost.UseUrls("http://127.0.0.1:0");
            builder.Configuration.AddInMemoryCollection(
                TestHosts.Socket("frontend", "Router").With("NetZeroMQ:Sockets:frontend:TraceContext", "true"));
            builder.Logging.ClearProviders().AddProvider(records);
            builder.Services.AddSingleton(probe);
            builder.Services.AddSingleton<Forwarder>();
            builder.Services.AddNetZeroMQ().AddSocketWorker<EchoHandler>("frontend");
            builder.Services.AddOpenTelemetry().WithTracing(tracing => tracing
                .AddSource("Microsoft.AspNetCore", ZmqTracing.ActivitySourceName)
                .AddInMemoryExporter(spans));
            await using WebApplication app = builder.Build();
            app.MapGet("/echo/{text}", (string text, Forwarder forwarder, CancellationToken token) => forwarder.ForwardAsync(text, token));
            await app.StartAsync();
            await records.WaitForAsync(103);

            using var http = new HttpClient { BaseAddress = new Uri(app.Urls.Single()), Timeout = TestHosts.Timeout };
            string reply = await http.GetStringAsync("/echo/hello");

            Assert.Equal("hello", reply);
            Activity server = await WaitForSpanAsync(spans, ActivityKind.Server);
            Activity producer = Assert.Single(Snapshot(spans), s => s.Kind == ActivityKind.Producer);
            Activity consumer = Assert.Single(Snapshot(spans), s => s.Kind == ActivityKind.Consumer);
            Assert.Equal(server.TraceId, producer.TraceId);
            Assert.Equal(server.SpanId, producer.ParentSpanId);
            Assert.Equal(producer.TraceId, consumer.TraceId);
            Assert.Equal(producer.SpanId, consumer.ParentSpanId);
            Assert.True(probe.Traces.TryDequeue(out var handled));
            Assert.Equal(server.TraceId, handled.TraceId);
            Assert.Equal(producer.TraceId, handled.Parent.TraceId);
            Assert.Equal(producer.SpanId, handled.Parent.SpanId);
            Assert.Equal(ActivityTraceFlags.Recorded, handled.Parent.TraceFlags);

            string endpoint = app.Services.GetRequiredService<SocketFactory>().GetPeers("frontend").LastEndpoint;
            Assert.Equal("send " + endpoint, producer.DisplayName);
            Assert.Equal("process " + endpoint, consumer.DisplayName);
            foreach ((Activity span, string operation) in new[] { (producer, "send"), (consumer, "process") })
            {
                Assert.Equal("zeromq", span.GetTagItem("messaging.system"));
                Assert.Equal(operation, span.GetTagItem("messaging.operation.name"));
                Assert.Equal(endpoint, span.GetTagItem("messaging.destination.name"));
            }

            await app.StopAsync();
        }

        private static Activity[] Snapshot(List<Activity> spans)
        {
            lock (spans)
            {
                return spans.ToArray();
            }
        }

        private static async Task<Activity> WaitForSpanAsync(List<Activity> spans, ActivityKind kind)
        {
            // The server span ends just after the response is written: it may be exported a moment after the client read it.
            DateTime end = DateTime.UtcNow + TestHosts.Timeout;
            while (DateTime.UtcNow < end)
            {
                if (Snapshot(spans).FirstOrDefault(s => s.Kind == kind) is { } span)
                {
                    return span;
                }

                await Task.Delay(20);
            }

            throw new TimeoutException("No " + kind + " span was exported.");
        }

        /// <summary>One DEALER to the worker's ROUTER, one request at a time (a socket is not thread-safe).</summary>
        private sealed class Forwarder : IDisposable
        {
            private readonly SocketFactory _factory;
            private readonly SemaphoreSlim _gate = new SemaphoreSlim(1, 1);
            private Socket? _dealer;

            public Forwarder(SocketFactory factory) => _factory = factory;

            public async Task<string> ForwardAsync(string text, CancellationToken cancellationToken)
            {
                await _gate.WaitAsync(cancellationToken);
                try
                {
                    if (_dealer is null)
                    {
                        _dealer = new Socket(_factory.Context, SocketType.Dealer);
                        _dealer.Connect(_factory.GetPeers("frontend").LastEndpoint);
                    }

                    using var request = new MultipartMessage();
                    request.Add(text);
                    await _dealer.SendTracedAsync(request, cancellationToken: cancellationToken);
                    using var reply = new MultipartMessage();
                    await _dealer.RecvMultipartAsync(reply, cancellationToken);
                    return reply[0].GetString();
                }
                finally
                {
                    _gate.Release();
                }
            }

            public void Dispose()
            {
                _dealer?.Dispose();
                _gate.Dispose();
            }
        }
    }
}
