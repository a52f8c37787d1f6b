// One thread serving several sockets with a Poller: tasks on a PULL, requests on a REP, and a "done" signal on a PAIR.
// A producer thread feeds all three; the main thread polls and handles whichever socket is ready, until all is done.
using System;
using System.Diagnostics;
using System.Threading;
using NetZeroMQ;
// System.Net.Sockets has a Socket and a SocketType too: these aliases keep the file compiling where both are imported.
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

var timeout = TimeSpan.FromSeconds(5);
const int Tasks = 5;
const int Requests = 3;

using var context = new Context();
using var tasks = new Socket(context, SocketType.Pull);
tasks.Bind("inproc://tasks");
using var requests = new Socket(context, SocketType.Rep);
requests.Bind("inproc://requests");
using var control = new Socket(context, SocketType.Pair);
control.Bind("inproc://control");

var producer = new Thread(() =>
{
    using var push = new Socket(context, SocketType.Push) { SendTimeout = timeout };
    using var req = new Socket(context, SocketType.Req) { SendTimeout = timeout, ReceiveTimeout = timeout };
    using var done = new Socket(context, SocketType.Pair) { SendTimeout = timeout };
    push.Connect("inproc://tasks");
    req.Connect("inproc://requests");
    done.Connect("inproc://control");
    for (int i = 1; i <= Tasks; i++)
    {
        push.Send("task " + i);
        if (i <= Requests)
        {
            req.Send("request " + i);
            req.RecvString(); // the reply comes from the poll loop below
        }
    }

    done.Send("done");
});
producer.Start();

using var poller = new Poller();
int tasksIndex = poller.Add(tasks, PollEvents.In);
int requestsIndex = poller.Add(requests, PollEvents.In);
int controlIndex = poller.Add(control, PollEvents.In);

int tasksSeen = 0, requestsSeen = 0;
bool done = false;
var clock = Stopwatch.StartNew();
while (!done || tasksSeen < Tasks)
{
    if (clock.Elapsed > timeout)
    {
        throw new TimeoutException("the producer did not finish");
    }

    if (poller.Poll(TimeSpan.FromMilliseconds(500)) == 0)
    {
        continue;
    }

    // Handle every ready socket; TryRecv never blocks, so one slow socket cannot stall the others.
    if (poller.IsReadable(tasksIndex))
    {
        while (tasks.TryRecvString(out string? task))
        {
            tasksSeen++;
            Console.WriteLine("tasks:    " + task);
        }
    }

    if (poller.IsReadable(requestsIndex) && requests.TryRecvString(out string? request))
    {
        requestsSeen++;
        Console.WriteLine("requests: " + request);
        requests.Send("ok");
    }

    if (poller.IsReadable(controlIndex) && control.TryRecvString(out string? signal))
    {
        done = true;
        Console.WriteLine("control:  " + signal);
    }
}

if (!producer.Join(timeout))
{
    throw new TimeoutException("the producer thread did not end");
}

Console.WriteLine($"handled {tasksSeen} tasks and {requestsSeen} requests on one thread");
