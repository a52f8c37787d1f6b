using System;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// Entry point of the test assembly when it runs as a child process (<see cref="ChildProcess"/>): some scenarios need a
    /// process of their own, because they concern what happens the first time (native loading, the first error) or could
    /// abort the process. The test runner never calls this.
    /// </summary>
    public static class Program
    {
        public static int Main(string[] args)
        {
            if (args.Length < 2 || args[0] != ChildProcess.Marker)
            {
                return 2;
            }

            if (args[1] == OptionLimits.OptionLimitCases.Scenario)
            {
                return OptionLimits.OptionLimitCases.Child(args[2..]);
            }

            if (Reliability.ReliabilityChildScenarios.TryRun(args[1], args[2..], out int exitCode))
            {
                return exitCode;
            }

            if (Async.Reactor.ReactorChildScenarios.TryRun(args[1], args[2..], out exitCode))
            {
                return exitCode;
            }

            if (Async.Reactor.InlineCompletionScenarios.TryRun(args[1], args[2..], out exitCode))
            {
                return exitCode;
            }

            if (Races.MessageRaceScenarios.TryRun(args[1], args[2..], out exitCode))
            {
                return exitCode;
            }

            if (args.Length == 2 && Diagnostics.MetricsScenarios.TryRun(args[1], out exitCode))
            {
                return exitCode;
            }

            if (args[1] == LibzmqLoadingTests.Scenario)
            {
                return LibzmqLoadingTests.Child(args[2..]);
            }

            return args.Length == 2 ? ChildScenarios.Run(args[1]) : 2;
        }
    }

    /// <summary>The scenarios a child process can run; each prints what the parent test asserts on.</summary>
    internal static class ChildScenarios
    {
        internal static int Run(string scenario)
        {
            try
            {
                switch (scenario)
                {
                    case "first-error-is-context-terminated":
                        using (var context = new Context())
                        {
                            context.Shutdown();
                            new Socket(context, SocketType.Pair);
                        }

                        Console.WriteLine("no exception");
                        return 1;

                    case RuntimeTests.ChildScenario:
                        Console.WriteLine(System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription);
                        return 0;

                    case "load-libzmq":
                        using (new Context())
                        {
                            Console.WriteLine("loaded from " + Libzmq.LoadedFrom);
                        }

                        return 0;

                    case "exit-with-zero-copy-queued":
                        {
                            // Zero-copy buffers queued to a peer that never answers, and the process simply ends: no Dispose,
                            // no context termination. libzmq's threads die with the process; nothing may crash on the way out.
                            ZeroCopyPolicy.CopyThreshold = 0;
                            var context = new Context { DefaultLinger = Timeout.InfiniteTimeSpan };
                            var push = new Socket(context, SocketType.Push);
                            push.Connect("tcp://127.0.0.1:1");
                            for (int i = 0; i < 100; i++)
                            {
                                IntPtr buffer = System.Runtime.InteropServices.Marshal.AllocHGlobal(4096);
                                push.SendZeroCopy(buffer, 4096, static p => System.Runtime.InteropServices.Marshal.FreeHGlobal(p));
                            }

                            Console.WriteLine("queued=" + ZeroCopyDiagnostics.OutstandingBuffers);
                            Console.WriteLine("exiting");
                            GC.KeepAlive(push);
                            return 0;
                        }

                    case "plain-enforced-empty-domain":
                        // libzmq 4.3.4 asserts zap_required() in plain_server_t's constructor: ZapEnforceDomain with an empty
                        // domain aborts the process as soon as a PLAIN client connects. NetZeroMQ refuses to bind or connect
                        // such a socket; this runs in a child so that a regression kills the child, not the test run.
                        using (var context = new Context { DefaultLinger = TimeSpan.Zero })
                        using (var server = new Socket(context, SocketType.Rep))
                        {
                            server.SetOption(SocketOptions.PlainServer, true);
                            if (!LoadedLibzmq.Has(SocketOptions.ZapEnforceDomain))
                            {
                                // libzmq 4.1 has no ZapEnforceDomain (refused), so not this abort either: a PLAIN client of
                                // a server with an empty domain is simply served there.
                                LoadedLibzmq.AssertRefused(SocketOptions.ZapEnforceDomain, () => server.SetOption(SocketOptions.ZapEnforceDomain, true));
                                Console.WriteLine("enforce refused");
                                server.Bind("tcp://127.0.0.1:*");
                                using var client = new Socket(context, SocketType.Req) { SendTimeout = TestTimeouts.Expected, ReceiveTimeout = TestTimeouts.Expected };
                                client.SetPlainClient("user", "password");
                                client.Connect(server.LastEndpoint!);
                                client.Send("after the handshake");
                                server.ReceiveTimeout = TestTimeouts.Expected;
                                Console.WriteLine("served " + server.RecvString());
                                Console.WriteLine("survived");
                                return 0;
                            }

                            server.SetOption(SocketOptions.ZapEnforceDomain, true);
                            foreach (string call in new[] { "bind", "connect" })
                            {
                                try
                                {
                                    if (call == "bind")
                                    {
                                        server.Bind("tcp://127.0.0.1:*");
                                    }
                                    else
                                    {
                                        server.Connect("tcp://127.0.0.1:1");
                                    }

                                    Console.WriteLine(call + " accepted");
                                }
                                catch (InvalidOperationException)
                                {
                                    Console.WriteLine(call + " refused");
                                }
                            }
                        }

                        Console.WriteLine("survived");
                        return 0;

                    case "bind-ipc-wildcard":
                        // libzmq makes the wildcard's path in the directory TMPDIR names (the parent sets it): whether that
                        // path fits in sockaddr_un is known only then, so it is libzmq's error, not the endpoint check's.
                        using (var context = new Context { DefaultLinger = TimeSpan.Zero })
                        using (var socket = new Socket(context, SocketType.Pull))
                        {
                            socket.Bind("ipc://*");
                            Console.WriteLine("bound " + socket.LastEndpoint);
                        }

                        return 0;

                    case LibzmqVersionsTests.ChildScenario:
                        using (var context = new Context { DefaultLinger = TimeSpan.Zero })
                        using (var socket = new Socket(context, SocketType.Pull))
                        {
                            socket.SetOption(SocketOptions.BindToDevice, "nzmqnodev0");
                            socket.Bind("tcp://127.0.0.1:*");
                            Console.WriteLine("bound " + socket.LastEndpoint);
                        }

                        return 0;

                    case LibzmqVersionsTests.PendingInprocScenario:
                        return LibzmqVersionsTests.PendingInprocChild();

                    case LibzmqLoadingTests.DraftProbeScenario:
                        Console.WriteLine("IsAvailable=" + global::NetZeroMQ.Draft.DraftApi.IsAvailable);
                        Console.WriteLine("again=" + global::NetZeroMQ.Draft.DraftApi.IsAvailable + " HasPoller=" + global::NetZeroMQ.Draft.DraftApi.HasPoller +
                            " HasConnectPeer=" + global::NetZeroMQ.Draft.DraftApi.HasConnectPeer + " HasVersionedMonitor=" + global::NetZeroMQ.Draft.DraftApi.HasVersionedMonitor);
                        using (new Context())
                        {
                            Console.WriteLine("a context without libzmq");
                        }

                        return 0;

                    default:
                        Console.WriteLine("unknown scenario " + scenario);
                        return 2;
                }
            }
            catch (Exception e)
            {
                Console.WriteLine(e.GetType().FullName);
                Console.WriteLine(e is ZmqException z ? "Error=" + z.Error : "");
                Console.WriteLine(e.Message);
                return 0;
            }
        }
    }
}
