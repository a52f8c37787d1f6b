using System;
using System.Runtime.InteropServices;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;

namespace NetZeroMQ.Tests.Async.Reactor
{
    /// <summary>
    /// The reactor tests' child processes (see <see cref="ChildProcess"/>): each needs a process whose reactor it starts
    /// itself (the first caller, the reactor chosen by the AppContext switch, which <see cref="AsyncSwitch"/> sets from the
    /// environment) or breaks on purpose. Each prints <c>key=value</c>
    /// lines for the parent to assert on.
    /// </summary>
    internal static class ReactorChildScenarios
    {
        internal const string Kind = "reactor-kind";
        internal const string ExecutionContextScenario = "reactor-execution-context";
        internal const string BrokenScenario = "reactor-broken";
        internal const string DisposeScenario = "reactor-dispose-pending";

        internal static bool TryRun(string scenario, string[] args, out int exitCode)
        {
            Func<int>? run = scenario switch
            {
                Kind => () => ReportKind(args),
                ExecutionContextScenario => ReleaseOnReactorThread,
                BrokenScenario => Broken,
                DisposeScenario => DisposeWhilePending,
                _ => null,
            };
            exitCode = run is null ? 2 : run();
            return run is not null;
        }

        /// <summary>
        /// One receive that waits, then which reactor served it (or why none could start); with the argument <c>switch</c>,
        /// the AppContext switch is set to true first, as an application's runtimeconfig.json would.
        /// </summary>
        private static int ReportKind(string[] args)
        {
            if (args.Length > 0 && args[0] == "switch")
            {
                AppContext.SetSwitch(ReactorChoice.Switch, true);
            }

            using var context = new Context { DefaultLinger = TimeSpan.Zero };
            using Pair pair = Pair.Make(context, "inproc://kind");
            try
            {
                int before = OpenDescriptors();
                Task<string> received = pair.Pull.RecvStringAsync().AsTask();
                int started = OpenDescriptors();
                pair.Push.Send("served");
                Console.WriteLine("received=" + (received.Wait(TestTimeouts.Expected) ? received.Result : "nothing"));
                Console.WriteLine("kind=" + NetZeroMQ.Reactor.Current?.Kind);

                // What starting the reactor took (the descriptor table of docs/file-descriptors.md); Linux only, -1 elsewhere.
                Console.WriteLine("reactor_descriptors=" + (before < 0 ? -1 : started - before));
            }
            catch (Exception e)
            {
                Exception error = e is AggregateException { InnerException: { } inner } ? inner : e;
                Console.WriteLine("error=" + error.GetType().Name);
                Console.WriteLine("message: " + error.Message);
            }

            return 0;
        }

        /// <summary>
        /// The first async caller has an AsyncLocal set when its receive starts the reactor; a zero-copy message's release
        /// callback then runs on the reactor thread (the frame receive copies the frame out and lets go of the message there)
        /// and reports what it sees.
        /// </summary>
        private static int ReleaseOnReactorThread()
        {
            var local = new AsyncLocal<string>();
            local.Value = "first caller";
            using var context = new Context { DefaultLinger = TimeSpan.Zero };
            using Pair pair = Pair.Make(context, "inproc://context");
            Task<byte[]> received = pair.Pull.RecvBytesAsync().AsTask(); // waits: starts the reactor from this context

            string seen = "not released", thread = "none";
            using var released = new ManualResetEventSlim();
            const int Size = 4096; // far past libzmq's 33 bytes kept inside a message and the copy threshold
            nint data = Marshal.AllocHGlobal(Size);
            using (var message = new Message(data, Size, p =>
            {
                seen = local.Value ?? "(none)";
                thread = Thread.CurrentThread.Name ?? "(unnamed)";
                Marshal.FreeHGlobal(p);
                released.Set();
            }))
            {
                pair.Push.Send(message);
            }

            Console.WriteLine("received=" + (received.Wait(TestTimeouts.Expected) ? received.Result.Length.ToString(System.Globalization.CultureInfo.InvariantCulture) : "nothing"));
            Console.WriteLine("released=" + released.Wait(TestTimeouts.Expected));
            Console.WriteLine("release_thread=" + thread);
            Console.WriteLine("release_saw=" + seen);
            Console.WriteLine("kind=" + NetZeroMQ.Reactor.Current?.Kind);
            return 0;
        }

