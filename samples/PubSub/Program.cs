// Publish/subscribe with topics: a topic is a prefix of the message, and each subscriber only gets the prefixes it
// subscribed to. The publisher is an XPUB (a PUB that also reports subscriptions), so it can wait until both subscribers
// are listening before it publishes: messages published before a subscription arrives are dropped (the "slow joiner").
using System;
using System.Collections.Generic;
using NetZeroMQ;
// System.Net.Sockets has a Socket and a SocketType too: these aliases keep the file compiling where both are imported.
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

var timeout = TimeSpan.FromSeconds(5);

using var context = new Context();
using var publisher = new Socket(context, SocketType.XPub) { ReceiveTimeout = timeout, SendTimeout = timeout };
publisher.SetOption(SocketOptions.XPubVerbose, true); // report every subscription, not only the first one per topic
publisher.Bind("tcp://127.0.0.1:*");

using var weather = new Socket(context, SocketType.Sub) { ReceiveTimeout = timeout };
weather.Connect(publisher.LastEndpoint);
weather.Subscribe("weather.");

using var everything = new Socket(context, SocketType.Sub) { ReceiveTimeout = timeout };
everything.Connect(publisher.LastEndpoint);
everything.Subscribe("weather.");
everything.Subscribe("news.");

// Each subscription arrives at the XPUB as a message: byte 1 = subscribe, then the topic. Three are expected.
var subscriptions = new List<string>();
while (subscriptions.Count < 3)
{
    byte[] subscription = publisher.RecvBytes(); // throws ZmqException (IsTimeout) after 5 s
    subscriptions.Add(System.Text.Encoding.UTF8.GetString(subscription, 1, subscription.Length - 1));
}

subscriptions.Sort(StringComparer.Ordinal);
Console.WriteLine("subscriptions: " + string.Join(", ", subscriptions));

string[] updates = { "weather.paris 21C", "news.local market opens", "sport.final 2-1", "weather.oslo 4C", "news.world summit ends" };
foreach (string update in updates)
{
    publisher.Send(update);
}

Print("weather", weather, expected: 2);
Print("everything", everything, expected: 4);

// Nobody subscribed to "sport.": it was filtered out on the publisher's side, never sent.
Console.WriteLine("sport.final was delivered to nobody: " + (!weather.TryRecvString(out _) && !everything.TryRecvString(out _)));

static void Print(string name, Socket subscriber, int expected)
{
    for (int i = 0; i < expected; i++)
    {
        Console.WriteLine($"{name,-10} got {subscriber.RecvString()}");
    }
}
