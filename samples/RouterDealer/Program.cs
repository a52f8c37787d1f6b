// RouterDealer: an async broker. REQ clients talk to a ROUTER frontend, REP workers sit behind a DEALER backend, and the broker
// moves whole multipart messages (envelope and all) between the two with RecvMultipartAsync/SendMultipartAsync: one task per
// direction, no thread blocked. Every wait is bounded by the program's deadline.
using System;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ;

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

// The broker: whole envelopes ([client id][empty][request]) travel unchanged in both directions.
async Task Pump(Socket from, Socket to)
{
    using var message = new MultipartMessage();
    try
    {
        while (true)
        {
            await from.RecvMultipartAsync(message, token);
            await to.SendMultipartAsync(message, token);
        }
    }
    catch (Exception e) when (e is OperationCanceledException || e is ZmqException { Error: ZmqError.ContextTerminated })
    {
    }
}

Task up = Pump(frontend, backend);
Task down = Pump(backend, frontend);

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
deadline.Cancel(); // and the pumps, wherever they wait
await Task.WhenAll(up, down).WaitAsync(TimeSpan.FromSeconds(5));
