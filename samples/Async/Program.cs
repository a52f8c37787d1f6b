// Async: request/reply with SendAsync/RecvStringAsync (no thread blocks while waiting), then an `await foreach` receive
// loop over RecvAllAsync that ends by cancellation. Every wait is bounded by a CancellationToken.
using System;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ;
// System.Net.Sockets has a Socket and a SocketType too: these aliases keep the file compiling where both are imported.
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

using var deadline = new CancellationTokenSource(TimeSpan.FromSeconds(10)); // the whole program's upper bound
CancellationToken token = deadline.Token;

using var context = new Context();

// 1. Async request/reply: the server is a task, not a thread.
using var server = new Socket(context, SocketType.Rep);
server.Bind("tcp://127.0.0.1:*");
using var client = new Socket(context, SocketType.Req);
client.Connect(server.LastEndpoint);

Task serverTask = Task.Run(async () =>
{
    for (int i = 0; i < 3; i++)
    {
        string request = await server.RecvStringAsync(token);
        await server.SendAsync("echo: " + request, cancellationToken: token);
    }
});

for (int i = 1; i <= 3; i++)
{
    await client.SendAsync("request " + i, cancellationToken: token);
    Console.WriteLine(await client.RecvStringAsync(token));
}

await serverTask.WaitAsync(token);

// 2. A receive loop with await foreach. RecvAllAsync reuses one Message, so the loop allocates nothing per message;
//    it runs until its token is cancelled. Here: 200 ms after the last expected message, as a "stop listening" signal.
using var pull = new Socket(context, SocketType.Pull);
pull.Bind("inproc://stream");
using var push = new Socket(context, SocketType.Push);
push.Connect("inproc://stream");
for (int i = 1; i <= 5; i++)
{
    await push.SendAsync("event " + i, cancellationToken: token);
}

using var stop = CancellationTokenSource.CreateLinkedTokenSource(token);
int received = 0;
try
{
    await foreach (Message message in pull.RecvAllAsync(stop.Token))
    {
        Console.WriteLine($"loop: {message.GetString()}");
        if (++received == 5)
        {
            stop.CancelAfter(TimeSpan.FromMilliseconds(200));
        }
    }
}
catch (OperationCanceledException) when (!deadline.IsCancellationRequested)
{
    Console.WriteLine($"loop: cancelled after {received} messages");
}
