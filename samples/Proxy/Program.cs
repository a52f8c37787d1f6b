// Proxy: a steerable proxy between a PULL frontend and a PUSH backend with a capture socket; Pause holds traffic, Resume
// releases it, GetStatistics counts it, Terminate stops the proxy. Every receive has a timeout.
using System;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ;
// System.Net.Sockets has a Socket and a SocketType too: these aliases keep the file compiling where both are imported.
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

using var context = new Context();
using var frontend = new Socket(context, SocketType.Pull);
frontend.Bind("inproc://in");
using var backend = new Socket(context, SocketType.Push);
backend.Bind("inproc://out");
using var capture = new Socket(context, SocketType.Push);
capture.Bind("inproc://capture");

using var producer = new Socket(context, SocketType.Push);
producer.Connect("inproc://in");
using var consumer = new Socket(context, SocketType.Pull) { ReceiveTimeout = TimeSpan.FromSeconds(5) };
consumer.Connect("inproc://out");
using var tap = new Socket(context, SocketType.Pull) { ReceiveTimeout = TimeSpan.FromSeconds(5) };
tap.Connect("inproc://capture");

using var proxy = new SteerableProxy(frontend, backend, capture);
Task running = proxy.Start(); // its own thread; returns once the proxy runs

producer.Send("one");
Console.WriteLine($"consumer got \"{consumer.RecvString()}\", capture saw \"{tap.RecvString()}\"");

proxy.Pause(); // returns once the proxy has paused: "two" cannot slip through
producer.Send("two");
consumer.ReceiveTimeout = TimeSpan.FromMilliseconds(300);
Console.WriteLine(consumer.TryRecvString(out _) ? "unexpected: delivered while paused" : "paused: nothing delivered");
Thread.Sleep(300);
Console.WriteLine(consumer.TryRecvString(out _) ? "unexpected: delivered while paused" : "still paused after 300 ms");

proxy.Resume();
consumer.ReceiveTimeout = TimeSpan.FromSeconds(5);
Console.WriteLine($"resumed: consumer got \"{consumer.RecvString()}\"");
tap.RecvString();

ProxyStatistics stats = proxy.GetStatistics();
Console.WriteLine($"statistics: frontend received {stats.FrontendMessagesReceived} messages, backend sent {stats.BackendMessagesSent}");

proxy.Terminate(); // returns once the proxy has ended and released its sockets
await running.WaitAsync(TimeSpan.FromSeconds(5));
Console.WriteLine("proxy terminated");
