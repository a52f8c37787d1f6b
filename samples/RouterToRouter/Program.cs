// ROUTER to ROUTER: both ends address each other by routing id, with no REQ/REP lock-step. Every message is two frames
// here: the peer's routing id, then the payload. A ROUTER that receives gets the sender's routing id as the first frame.
// With RouterMandatory, sending to a peer that is not connected yet fails with HostUnreachable instead of being dropped
// silently, which is how the client knows when the connection is ready.
using System;
using System.Diagnostics;
using System.Text;
using System.Threading;
using NetZeroMQ;
// System.Net.Sockets has a Socket and a SocketType too: these aliases keep the file compiling where both are imported.
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

var timeout = TimeSpan.FromSeconds(5);

using var context = new Context();
using var server = new Socket(context, SocketType.Router) { ReceiveTimeout = timeout, SendTimeout = timeout };
server.RoutingId = Encoding.UTF8.GetBytes("server"); // the bound side needs a known id: the connecting side addresses it by name
server.SetOption(SocketOptions.RouterMandatory, true);
server.Bind("tcp://127.0.0.1:*");

using var client = new Socket(context, SocketType.Router) { ReceiveTimeout = timeout, SendTimeout = timeout };
client.RoutingId = Encoding.UTF8.GetBytes("client-1");
client.SetOption(SocketOptions.RouterMandatory, true);
client.Connect(server.LastEndpoint);

// The TCP connection and handshake happen in the background; until they finish, "server" is unknown to the client.
var clock = Stopwatch.StartNew();
int attempts = 1;
while (!TrySendTo(client, "server", "hello from client-1"))
{
    if (clock.Elapsed > timeout)
    {
        throw new TimeoutException("the server never became reachable");
    }

    attempts++;
    Thread.Sleep(10);
}

Console.WriteLine($"client: sent after {attempts} attempt(s)");

for (int i = 1; i <= 3; i++)
{
    // Server: receive [sender id][payload], answer to that id.
    string from = server.RecvString();
    string request = server.RecvString();
    Console.WriteLine($"server: got \"{request}\" from {from}");
    server.Send(from, SendFlags.SendMore);
    server.Send($"reply {i} to {from}");

    // Client: receive [sender id][payload].
    string replyFrom = client.RecvString();
    Console.WriteLine($"client: got \"{client.RecvString()}\" from {replyFrom}");
    if (i < 3)
    {
        client.Send("server", SendFlags.SendMore);
        client.Send($"request {i + 1}");
    }
}

static bool TrySendTo(Socket router, string peer, string payload)
{
    try
    {
        router.Send(peer, SendFlags.SendMore);
    }
    catch (ZmqException e) when (e.Error == ZmqError.HostUnreachable)
    {
        return false; // nothing was queued: the routing id frame is rejected before any part of the message is taken
    }

    router.Send(payload);
    return true;
}
