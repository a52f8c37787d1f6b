using System;
using System.Collections.Generic;
using System.Globalization;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;

namespace NetZeroMQ.Tests.Async.Reactor
{
    /// <summary>
    /// The child processes of <see cref="InlineCompletionTests"/>: the switch <c>NetZeroMQ.InlineAsyncCompletions</c> is read
    /// once per process, so each child is given it (through <see cref="AsyncSwitch.InlineCompletions"/>'s variable, which the
    /// test assembly maps to the switch before anything runs). Prints <c>key=value</c> lines for the parent to assert on.
    /// </summary>
    internal static class InlineCompletionScenarios
    {
        internal const string Scenario = "inline-completions";

        private const int RoundTrips = 2000;

        internal static bool TryRun(string scenario, string[] args, out int exitCode)
        {
            if (scenario != Scenario)
            {
                exitCode = 2;
                return false;
            }

            exitCode = args.Length == 0 ? Run(InlineCompletions.Enabled) : 2;
            return true;
        }

        private static int Run(bool inline)
        {
            using var context = new Context { DefaultLinger = TimeSpan.Zero };
            Console.WriteLine("enabled=" + InlineCompletions.Enabled);
            Console.WriteLine("kind=" + Woken(context));
            RoundTripsBothAwaiting(context);
            if (inline)
            {
                WaitRefusedInContinuation(context);
                PostedToSynchronizationContext(context);
            }

            return 0;
        }

        /// <summary>One receive that really waits: where its continuation ran and what it received.</summary>
        private static string Woken(Context context)
        {
            using var pull = new Socket(context, SocketType.Pull);
            using var push = new Socket(context, SocketType.Push);
            pull.Bind("inproc://woken");
            push.Connect("inproc://woken");
            Task<(string Text, string? Thread)> received = ReceiveAndName(pull);
            Console.WriteLine("waited=" + !received.IsCompleted);
            push.Send("woken up");
            Console.WriteLine("received=" + (received.Wait(TestTimeouts.Expected) ? received.Result.Text : "nothing"));
            Console.WriteLine("continuation_thread=" + (received.IsCompleted ? received.Result.Thread ?? "(unnamed)" : "none"));
            return NetZeroMQ.Reactor.Current?.Kind ?? "none";

            static async Task<(string, string?)> ReceiveAndName(Socket pull)
            {
                string text = await pull.RecvStringAsync();
                return (text, Thread.CurrentThread.Name);
            }
        }

        /// <summary>
        /// REQ/REP over inproc, both sides awaiting every send and receive: each continuation calls the same socket again, which
        /// an inline continuation can only do once the reactor has let go of it. Counts what arrived and where the requester's
        /// continuations ran.
        /// </summary>
        private static void RoundTripsBothAwaiting(Context context)
        {
            using var rep = new Socket(context, SocketType.Rep);
            using var req = new Socket(context, SocketType.Req);
            rep.Bind("inproc://round-trips");
            req.Connect("inproc://round-trips");
            Task<int> server = Serve(rep);
            Task<(int Replies, int OnReactor)> client = Request(req);
            bool done = Task.WaitAll(new Task[] { server, client }, TestTimeouts.Expected);
            Console.WriteLine("round_trips=" + (done ? client.Result.Replies : -1));
            Console.WriteLine("served=" + (done ? server.Result : -1));
            Console.WriteLine("continuations_on_reactor=" + (done ? client.Result.OnReactor : -1));

            static async Task<int> Serve(Socket rep)
            {
                var buffer = new byte[16];
                int served = 0;
                for (int i = 0; i < RoundTrips; i++)
                {
                    RecvResult request = await rep.RecvAsync(buffer);
                    await rep.SendAsync(buffer.AsMemory(0, request.MessageSize));
                    served++;
                }

                return served;
            }

            static async Task<(int, int)> Request(Socket req)
            {
                var reply = new byte[16];
                int replies = 0, onReactor = 0;
                for (int i = 0; i < RoundTrips; i++)
                {
                    byte[] request = BitConverter.GetBytes(i);
                    await req.SendAsync(request);
                    RecvResult received = await req.RecvAsync(reply);
                    if (received.MessageSize == 4 && BitConverter.ToInt32(reply, 0) == i)
                    {
                        replies++;
                    }

                    if (Thread.CurrentThread.Name == NetZeroMQ.Reactor.ThreadName)
                    {
                        onReactor++;
                    }
                }

                return (replies, onReactor);
            }
        }

