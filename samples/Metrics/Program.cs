// NetZeroMQ's meter, read the way dotnet-counters or OpenTelemetry read it: a MeterListener subscribes to the "NetZeroMQ"
// meter, a PUSH sends 1000 frames of 64 bytes to a PULL, and the listener collects the counts. They cost nothing per message:
// each socket keeps plain counters that the instruments add up only when a listener collects.
// To watch a running program instead:  dotnet-counters monitor --counters NetZeroMQ -n <process name>
using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using NetZeroMQ;
// System.Net.Sockets has a Socket and a SocketType too: these aliases keep the file compiling where both are imported.
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

const int Frames = 1000;
const int FrameSize = 64;
var timeout = TimeSpan.FromSeconds(5);

// name{tag=value} -> value, filled each time the listener collects.
var reading = new SortedDictionary<string, long>(StringComparer.Ordinal);
using var listener = new MeterListener();
listener.InstrumentPublished = (instrument, l) =>
{
    if (instrument.Meter.Name == ZmqTelemetry.MeterName)
    {
        l.EnableMeasurementEvents(instrument);
    }
};
listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
{
    string name = instrument.Name;
    for (int i = 0; i < tags.Length; i++)
    {
        name += "{" + tags[i].Key + "=" + tags[i].Value + "}";
    }

    reading[name] = value;
});
listener.Start();

using (var context = new Context())
{
    using var push = new Socket(context, SocketType.Push) { SendTimeout = timeout };
    using var pull = new Socket(context, SocketType.Pull) { ReceiveTimeout = timeout };
    push.Bind("inproc://metrics");
    pull.Connect("inproc://metrics");

    byte[] frame = new byte[FrameSize];
    for (int i = 0; i < Frames; i++)
    {
        push.Send(frame);
        pull.Recv(frame);
    }

    pull.TryRecv(frame, out _); // nothing left: counted as a would-block, not as a frame

    listener.RecordObservableInstruments();
    Console.WriteLine("while the sockets are open:");
    Print("netzeromq.contexts", "netzeromq.sockets{netzeromq.socket.type=push}", "netzeromq.sockets{netzeromq.socket.type=pull}",
        "netzeromq.messages.sent{netzeromq.socket.type=push}", "netzeromq.bytes.sent{netzeromq.socket.type=push}",
        "netzeromq.messages.received{netzeromq.socket.type=pull}", "netzeromq.bytes.received{netzeromq.socket.type=pull}",
        "netzeromq.would_block{netzeromq.socket.type=pull}");
}

// The sockets are closed and the context terminated; what they moved stays in the totals.
listener.RecordObservableInstruments();
Console.WriteLine("after Dispose:");
Print("netzeromq.contexts", "netzeromq.sockets{netzeromq.socket.type=push}", "netzeromq.messages.sent{netzeromq.socket.type=push}");

Expect("netzeromq.messages.sent{netzeromq.socket.type=push}", Frames);
Expect("netzeromq.bytes.received{netzeromq.socket.type=pull}", Frames * FrameSize);
Expect("netzeromq.sockets{netzeromq.socket.type=push}", 0);
Console.WriteLine("the counts match what was sent and received");

void Print(params string[] names)
{
    foreach (string name in names)
    {
        Console.WriteLine($"  {name,-58} {reading[name],8}");
    }
}

void Expect(string name, long expected)
{
    if (reading[name] != expected)
    {
        throw new InvalidOperationException($"{name} is {reading[name]}, expected {expected}");
    }
}
