// RouterDealer: an async broker. REQ clients talk to a ROUTER frontend, REP workers sit behind a DEALER backend, and the broker
// moves whole multipart messages (envelope and all) between the two with RecvMultipartAsync/SendMultipartAsync: one task
// for both directions, no thread blocked. Every wait is bounded by the program's deadline.
using System;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ;
// System.Net.Sockets has a Socket and a SocketType too: these aliases keep the file compiling where both are imported.
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

using var deadline = new CancellationTokenSource(TimeSpan.FromSeconds(10));
CancellationToken token = deadline.Token;
using var context = new Context();

using var frontend = new Socket(context, SocketType.Router);
frontend.Bind("inproc://clients");
using var backend = new Socket(context, SocketType.Dealer);
backend.Bind("inproc://workers");

// Two workers: REP sockets that upper-case what they get.
Task[] workers = new Task[2];
for (int w = 0; w < workers.Length; w++)
{
    int id = w;
    workers[w] = Task.Run(async () =>
    {
        using var worker = new Socket(context, SocketType.Rep);
        worker.Connect("inproc://workers");
        try
        {
            while (true)
            {
                string request = await worker.RecvStringAsync(token);
                await worker.SendAsync($"worker {id}: {request.ToUpperInvariant()}", cancellationToken: token);
            }
        }
        catch (Exception e) when (e is OperationCanceledException || e is ZmqException { Error: ZmqError.ContextTerminated })
        {
            // the program is ending
        }
    });
}

// The broker: whole envelopes ([client id][empty][request]) travel unchanged in both directions. One task owns both sockets:
// a socket is used by one thread at a time, and two tasks (one per direction) would each send on the socket the other is
// receiving from, at moments that can coincide (InvalidOperationException). Instead, a receive is kept pending on each side
// and the task serves whichever completes first.
async Task Broker()
{
    using var fromClient = new MultipartMessage();
    using var fromWorker = new MultipartMessage();
    Task clientRequest = frontend.RecvMultipartAsync(fromClient, token).AsTask();
    Task workerReply = backend.RecvMultipartAsync(fromWorker, token).AsTask();
    try
    {
        while (true)
        {
            Task ready = await Task.WhenAny(clientRequest, workerReply);
            await ready; // its exception, if it failed
            if (ready == clientRequest)
            {
                await backend.SendMultipartAsync(fromClient, token);
                clientRequest = frontend.RecvMultipartAsync(fromClient, token).AsTask();
            }
            else
            {
                await frontend.SendMultipartAsync(fromWorker, token);
                workerReply = backend.RecvMultipartAsync(fromWorker, token).AsTask();
            }
        }
    }
    catch (Exception e) when (e is OperationCanceledException || e is ZmqException { Error: ZmqError.ContextTerminated })
    {
        // the program is ending; the other receive ends the same way
    }
}

Task broker = Broker();

// Three clients, each sending two requests.
Task[] clients = new Task[3];
for (int c = 0; c < clients.Length; c++)
{
    int id = c;
    clients[c] = Task.Run(async () =>
    {
        using var client = new Socket(context, SocketType.Req);
        client.Connect("inproc://clients");
        for (int i = 0; i < 2; i++)
        {
            await client.SendAsync($"hello from client {id} #{i}", cancellationToken: token);
            Console.WriteLine($"client {id} got \"{await client.RecvStringAsync(token)}\"");
        }
    });
}

await Task.WhenAll(clients).WaitAsync(token);
Console.WriteLine("all 6 requests answered; shutting down");
context.Shutdown(); // ends the broker's and workers' pending operations with ContextTerminated
await Task.WhenAll(workers).WaitAsync(token);
deadline.Cancel(); // and the broker, wherever it waits
await broker.WaitAsync(TimeSpan.FromSeconds(5));
