// Monitor: the connection events libzmq reports for a socket (listening, accepted, handshake, disconnected, closed), read
// from a SocketMonitor. Every receive has a timeout.
using System;
using NetZeroMQ;
// System.Net.Sockets has a Socket and a SocketType too: these aliases keep the file compiling where both are imported.
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

using var context = new Context();
using var server = new Socket(context, SocketType.Rep);
using SocketMonitor monitor = server.Monitor(); // all events
server.Bind("tcp://127.0.0.1:*");
string endpoint = server.LastEndpoint;

using (var client = new Socket(context, SocketType.Req) { Linger = TimeSpan.Zero })
{
    client.Connect(endpoint);
    client.Send("hello");
    server.ReceiveTimeout = TimeSpan.FromSeconds(5);
    Console.WriteLine($"server got \"{server.RecvString()}\"");
    server.Send("world");
    client.ReceiveTimeout = TimeSpan.FromSeconds(5);
    Console.WriteLine($"client got \"{client.RecvString()}\"");
}

// The client is gone: the server sees the disconnect. Read events until that one (or 5 s pass).
var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(5);
while (DateTime.UtcNow < deadline)
{
    if (!monitor.TryRecv(TimeSpan.FromMilliseconds(200), out MonitorEvent? e))
    {
        continue;
    }

    Console.WriteLine($"event: {e.Kind} on {e.Endpoint}");
    if (e.Kind == MonitorEvents.Disconnected)
    {
        break;
    }
}
