// ClientServer: libzmq's thread-safe draft sockets with async. Eight CLIENT sockets, each in its own task, send requests to
// one SERVER, which answers each by the routing id its request arrived with. The program checks its own counts: it exits with
// 0 when every client got exactly its own replies, 1 on any mismatch, and 77 (printing why) when the loaded libzmq has no draft
// API, as distribution builds do: run it with a libzmq built with drafts (NETZEROMQ_LIBZMQ=/path/to/libzmq.so, or the
// NetZeroMQ.Native package). Every wait is bounded by one CancellationToken.
using System;
using System.Linq;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ;
using NetZeroMQ.Draft;
// System.Net.Sockets has a Socket and a SocketType too: these aliases keep the file compiling where both are imported.
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

const int Clients = 8;
const int RequestsPerClient = 250;
const int NoDraftApi = 77;

if (!DraftApi.IsAvailable)
{
    Console.Error.WriteLine(
        $"ClientServer needs libzmq's draft API (CLIENT and SERVER sockets); the loaded libzmq {Libzmq.Version} " +
        $"('{Libzmq.LoadedFrom}') has none. To run it, set NETZEROMQ_LIBZMQ to the path of a draft-enabled libzmq, such as " +
        "NetZeroMQ.Native's, which `./build.sh native` builds into artifacts/native/runtimes/linux-x64/native/libzmq.so " +
        $"(`./build.sh samples` runs the draft samples against the library in NETZEROMQ_DRAFT_LIBZMQ). Exit code {NoDraftApi}: not run.");
    return NoDraftApi;
}

using var deadline = new CancellationTokenSource(TimeSpan.FromSeconds(20)); // the whole program's upper bound
CancellationToken token = deadline.Token;
using var context = new Context();

// The SERVER: one task, every receive and send async. A request's routing id says which client sent it, and the reply,
// which is the request's own message refilled, goes back to that client.
using Socket server = DraftSockets.Create(context, DraftSocketType.Server);
server.Bind("tcp://127.0.0.1:*");
int answered = 0;
Task serverTask = Task.Run(async () =>
{
    using var message = new Message();
    while (answered < Clients * RequestsPerClient)
    {
        await server.RecvAsync(message, token);
        uint routingId = message.GetRoutingId();
        string request = message.GetString();
        message.Rebuild(Encoding.UTF8.GetBytes("reply to " + request));
        message.SetRoutingId(routingId);
        await server.SendAsync(message, cancellationToken: token);
        answered++;
    }
});

// The CLIENTs: each its own socket and task; each checks that every reply answers its own request, in order.
Task<int>[] clientTasks = Enumerable.Range(0, Clients).Select(id => Task.Run(async () =>
{
    using Socket client = DraftSockets.Create(context, DraftSocketType.Client);
    client.Connect(server.LastEndpoint!);
    int good = 0;
    for (int i = 0; i < RequestsPerClient; i++)
    {
        string request = $"client {id} request {i}";
        await client.SendAsync(request, cancellationToken: token);
        string reply = await client.RecvStringAsync(token);
        if (reply == "reply to " + request)
        {
            good++;
        }
        else
        {
            Console.Error.WriteLine($"client {id}: expected \"reply to {request}\", got \"{reply}\"");
        }
    }

    return good;
})).ToArray();

int[] goodReplies = await Task.WhenAll(clientTasks).WaitAsync(token);
await serverTask.WaitAsync(token);

for (int id = 0; id < Clients; id++)
{
    Console.WriteLine($"client {id}: {goodReplies[id]} of {RequestsPerClient} replies were its own");
}

Console.WriteLine($"server: answered {answered} requests from {Clients} clients");
bool balanced = answered == Clients * RequestsPerClient && goodReplies.All(good => good == RequestsPerClient);
Console.WriteLine(balanced ? "ClientServer: every count matches" : "ClientServer: MISMATCH");
return balanced ? 0 : 1;