        /// <summary>
        /// Breaks the running reactor the way a real fault would: epoll's descriptor closed behind its back (epoll), or its
        /// wait pointed at something that is no socket (poll, through its test seam). Reports, in order: an arm that fails, a
        /// registration that fails, the pending receive that the failed wait must end, a receive after the stop, and a blocking
        /// receive, which must still work; the process must survive all of it.
        /// </summary>
        private static int Broken()
        {
            using var context = new Context { DefaultLinger = TimeSpan.Zero };
            using Pair a = Pair.Make(context, "inproc://a");
            using Pair b = Pair.Make(context, "inproc://b");
            using Pair d = Pair.Make(context, "inproc://d");
            using Pair e = Pair.Make(context, "inproc://e");
            using Pair c = Pair.Make(context, "inproc://c");
            d.Warm();
            e.Warm();
            Task<string> pendingA = a.Pull.RecvStringAsync().AsTask();
            Task<string> pendingB = b.Pull.RecvStringAsync().AsTask();
            NetZeroMQ.Reactor reactor = NetZeroMQ.Reactor.Current!;
            Console.WriteLine("kind=" + reactor.Kind);
            int registered = reactor.RegisteredCount;

            if (reactor is EpollReactor epoll)
            {
                // The thread in epoll_wait keeps the set alive until it returns; every other epoll call fails from now on.
                Interop.Libc.close(epoll.EpollDescriptor());
                Console.WriteLine("arm_failure=" + Outcome(d.Pull.RecvStringAsync().AsTask()));
                Console.WriteLine("register_failure=" + Outcome(c.Pull.RecvStringAsync().AsTask()));
                Console.WriteLine("registered_unchanged=" + (reactor.RegisteredCount == registered));
                a.Push.Send("woken"); // the wait that is under way returns this; the next one fails
                Console.WriteLine("woken=" + Outcome(pendingA));
            }
            else
            {
                ((PollReactor)reactor).BreakWait();
            }

            Console.WriteLine("pending_at_stop=" + Outcome(pendingB));
            Console.WriteLine("stopped_reason=" + (reactor.Failure?.Message ?? "none"));
            Console.WriteLine("after_stop=" + Outcome(e.Pull.RecvStringAsync().AsTask()));
            b.Push.Send("blocking");
            Console.WriteLine("blocking_after_stop=" + (b.Pull.TryRecvString(TestTimeouts.Expected, out string? text) ? text : "nothing"));
            Console.WriteLine("survived=True");
            return 0;
        }

        private static int OpenDescriptors() =>
            System.IO.Directory.Exists("/proc/self/fd") ? System.IO.Directory.GetFiles("/proc/self/fd").Length : -1;

        /// <summary>
        /// Many sockets with a receive pending, disposed pair by pair: the PUSH first, which sends its PULL pipe-termination
        /// commands, so that the PULL's descriptor fires while the PULL's removal from the reactor waits, which must not then
        /// wait for a wake-up that already happened. Within a time limit, on a thread of its own so that a hang is reported rather than suffered.
        /// </summary>
        private static int DisposeWhilePending()
        {
            const int Pairs = 300;
            using var context = new Context { DefaultLinger = TimeSpan.Zero };
            var pairs = new Pair[Pairs];
            var pending = new Task<string>[Pairs];
            for (int i = 0; i < Pairs; i++)
            {
                pairs[i] = Pair.Make(context, "inproc://dispose-" + i);
                pending[i] = pairs[i].Pull.RecvStringAsync().AsTask();
            }

            Console.WriteLine("kind=" + NetZeroMQ.Reactor.Current?.Kind);
            var disposing = Task.Factory.StartNew(
                () =>
                {
                    // Each PUSH just before its PULL: the PULL's descriptor fires (pipe termination) while its removal waits.
                    foreach (Pair pair in pairs)
                    {
                        pair.Push.Dispose();
                        pair.Pull.Dispose();
                    }
                },
                TaskCreationOptions.LongRunning);
            bool disposed = disposing.Wait(TestTimeouts.Expected);
            Console.WriteLine("disposed=" + disposed);
            if (!disposed)
            {
                // A hang must end the child, not leave it waiting on the lost wake-up (nor the context on unclosed sockets).
                Console.Out.Flush();
                Environment.Exit(3);
            }

            try
            {
                Task.WaitAll(pending, TestTimeouts.Expected);
            }
            catch (AggregateException)
            {
                // Each is examined below.
            }

            int endedDisposed = 0;
            foreach (Task<string> task in pending)
            {
                if (task.IsFaulted && task.Exception!.InnerException is ObjectDisposedException)
                {
                    endedDisposed++;
                }
            }

            Console.WriteLine("ended_disposed=" + endedDisposed);
            Console.WriteLine("registered_after=" + NetZeroMQ.Reactor.Current?.RegisteredCount);
            return 0;
        }

        /// <summary>How a task ended, within the expected time: its value, or the exception's type, error and message.</summary>
        private static string Outcome(Task<string> task)
        {
            try
            {
                return task.Wait(TestTimeouts.Expected) ? "value " + task.Result : "still waiting";
            }
            catch (AggregateException e) when (e.InnerException is { } error)
            {
                return error.GetType().Name + (error is ZmqException z ? "/" + z.Error : "") + " " + error.Message.Replace('\n', ' ');
            }
        }

        /// <summary>A PULL bound to an inproc endpoint and a PUSH connected to it.</summary>
        private sealed class Pair : IDisposable
        {
            private Pair(Socket pull, Socket push)
            {
                Pull = pull;
                Push = push;
            }

            internal Socket Pull { get; }

            internal Socket Push { get; }

            internal static Pair Make(Context context, string endpoint)
            {
                Socket pull = new Socket(context, SocketType.Pull);
                pull.Bind(endpoint);
                Socket push = new Socket(context, SocketType.Push);
                push.Connect(endpoint);
                return new Pair(pull, push);
            }

            /// <summary>One receive that waits and completes, so the PULL is registered with the reactor from then on.</summary>
            internal void Warm()
            {
                Task<string> received = Pull.RecvStringAsync().AsTask();
                Push.Send("warm");
                if (!received.Wait(TestTimeouts.Expected) || received.Result != "warm")
                {
                    throw new InvalidOperationException("the warm-up receive did not complete");
                }
            }

            public void Dispose()
            {
                Push.Dispose();
                Pull.Dispose();
            }
        }
    }
}
