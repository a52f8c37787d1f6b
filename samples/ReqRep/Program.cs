// Request/reply: a REP server on its own thread answers three requests from a REQ client.
// Every blocking call has a timeout, so the program ends by itself even if something goes wrong.
using System;
using System.Threading;
using NetZeroMQ;
// System.Net.Sockets has a Socket and a SocketType too: these aliases keep the file compiling where both are imported.
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

var timeout = TimeSpan.FromSeconds(5);
const int Requests = 3;

using var context = new Context();
using var server = new Socket(context, SocketType.Rep) { ReceiveTimeout = timeout, SendTimeout = timeout };
server.Bind("tcp://127.0.0.1:*"); // port 0: the system picks a free port; LastEndpoint tells which
string endpoint = server.LastEndpoint;

var serverThread = new Thread(() =>
{
    // A socket is used by one thread at a time: from here on only this thread touches `server`.
    for (int i = 0; i < Requests; i++)
    {
        string request = server.RecvString();
        server.Send(request.ToUpperInvariant());
    }
});
serverThread.Start();

using var client = new Socket(context, SocketType.Req) { ReceiveTimeout = timeout, SendTimeout = timeout };
client.Connect(endpoint);
foreach (string word in new[] { "hello", "request", "reply" })
{
    client.Send(word);
    Console.WriteLine($"{word} -> {client.RecvString()}");
}

if (!serverThread.Join(timeout))
{
    throw new TimeoutException("the server thread did not end");
}

Console.WriteLine($"{Requests} round trips over {endpoint.Substring(0, endpoint.LastIndexOf(':'))}:<port>");
