// RADIO/DISH (libzmq's draft API): a RADIO publishes each message to a named group, and a DISH receives only the groups it
// joined. Over udp, unicast on loopback and then multicast on loopback. udp may drop datagrams, so the RADIO repeats a round
// (one message to each of three groups) until the DISH has received both groups it joined, within a time limit; whatever
// arrives must belong to a joined group.
// Exit codes (the convention of every sample that needs the draft API): 0 success, 1 failure, 77 the loaded libzmq has
// no draft API (the sample cannot run; ./build.sh samples counts it as skipped, CI as a failure).
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Net;
using System.Text;
using NetZeroMQ;
using NetZeroMQ.Draft;
// System.Net.Sockets has a Socket and a SocketType too: these aliases keep the file compiling where both are imported.
using Socket = NetZeroMQ.Socket;

const int NoDraftApi = 77;
if (!DraftApi.IsAvailable)
{
    Console.WriteLine($"RadioDish needs libzmq's draft API; the loaded libzmq {Libzmq.Version} ('{Libzmq.LoadedFrom}') lacks it. " +
        "To run it, set NETZEROMQ_LIBZMQ to the path of a draft-enabled libzmq, such as NetZeroMQ.Native's, which " +
        "`./build.sh native` builds into artifacts/native/runtimes/linux-x64/native/libzmq.so (`./build.sh samples` runs the " +
        "draft samples against the library in NETZEROMQ_DRAFT_LIBZMQ). Exit code " + NoDraftApi + ": not run.");
    return NoDraftApi;
}

string[] joined = { "weather", "news" };
bool ok = Exchange("unicast", "udp://127.0.0.1:" + FreeUdpPort(), joined)
    & Exchange("multicast", "udp://127.0.0.1;239.255.0." + new Random().Next(1, 255) + ":" + FreeUdpPort(), joined);
Console.WriteLine(ok ? "radio/dish: every joined group arrived, no other group did" : "radio/dish: FAILED");
return ok ? 0 : 1;

static bool Exchange(string name, string endpoint, string[] joined)
{
    using var context = new Context();
    using Socket dish = DraftSockets.Create(context, DraftSocketType.Dish);
    using Socket radio = DraftSockets.Create(context, DraftSocketType.Radio);
    dish.Bind(endpoint);
    foreach (string group in joined)
    {
        dish.Join(group);
    }

    radio.Connect(endpoint);

    var counts = new Dictionary<string, int>();
    var clock = Stopwatch.StartNew();
    var limit = TimeSpan.FromSeconds(5);
    using var received = new Message();
    int rounds = 0;
    while (clock.Elapsed < limit && !Array.TrueForAll(joined, counts.ContainsKey))
    {
        rounds++;
        foreach (string group in new[] { "weather", "news", "sport" })
        {
            using var message = new Message(Encoding.UTF8.GetBytes(group + " #" + rounds));
            message.SetGroup(group);
            radio.Send(message);
        }

        while (dish.TryRecv(received, TimeSpan.FromMilliseconds(20)))
        {
            Count(counts, received.GetGroup());
        }
    }

    // Anything still on its way (a datagram of the last round) is counted too, so a stray group cannot hide.
    while (dish.TryRecv(received, TimeSpan.FromMilliseconds(200)))
    {
        Count(counts, received.GetGroup());
    }

    var parts = new List<string>();
    foreach (KeyValuePair<string, int> pair in counts)
    {
        parts.Add(pair.Key + "=" + pair.Value);
    }

    bool allJoined = Array.TrueForAll(joined, counts.ContainsKey);
    bool onlyJoined = counts.Count == joined.Length;
    Console.WriteLine($"{name} ({endpoint}): {rounds} rounds sent; received {string.Join(", ", parts)}");
    if (!allJoined)
    {
        Console.WriteLine($"{name}: not every joined group arrived within {limit.TotalSeconds} s");
    }

    if (!onlyJoined)
    {
        Console.WriteLine($"{name}: a group the dish did not join arrived");
    }

    return allJoined && onlyJoined;
}

static void Count(Dictionary<string, int> counts, string group) => counts[group] = counts.GetValueOrDefault(group) + 1;

// udp binds report no port of their own: find one the way the system does (bind port 0, read it, let go).
static int FreeUdpPort()
{
    using var probe = new System.Net.Sockets.Socket(
        System.Net.Sockets.AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Dgram, System.Net.Sockets.ProtocolType.Udp);
    probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
    return ((IPEndPoint)probe.LocalEndPoint!).Port;
}
