// Sends and receives COUNT frames of SIZE bytes over inproc on one thread, by the span path or the Message path; measure.sh
// runs it under callgrind at two counts and divides the difference of the instruction counts by the difference of the
// counts, which leaves the cost of one message (send plus receive) without the start-up. SIZE (default 64) is read from the
// command line so that the compiler cannot treat the frame's length as a constant, as it could for a literal once the
// library's hot path is inlined into this loop (it would unroll the copy of a Message's content, which a real caller with
// frames of varying size does not get).
//   Instructions span|message COUNT [SIZE]
using System;
using System.Runtime.CompilerServices;
using NetZeroMQ;
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

int size = 64;
if (args.Length < 2 || args.Length > 3 || (args[0] != "span" && args[0] != "message") || !int.TryParse(args[1], out int count) || count < 1
    || (args.Length == 3 && (!int.TryParse(args[2], out size) || size < 0 || size > 128)))
{
    Console.Error.WriteLine("usage: Instructions span|message COUNT [SIZE, 0 to 128]");
    return 2;
}

using var context = new Context();
using var push = new Socket(context, SocketType.Push) { SendTimeout = TimeSpan.FromSeconds(10) };
using var pull = new Socket(context, SocketType.Pull) { ReceiveTimeout = TimeSpan.FromSeconds(10) };
pull.Bind("inproc://instructions");
push.Connect("inproc://instructions");

byte[] payload = new byte[size];
long bytes = args[0] == "span" ? SpanLoop(push, pull, payload, count) : MessageLoop(push, pull, payload, count);
if (bytes != (long)size * count)
{
    Console.Error.WriteLine("received " + bytes + " bytes, expected " + (long)size * count);
    return 1;
}

return 0;

// Each loop in a method of its own, so that what the library inlines into one does not change the code of the other.
[MethodImpl(MethodImplOptions.NoInlining)]
static long SpanLoop(Socket push, Socket pull, byte[] payload, int count)
{
    byte[] buffer = new byte[128];
    long bytes = 0;
    for (int i = 0; i < count; i++)
    {
        push.Send(payload);
        bytes += pull.Recv(buffer).MessageSize;
    }

    return bytes;
}

[MethodImpl(MethodImplOptions.NoInlining)]
static long MessageLoop(Socket push, Socket pull, byte[] payload, int count)
{
    using var outgoing = new Message();
    using var incoming = new Message();
    long bytes = 0;
    for (int i = 0; i < count; i++)
    {
        outgoing.Rebuild(payload);
        push.Send(outgoing);
        pull.Recv(incoming);
        bytes += incoming.Size;
    }

    return bytes;
}
