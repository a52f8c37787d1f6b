// CURVE with client authentication: a server that admits one client key, a client with that key that gets an answer, and
// a client with an unknown key that is turned away (the server's monitor shows why). Every wait has a timeout; ends by itself.
using System;
using System.Threading;
using NetZeroMQ;
// System.Net.Sockets has a Socket and a SocketType too: these aliases keep the file compiling where both are imported.
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

using var context = new Context();

// Keys: in real use each side generates its pair once and shares only the public key.
using CurveKeyPair serverKeys = CurveKeyPair.Generate();
using CurveKeyPair goodKeys = CurveKeyPair.Generate();
using CurveKeyPair unknownKeys = CurveKeyPair.Generate();

// The authenticator answers libzmq's ZAP requests for this context. It denies everything until told otherwise.
using var authenticator = new ZapAuthenticator(context);
authenticator.AllowCurveKey(goodKeys.PublicKey, userId: "good-client");
using var denied = new ManualResetEventSlim();
authenticator.Decided += (_, e) =>
{
    Console.WriteLine("authenticator: " + e);
    if (!e.Decision.IsAllowed)
    {
        denied.Set();
    }
};

using var server = new Socket(context, SocketType.Rep);
server.SetCurveServer(serverKeys);              // fails closed: without the authenticator nobody gets in
server.MaxMessageSize = 64 * 1024;              // a public endpoint limits what a peer may send
server.ReceiveTimeout = TimeSpan.FromSeconds(5);

// The server's handshakes, as its monitor reports them. libzmq 4.3 and later send every handshake event; a 4.2 release build
// never sends the one of a handshake that succeeded (before 4.2.3, none), and Monitor refuses events the loaded libzmq never
// sends rather than wait for them forever: there the sample says so and shows what that libzmq does send.
using SocketMonitor? monitor = TryMonitor(MonitorEvents.HandshakeSucceeded | MonitorEvents.HandshakeFailed)
    ?? TryMonitor(MonitorEvents.HandshakeFailed);
bool monitorSeesSuccess = monitor is not null && monitor.Events.HasFlag(MonitorEvents.HandshakeSucceeded);
if (!monitorSeesSuccess)
{
    Console.WriteLine(
        $"monitor: libzmq {Libzmq.Version} does not send " +
        (monitor is null ? "handshake events" : "the event of a handshake that succeeded") +
        " (libzmq 4.3 and later do): the authenticator's decisions below show " + (monitor is null ? "them" : "it"));
}

server.Bind("tcp://127.0.0.1:*");
string endpoint = server.LastEndpoint;
Console.WriteLine("server public key: " + serverKeys.PublicKey);

// The good client round-trips.
using (var good = new Socket(context, SocketType.Req))
{
    good.ReceiveTimeout = TimeSpan.FromSeconds(5);
    good.SetCurveClient(goodKeys, serverKeys.PublicKey);
    good.Connect(endpoint);
    good.Send("hello");
    using var request = new Message();
    server.Recv(request);
    Console.WriteLine("server received '" + request.GetString() + "' from user " + request.UserId);
    server.Send("welcome");
    Console.WriteLine("good client got '" + good.RecvString() + "'");
}

if (monitorSeesSuccess)
{
    Console.WriteLine("monitor: " + monitor!.Recv(TimeSpan.FromSeconds(5)));
}

// The unknown client is rejected during the handshake: its message never reaches the server.
using (var unknown = new Socket(context, SocketType.Req))
{
    unknown.Linger = TimeSpan.Zero;
    unknown.SetCurveClient(unknownKeys, serverKeys.PublicKey);
    unknown.Connect(endpoint);
    unknown.Send("let me in");
    bool refused;
    if (monitor is not null)
    {
        MonitorEvent rejected = monitor.Recv(TimeSpan.FromSeconds(5));
        Console.WriteLine("monitor: " + rejected);
        refused = rejected.Kind == MonitorEvents.HandshakeFailedAuth && rejected.ZapStatusCode == 400;
    }
    else
    {
        refused = denied.Wait(TimeSpan.FromSeconds(5));
    }

    server.ReceiveTimeout = TimeSpan.FromMilliseconds(200);
    bool leaked = server.TryRecvString(out _);
    Console.WriteLine("unknown client rejected: " + (refused && !leaked));
    if (!refused || leaked)
    {
        return 1;
    }
}

return 0;

// The server's monitor of these events, or null where the loaded libzmq never sends one of them.
SocketMonitor? TryMonitor(MonitorEvents events)
{
    try
    {
        return server.Monitor(events);
    }
    catch (NotSupportedException)
    {
        return null;
    }
}
