// Sends and receives COUNT frames of SIZE bytes over inproc on one thread, by the span path or the Message path; measure.sh
// runs it under callgrind at two counts and divides the difference of the instruction counts by the difference of the
// counts, which leaves the cost of one message (send plus receive) without the start-up. SIZE (default 64) is read from the
// command line so that the compiler cannot treat the frame's length as a constant, as it could for a literal once the
// library's hot path is inlined into this loop (it would unroll the copy of a Message's content, which a real caller with
// frames of varying size does not get).
// The draft modes (a libzmq with the draft API, NETZEROMQ_LIBZMQ) run the same loops on the thread-safe draft sockets:
// clientserver-span and clientserver (the Message path) from CLIENT to SERVER, radiodish from RADIO to DISH (the Message
// path with the group set on every message, as a RADIO needs).
// The traced modes measure NetZeroMQ.Hosting's traced send with no listener on its activity source against the send it wraps:
// traced sends a one-frame MultipartMessage with SendTracedAsync, untraced the same message with SendMultipartAsync, both
// received with RecvMultipart (PUSH to PULL); the difference of the two counts is what tracing costs a message when nobody
// listens (the case of docs/performance.md's --alloc-test rows, which show it allocates nothing).
//   Instructions span|message|clientserver-span|clientserver|radiodish|traced|untraced COUNT [SIZE]
using System;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;
using NetZeroMQ;
using NetZeroMQ.Draft;
using NetZeroMQ.Hosting;
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

string[] modes = { "span", "message", "clientserver-span", "clientserver", "radiodish", "traced", "untraced" };
int size = 64;
if (args.Length < 2 || args.Length > 3 || Array.IndexOf(modes, args[0]) < 0 || !int.TryParse(args[1], out int count) || count < 1
    || (args.Length == 3 && (!int.TryParse(args[2], out size) || size < 0 || size > 128)))
{
    Console.Error.WriteLine("usage: Instructions " + string.Join('|', modes) + " COUNT [SIZE, 0 to 128]");
    return 2;
}

// The group the RADIO sends to and the DISH joins.
const string Group = "g";
string mode = args[0];
bool draft = mode is "clientserver-span" or "clientserver" or "radiodish";
if (draft && !DraftApi.IsAvailable)
{
    Console.Error.WriteLine("the " + mode + " mode needs a libzmq with the draft API (NETZEROMQ_LIBZMQ)");
    return 3;
}

using var context = new Context();
using Socket sender = draft
    ? DraftSockets.Create(context, mode == "radiodish" ? DraftSocketType.Radio : DraftSocketType.Client)
    : new Socket(context, SocketType.Push);
using Socket receiver = draft
    ? DraftSockets.Create(context, mode == "radiodish" ? DraftSocketType.Dish : DraftSocketType.Server)
    : new Socket(context, SocketType.Pull);
sender.SendTimeout = TimeSpan.FromSeconds(10);
receiver.ReceiveTimeout = TimeSpan.FromSeconds(10);
receiver.Bind("inproc://instructions");
if (mode == "radiodish")
{
    // A RADIO drops at the high-water mark like PUB unless XPUB_NODROP; one that only learns of the DISH's reads now and
    // then would drop messages of this loop.
    receiver.Join(Group);
    sender.SetOption(SocketOptions.XPubNoDrop, true);
}

sender.Connect("inproc://instructions");
if (mode == "radiodish")
{
    // The DISH's join reaches the RADIO through the pipe: until it has, the RADIO drops what it sends to the group.
    WaitForJoin(sender, receiver);
}

byte[] payload = new byte[size];
long bytes = mode switch
{
    "span" or "clientserver-span" => SpanLoop(sender, receiver, payload, count),
    "radiodish" => GroupLoop(sender, receiver, payload, count),
    "traced" => MultipartLoop(sender, receiver, payload, count, traced: true),
    "untraced" => MultipartLoop(sender, receiver, payload, count, traced: false),
    _ => MessageLoop(sender, receiver, payload, count),
};
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

[MethodImpl(MethodImplOptions.NoInlining)]
static long GroupLoop(Socket radio, Socket dish, byte[] payload, int count)
{
    using var outgoing = new Message();
    using var incoming = new Message();
    long bytes = 0;
    for (int i = 0; i < count; i++)
    {
        outgoing.Rebuild(payload);
        outgoing.SetGroup(Group);
        radio.Send(outgoing);
        dish.Recv(incoming);
        bytes += incoming.Size;
    }

    return bytes;
}

// One traced (or untraced) send of a one-frame multipart message and its receive. Both modes run this one method, so that
// they differ only in the send called; traced is a parameter, not a constant, and the method is not inlined, so the compiler
// cannot drop the branch. Nothing subscribes to the NetZeroMQ activity source, so the traced send finds no listener.
[MethodImpl(MethodImplOptions.NoInlining)]
static long MultipartLoop(Socket push, Socket pull, byte[] payload, int count, bool traced)
{
    using var outgoing = new MultipartMessage();
    using var incoming = new MultipartMessage();
    long bytes = 0;
    for (int i = 0; i < count; i++)
    {
        outgoing.Add(payload);
        ValueTask send = traced ? push.SendTracedAsync(outgoing) : push.SendMultipartAsync(outgoing);
        // Below the high-water mark a send completes at once; taking the result finishes it (and would wait if it had not).
        send.GetAwaiter().GetResult();
        pull.RecvMultipart(incoming);
        if (incoming.Count != 1)
        {
            throw new InvalidOperationException("received " + incoming.Count + " frames, expected 1 (a trace frame was added)");
        }

        bytes += incoming[0].Size;
    }

    return bytes;
}

static void WaitForJoin(Socket radio, Socket dish)
{
    using var probe = new Message();
    for (int attempt = 0; attempt < 10_000; attempt++)
    {
        probe.Rebuild(ReadOnlySpan<byte>.Empty);
        probe.SetGroup(Group);
        radio.Send(probe);
        if (dish.TryRecv(probe, TimeSpan.FromMilliseconds(1)))
        {
            return;
        }
    }

    throw new InvalidOperationException("the DISH's join never reached the RADIO");
}
