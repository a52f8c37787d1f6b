using System;
using NetZeroMQ;
// System.Net.Sockets has a Socket and a SocketType too: these aliases keep the file compiling where both are imported.
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

using var context = new Context();
using var server = new Socket(context, SocketType.Rep);
server.Bind("tcp://127.0.0.1:*");
using var client = new Socket(context, SocketType.Req);
client.Connect(server.LastEndpoint);

client.Send("ping");
Console.WriteLine(server.RecvString()); // ping
server.Send("pong");
Console.WriteLine(client.RecvString()); // pong
