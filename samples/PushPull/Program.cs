// A pipeline: a ventilator PUSHes tasks, three worker threads PULL them, work, and PUSH results to a sink that PULLs them.
// PUSH spreads tasks round-robin over the connected workers; the sink collects from all of them (fair-queued).
// The workers stop when the context is shut down: their blocked receive ends with ZmqError.ContextTerminated.
using System;
using System.Collections.Generic;
using System.Threading;
using NetZeroMQ;
// System.Net.Sockets has a Socket and a SocketType too: these aliases keep the file compiling where both are imported.
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

var timeout = TimeSpan.FromSeconds(5);
const int Workers = 3;
const int Tasks = 30;

using var context = new Context();
using var ventilator = new Socket(context, SocketType.Push) { SendTimeout = timeout };
ventilator.Bind("inproc://tasks");
using var sink = new Socket(context, SocketType.Pull) { ReceiveTimeout = timeout };
sink.Bind("inproc://results");

using var ready = new CountdownEvent(Workers);
var threads = new List<Thread>();
for (int id = 1; id <= Workers; id++)
{
    int workerId = id;
    var thread = new Thread(() => Work(context, workerId, ready)) { Name = "worker " + workerId };
    thread.Start();
    threads.Add(thread);
}

// Start only when every worker is connected, or the first one to connect would get all the tasks.
if (!ready.Wait(timeout))
{
    throw new TimeoutException("the workers did not start");
}

for (int task = 1; task <= Tasks; task++)
{
    ventilator.Send(task.ToString()); // a task: a number to square
}

var perWorker = new SortedDictionary<string, int>(StringComparer.Ordinal);
long sum = 0;
for (int i = 0; i < Tasks; i++)
{
    string[] result = sink.RecvString().Split(' '); // "worker-id square"
    perWorker[result[0]] = perWorker.TryGetValue(result[0], out int n) ? n + 1 : 1;
    sum += long.Parse(result[1]);
}

Console.WriteLine($"sink: {Tasks} results, sum of squares 1..{Tasks} = {sum} (expected {Tasks * (Tasks + 1) * (2 * Tasks + 1) / 6})");
foreach (KeyValuePair<string, int> worker in perWorker)
{
    Console.WriteLine($"  worker {worker.Key} did {worker.Value} tasks");
}

context.Shutdown(); // ends the workers' blocked receives
foreach (Thread thread in threads)
{
    if (!thread.Join(timeout))
    {
        throw new TimeoutException(thread.Name + " did not stop");
    }
}

Console.WriteLine("workers stopped");

static void Work(Context context, int id, CountdownEvent ready)
{
    // Each worker owns its two sockets; they are created, used and disposed on this thread.
    using var tasks = new Socket(context, SocketType.Pull);
    using var results = new Socket(context, SocketType.Push) { SendTimeout = TimeSpan.FromSeconds(5) };
    tasks.Connect("inproc://tasks");
    results.Connect("inproc://results");
    ready.Signal();
    try
    {
        while (true)
        {
            long n = long.Parse(tasks.RecvString());
            Thread.Sleep(5); // the "work": long enough that the tasks really spread over the workers
            results.Send($"{id} {n * n}");
        }
    }
    catch (ZmqException e) when (e.Error == ZmqError.ContextTerminated)
    {
        // Context.Shutdown(): the normal way out.
    }
}
