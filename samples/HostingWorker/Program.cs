// A Worker Service serving a ROUTER with NetZeroMQ.Hosting: the socket comes from appsettings.json ("NetZeroMQ" section),
// UppercaseHandler answers each request. So that the sample ends by itself, a demo client then sends three requests, the
// health check is printed, and the host stops (in production: host.Run() and SIGTERM or Ctrl+C).
using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using NetZeroMQ;
using NetZeroMQ.Hosting;
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

// The content root is the program's own folder, so that appsettings.json is found wherever the program is started from
// (the default, the current directory, misses it when a published binary is run from elsewhere, as ./build.sh aot does).
HostApplicationBuilder builder = Host.CreateApplicationBuilder(
    new HostApplicationBuilderSettings { Args = args, ContentRootPath = AppContext.BaseDirectory });
builder.Services.AddNetZeroMQ().AddSocketWorker<UppercaseHandler>("frontend");
builder.Services.AddHealthChecks().AddNetZeroMQ();
using IHost host = builder.Build();
await host.StartAsync();

// The demo client: a DEALER in a context of its own, as another process would have.
SocketPeers peers = host.Services.GetRequiredService<SocketFactory>().GetPeers("frontend");
bool ok = true;
using (var context = new Context())
using (var client = new Socket(context, SocketType.Dealer) { ReceiveTimeout = TimeSpan.FromSeconds(10) })
{
    client.Connect(peers.LastEndpoint);
    foreach (string request in new[] { "hello", "zeromq", "generic host" })
    {
        client.Send(request);
        string reply = client.RecvString();
        Console.WriteLine(request + " -> " + reply);
        ok &= reply == request.ToUpperInvariant();
    }

    await peers.WaitForPeerAsync(TimeSpan.FromSeconds(10));
    HealthReport health = await host.Services.GetRequiredService<HealthCheckService>().CheckHealthAsync();
    Console.WriteLine("health: " + health.Status + ", peers of frontend: " + peers.Count);
    ok &= health.Status == HealthStatus.Healthy && peers.Count == 1;
}

var stopwatch = Stopwatch.StartNew();
await host.StopAsync();
Console.WriteLine("stopped in " + stopwatch.ElapsedMilliseconds + " ms");
return ok ? 0 : 1;

/// <summary>Replies to each request with its text in upper case (a ROUTER message: routing id, then the request).</summary>
internal sealed class UppercaseHandler : ISocketHandler
{
    public async ValueTask HandleAsync(SocketMessage message, CancellationToken stoppingToken)
    {
        using var reply = new MultipartMessage();
        reply.Add(message.Frames[0].ToArray());
        reply.Add(message.Frames[^1].GetString().ToUpperInvariant());
        await message.Socket.SendMultipartAsync(reply, stoppingToken);
    }
}