        /// <summary>
        /// A continuation on the reactor thread makes a blocking receive that would wait, and a timed one: both throw at once
        /// rather than stopping every async wait; a non-blocking try is fine; another socket's async wait works afterwards.
        /// </summary>
        private static void WaitRefusedInContinuation(Context context)
        {
            using var pull = new Socket(context, SocketType.Pull);
            using var push = new Socket(context, SocketType.Push);
            pull.Bind("inproc://refused");
            push.Connect("inproc://refused");
            Task<List<string>> outcomes = ReceiveThenBlock(pull);
            push.Send("first");
            if (!outcomes.Wait(TestTimeouts.Expected))
            {
                Console.WriteLine("refusal=hung");
                return;
            }

            foreach (string line in outcomes.Result)
            {
                Console.WriteLine(line);
            }

            // The reactor still serves: a receive that waits on another socket completes.
            using var laterPull = new Socket(context, SocketType.Pull);
            using var laterPush = new Socket(context, SocketType.Push);
            laterPull.Bind("inproc://after-refusal");
            laterPush.Connect("inproc://after-refusal");
            Task<string> later = laterPull.RecvStringAsync().AsTask();
            laterPush.Send("still served");
            Console.WriteLine("after_refusal=" + (later.Wait(TestTimeouts.Expected) ? later.Result : "nothing"));

            static async Task<List<string>> ReceiveThenBlock(Socket pull)
            {
                var lines = new List<string> { "first=" + await pull.RecvStringAsync() };
                lines.Add("refusal_thread=" + Thread.CurrentThread.Name);
                var buffer = new byte[16];
                lines.Add("blocking=" + Outcome(() => pull.Recv(buffer)));
                lines.Add("timed=" + Outcome(() => pull.TryRecv(buffer, TimeSpan.FromSeconds(5), out _)));
                lines.Add("try=" + Outcome(() => pull.TryRecv(buffer, out _)));
                return lines;
            }
        }

        /// <summary>
        /// An await made under a <see cref="SynchronizationContext"/> resumes through it (its Post), not on the reactor thread,
        /// inline completions or not.
        /// </summary>
        private static void PostedToSynchronizationContext(Context context)
        {
            using var pull = new Socket(context, SocketType.Pull);
            using var push = new Socket(context, SocketType.Push);
            pull.Bind("inproc://posted");
            push.Connect("inproc://posted");
            var recording = new RecordingContext();
            Task<(string Text, string? Thread)>? received = null;
            var starter = new Thread(() =>
            {
                SynchronizationContext.SetSynchronizationContext(recording);
                received = ReceiveAndName(pull);
            });
            starter.Start();
            starter.Join();
            push.Send("posted");
            bool done = received!.Wait(TestTimeouts.Expected);
            Console.WriteLine("posted_received=" + (done ? received.Result.Text : "nothing"));
            Console.WriteLine("posted_thread=" + (done ? received.Result.Thread ?? "(unnamed)" : "none"));
            Console.WriteLine("posts=" + recording.Posts);

            static async Task<(string, string?)> ReceiveAndName(Socket pull)
            {
                string text = await pull.RecvStringAsync();
                return (text, Thread.CurrentThread.Name);
            }
        }

        private static string Outcome(Func<object> call)
        {
            try
            {
                object result = call();
                return "returned " + Convert.ToString(result, CultureInfo.InvariantCulture);
            }
            catch (Exception e)
            {
                return e.GetType().Name + ": " + e.Message;
            }
        }

        /// <summary>Runs each posted callback on a thread of its own, named so, and counts the posts.</summary>
        private sealed class RecordingContext : SynchronizationContext
        {
            private int _posts;

            internal int Posts => Volatile.Read(ref _posts);

            public override void Post(SendOrPostCallback d, object? state)
            {
                Interlocked.Increment(ref _posts);
                new Thread(() => d(state)) { Name = "posted" }.Start();
            }
        }
    }
}
