// CURVE with client authentication: a server that admits one client key, a client with that key that gets an answer, and
// a client with an unknown key that is turned away (the server's monitor shows why). Every wait has a timeout; ends by itself.
using System;
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
authenticator.Decided += (_, e) => Console.WriteLine("authenticator: " + e);

using var server = new Socket(context, SocketType.Rep);
server.SetCurveServer(serverKeys);              // fails closed: without the authenticator nobody gets in
server.MaxMessageSize = 64 * 1024;              // a public endpoint limits what a peer may send
server.ReceiveTimeout = TimeSpan.FromSeconds(5);
using SocketMonitor monitor = server.Monitor(MonitorEvents.HandshakeSucceeded | MonitorEvents.HandshakeFailed);
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

Console.WriteLine("monitor: " + monitor.Recv(TimeSpan.FromSeconds(5)));

// The unknown client is rejected during the handshake: its message never reaches the server.
using (var unknown = new Socket(context, SocketType.Req))
{
    unknown.Linger = TimeSpan.Zero;
    unknown.SetCurveClient(unknownKeys, serverKeys.PublicKey);
    unknown.Connect(endpoint);
    unknown.Send("let me in");
    MonitorEvent rejected = monitor.Recv(TimeSpan.FromSeconds(5));
    Console.WriteLine("monitor: " + rejected);
    server.ReceiveTimeout = TimeSpan.FromMilliseconds(200);
    bool leaked = server.TryRecvString(out _);
    Console.WriteLine("unknown client rejected: " + (rejected.Kind == MonitorEvents.HandshakeFailedAuth && rejected.ZapStatusCode == 400 && !leaked));
    if (rejected.Kind != MonitorEvents.HandshakeFailedAuth || leaked)
    {
        return 1;
    }
}

return 0;
