// Multipart: a message of several frames sent and received as one (all frames arrive, or none), an envelope with an empty
// delimiter frame, and the rule that frames are checked before the first one is sent.
using System;
using NetZeroMQ;
// System.Net.Sockets has a Socket and a SocketType too: these aliases keep the file compiling where both are imported.
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

using var context = new Context();
using var pull = new Socket(context, SocketType.Pull) { ReceiveTimeout = TimeSpan.FromSeconds(5) };
pull.Bind("inproc://multipart");
using var push = new Socket(context, SocketType.Push) { SendTimeout = TimeSpan.FromSeconds(5) };
push.Connect("inproc://multipart");

// 1. Build and send a three-frame message; the MultipartMessage is left empty (its frames were handed to libzmq).
using (var outgoing = new MultipartMessage())
{
    outgoing.Add("header");
    outgoing.Add(Array.Empty<byte>()); // an empty delimiter frame, as in REQ/ROUTER envelopes
    outgoing.Add(new byte[] { 1, 2, 3, 4 });
    push.SendMultipart(outgoing);
    Console.WriteLine($"sent 3 frames; the message now holds {outgoing.Count}");
}

// 2. Receive it into a reusable MultipartMessage.
using var incoming = new MultipartMessage();
pull.RecvMultipart(incoming);
Console.WriteLine($"received {incoming.Count} frames: \"{incoming[0].GetString()}\", {incoming[1].Size} bytes, [{string.Join(", ", incoming[2].ToArray())}]");

// 3. Strings and arrays as frames, in one call.
push.SendMultipart("topic", "body");
byte[][] frames = pull.RecvMultipartBytes();
Console.WriteLine($"received {frames.Length} frames from SendMultipart(params string[])");

// 4. Every frame is checked before the first is sent: a null frame fails the call and nothing reaches the peer.
try
{
    push.SendMultipart(new byte[][] { new byte[] { 1 }, null! });
}
catch (ArgumentException e)
{
    Console.WriteLine($"rejected before sending: {e.GetType().Name}");
}

Console.WriteLine(pull.TryRecvMultipart(incoming) ? "unexpected: something arrived" : "nothing arrived, as promised");
