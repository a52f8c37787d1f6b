// An ASP.NET Core minimal API that forwards each HTTP request over ZeroMQ to a worker and returns its reply, traced with
// OpenTelemetry: one trace goes from the HTTP request (server span) through the ZeroMQ hop (producer span, trace context in
// a trailing frame) to the worker's handler (consumer span). The worker (a ROUTER, as in the HostingWorker sample) runs in
// this process so that the sample is self-contained; across processes nothing changes but the endpoint. The spans go to
// the in-memory exporter and are printed; the sample sends two requests to itself and stops.
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
using NetZeroMQ;
using NetZeroMQ.Hosting;
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;
using OpenTelemetry.Trace;

var spans = new List<Activity>();
WebApplicationBuilder builder = WebApplication.CreateBuilder(args);
builder.WebHost.UseUrls("http://127.0.0.1:0");
builder.Logging.SetMinimumLevel(LogLevel.Warning);
builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
{
    ["NetZeroMQ:Sockets:worker:Type"] = "Router",
    ["NetZeroMQ:Sockets:worker:Bind:0"] = "tcp://127.0.0.1:*",
    ["NetZeroMQ:Sockets:worker:TraceContext"] = "true",
});
builder.Services.AddNetZeroMQ().AddSocketWorker<ReverseHandler>("worker");
builder.Services.AddSingleton<Forwarder>();
builder.Services.AddOpenTelemetry().WithTracing(tracing => tracing
    .AddSource("Microsoft.AspNetCore", ZmqTracing.ActivitySourceName)
    .AddInMemoryExporter(spans));

await using WebApplication app = builder.Build();
app.MapGet("/reverse/{text}", (string text, Forwarder forwarder, CancellationToken token) => forwarder.ForwardAsync(text, token));
await app.StartAsync();

bool ok = true;
using (var http = new HttpClient { BaseAddress = new Uri(app.Urls.First()), Timeout = TimeSpan.FromSeconds(10) })
{
    foreach (string text in new[] { "hello", "trace" })
    {
        string reply = await http.GetStringAsync("/reverse/" + text);
        Console.WriteLine("GET /reverse/" + text + " -> " + reply);
        ok &= reply == new string(text.Reverse().ToArray());
    }
}

await app.StopAsync();
Activity[] all;
lock (spans)
{
    all = spans.ToArray();
}

// One trace per request: the server span, the producer span and the worker's consumer span share its trace id.
foreach (IGrouping<ActivityTraceId, Activity> trace in all.GroupBy(s => s.TraceId))
{
    Console.WriteLine("trace " + trace.Key);
    foreach (Activity span in trace.OrderBy(s => s.StartTimeUtc))
    {
        Console.WriteLine("  " + span.Kind.ToString().PadRight(8) + " " + span.DisplayName + "  (span " + span.SpanId + ", parent " + span.ParentSpanId + ")");
    }

    ok &= trace.Select(s => s.Kind).OrderBy(k => k).SequenceEqual(new[] { ActivityKind.Server, ActivityKind.Producer, ActivityKind.Consumer }.OrderBy(k => k));
}

ok &= all.GroupBy(s => s.TraceId).Count() == 2;
Console.WriteLine(ok ? "one trace per request, from HTTP through ZeroMQ to the handler" : "FAILED: the spans do not form one trace per request");
return ok ? 0 : 1;

/// <summary>The worker's handler: replies with the text reversed.</summary>
internal sealed class ReverseHandler : ISocketHandler
{
    public async ValueTask HandleAsync(SocketMessage message, CancellationToken stoppingToken)
    {
        char[] text = message.Frames[^1].GetString().ToCharArray();
        Array.Reverse(text);
        using var reply = new MultipartMessage();
        reply.Add(message.Frames[0].ToArray());
        reply.Add(new string(text));
        await message.Socket.SendMultipartAsync(reply, stoppingToken);
    }
}

/// <summary>The HTTP side's client: one DEALER to the worker, one request at a time (a ZeroMQ socket is not thread-safe).</summary>
internal sealed class Forwarder : IDisposable
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
                _dealer.Connect(_factory.GetPeers("worker").LastEndpoint);
            }

            using var request = new MultipartMessage();
            request.Add(text);
            // The producer span, and the trace context appended as the message's last frame.
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
