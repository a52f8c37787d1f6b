// Sends and receives COUNT frames of SIZE bytes over inproc on one thread, by the span path or the Message path; measure.sh
// runs it under callgrind at two counts and divides the difference of the instruction counts by the difference of the
// counts, which leaves the cost of one message (send plus receive) without the start-up. SIZE (default 64) is read from the
// command line so that the compiler cannot treat the frame's length as a constant, as it could for a literal once the
// library's hot path is inlined into this loop (it would unroll the copy of a Message's content, which a real caller with
// frames of varying size does not get).
// The draft modes (a libzmq with the draft API, NETZEROMQ_LIBZMQ) run the same loops on the thread-safe draft sockets:
// clientserver-span and clientserver (the Message path) from CLIENT to SERVER, radiodish from RADIO to DISH (the Message
// path with the group set on every message, as a RADIO needs).
//   Instructions span|message|clientserver-span|clientserver|radiodish COUNT [SIZE]
using System;
using System.Runtime.CompilerServices;
using NetZeroMQ;
using NetZeroMQ.Draft;
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

string[] modes = { "span", "message", "clientserver-span", "clientserver", "radiodish" };
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
