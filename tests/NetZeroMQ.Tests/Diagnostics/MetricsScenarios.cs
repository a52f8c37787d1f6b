using System;
using System.Collections.Generic;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;

namespace NetZeroMQ.Tests.Diagnostics
{
    /// <summary>
    /// Child-process scenarios for the meter: the counts are process-wide, so exact numbers need a process where nothing else
    /// makes sockets. Each phase prints every measurement as <c>phase key value</c> for the parent test to assert.
    /// </summary>
    internal static class MetricsScenarios
    {
        internal const string Traffic = "metrics-traffic";

        /// <summary>Eight threads sending on one thread-safe CLIENT at once (needs the draft API).</summary>
        internal const string SharedTraffic = "metrics-shared-traffic";

        internal const int SharedThreads = 8;
        internal const int SharedFramesPerThread = 5000;

        internal const int SpanFrames = 1000;
        internal const int MessageFrames = 500;
        internal const int FrameSize = 64;

        internal static bool TryRun(string scenario, out int exitCode)
        {
            exitCode = 0;
            if (scenario != Traffic && scenario != SharedTraffic)
            {
                return false;
            }

            try
            {
                if (scenario == Traffic)
                {
                    RunTraffic();
                }
                else
                {
                    RunSharedTraffic();
                }
            }
            catch (Exception e)
            {
                Console.WriteLine("FAILED " + e);
                exitCode = 1;
            }

            return true;
        }

        private static void RunTraffic()
        {
            using var meter = new MeterReading();
            Print("instruments", meter.Instruments);
            ZeroCopyPolicy.CopyThreshold = 0;
            using (Context context = Zmq.NewContext())
            {
                Print("empty", meter.Collect());
                Socket push = Zmq.NewSocket(context, SocketType.Push);
                Socket pull = Zmq.NewSocket(context, SocketType.Pull);
                push.Bind("inproc://metrics");
                pull.Connect("inproc://metrics");
                Print("opened", meter.Collect());

                // The span path, the Message path and a multipart message: 1000 + 500 + 3 frames.
                byte[] payload = new byte[FrameSize];
                byte[] buffer = new byte[FrameSize];
                for (int i = 0; i < SpanFrames; i++)
                {
                    push.Send(payload);
                    Check(pull.Recv(buffer).MessageSize == FrameSize, "span receive");
                }

                using (var message = new Message())
                {
                    for (int i = 0; i < MessageFrames; i++)
                    {
                        using (var outgoing = new Message(payload))
                        {
                            push.Send(outgoing);
                        }

                        pull.Recv(message);
                        Check(message.Size == FrameSize, "message receive");
                    }
                }

                push.SendMultipart(new[] { new byte[10], new byte[20], new byte[30] });
                using (var multipart = new MultipartMessage())
                {
                    pull.RecvMultipart(multipart);
                    Check(multipart.Count == 3, "multipart receive");
                }

                // Two receives that find nothing: would-block, not traffic.
                Check(!pull.TryRecv(buffer, out _), "nothing to receive");
                Check(!pull.TryRecv(buffer, out _), "still nothing to receive");
                Print("traffic", meter.Collect());

                // A REQ that receives before it sent: libzmq's EFSM, one InvalidState error.
                using (Socket req = Zmq.NewSocket(context, SocketType.Req))
                {
                    try
                    {
                        req.Recv(buffer);
                        Check(false, "REQ receive before send threw nothing");
                    }
                    catch (ZmqException e) when (e.Error == ZmqError.InvalidState)
                    {
                    }
                }

                Print("error", meter.Collect());

                // An async receive that has to wait, then completes when a frame arrives.
                ValueTask<byte[]> pending = pull.RecvBytesAsync();
                Check(!pending.IsCompleted, "the async receive waits");
                Task<byte[]> received = pending.AsTask();
                Print("async-waiting", meter.Collect());
                push.Send(new byte[7]);
                Check(received.Wait(TestTimeouts.Expected) && received.Result.Length == 7, "async receive completed");
                Print("async-done", meter.Collect());

                // A zero-copy buffer held by libzmq until the receiving message lets go of it.
                IntPtr native = Marshal.AllocHGlobal(FrameSize);
                push.SendZeroCopy(native, FrameSize, Marshal.FreeHGlobal);
                var held = new Message();
                pull.Recv(held);
                Print("zerocopy-held", meter.Collect());
                held.Dispose();
                Print("zerocopy-released", meter.Collect());

                push.Dispose();
                pull.Dispose();
                Print("disposed", meter.Collect());

                // Two PAIR sockets that are never disposed: when they are collected, their handles' finalizers close them and
                // their counts are kept.
                AbandonPairs(context);
                GC.Collect();
                GC.WaitForPendingFinalizers();
                GC.Collect();
                Print("abandoned", meter.Collect());

                // ZAP: one PLAIN client with the right password, one with a wrong one.
                Authenticate(context);
                Print("zap", meter.Collect());
            }

            Print("terminated", meter.Collect());
        }

        /// <summary>
        /// Eight threads send on one CLIENT while one thread receives every frame on the SERVER: a thread-safe socket's counts
        /// must balance although its threads count at the same time.
        /// </summary>
        private static void RunSharedTraffic()
        {
            using var meter = new MeterReading();
            using Context context = Zmq.NewContext();
            using Socket server = NetZeroMQ.Draft.DraftSockets.Create(context, NetZeroMQ.Draft.DraftSocketType.Server);
            using Socket client = NetZeroMQ.Draft.DraftSockets.Create(context, NetZeroMQ.Draft.DraftSocketType.Client);
            server.Bind("inproc://metrics-shared");
            client.Connect("inproc://metrics-shared");
            server.ReceiveTimeout = TestTimeouts.Expected;
            client.SendTimeout = TestTimeouts.Expected;
            const int total = SharedThreads * SharedFramesPerThread;
            var senders = new Thread[SharedThreads];
            for (int t = 0; t < SharedThreads; t++)
            {
                senders[t] = new Thread(() =>
                {
                    byte[] frame = new byte[FrameSize];
                    for (int i = 0; i < SharedFramesPerThread; i++)
                    {
                        client.Send(frame);
                    }
                });
                senders[t].Start();
            }

            byte[] buffer = new byte[FrameSize];
            for (int i = 0; i < total; i++)
            {
                Check(server.Recv(buffer).MessageSize == FrameSize, "server receive");
            }

            foreach (Thread sender in senders)
            {
                Check(sender.Join(TestTimeouts.Expected), "a sender finished");
            }

            Print("shared", meter.Collect());
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void AbandonPairs(Context context)
        {
            Socket a = Zmq.NewSocket(context, SocketType.Pair);
            Socket b = Zmq.NewSocket(context, SocketType.Pair);
            a.Bind("inproc://abandoned");
            b.Connect("inproc://abandoned");
            for (int i = 0; i < 5; i++)
            {
                a.Send(new byte[3]);
                Check(b.RecvBytes().Length == 3, "pair receive");
            }
        }

        private static void Authenticate(Context context)
        {
            using var decisions = new SemaphoreSlim(0);
            using var authenticator = new ZapAuthenticator(context);
            authenticator.AddPlainUser("user", "right");
            authenticator.Decided += (_, _) => decisions.Release();
            using Socket server = Zmq.NewSocket(context, SocketType.Rep);
            if (LoadedLibzmq.CanEnforceZap)
            {
                server.SetPlainServer();
            }
            else
            {
                // libzmq 4.1 cannot fail closed, so SetPlainServer is refused there; the raw options still authenticate while
                // the authenticator runs.
                Check(IsRefused(() => server.SetPlainServer()), "SetPlainServer refused where libzmq cannot enforce a ZAP domain");
                server.SetOption(SocketOptions.PlainServer, true);
                server.SetOption(SocketOptions.ZapDomain, "global");
            }

            string endpoint = Transports.BindAnywhere(server, "tcp");
            using Socket good = Zmq.NewSocket(context, SocketType.Req);
            good.SetPlainClient("user", "right");
            good.Connect(endpoint);
            good.Send("hello");
            Check(server.RecvString() == "hello", "the authenticated client's request arrived");
            server.Send("welcome");
            Check(good.RecvString() == "welcome", "the authenticated client got its reply");
            using Socket bad = Zmq.NewSocket(context, SocketType.Req);
            bad.SetPlainClient("user", "wrong");
            if (!LoadedLibzmq.CanEnforceZap)
            {
                // A 4.1 server drops a denied connection and the client would reconnect and be asked about again.
                bad.SetOption(SocketOptions.ReconnectInterval, Timeout.InfiniteTimeSpan);
            }

            bad.Connect(endpoint);
            Check(decisions.Wait(TestTimeouts.Expected) && decisions.Wait(TestTimeouts.Expected), "two ZAP decisions");
        }

        private static bool IsRefused(Action use)
        {
            try
            {
                use();
                return false;
            }
            catch (NotSupportedException)
            {
                return true;
            }
        }

        private static void Check(bool condition, string what)
        {
            if (!condition)
            {
                throw new InvalidOperationException("scenario step failed: " + what);
            }
        }

        private static void Print(string phase, Dictionary<string, long> reading)
        {
            foreach (KeyValuePair<string, long> pair in reading)
            {
                Console.WriteLine(phase + " " + pair.Key + " " + pair.Value.ToString(CultureInfo.InvariantCulture));
            }

            Console.WriteLine(phase + " end 0");
        }

        private static void Print(string phase, IEnumerable<string> names)
        {
            foreach (string name in names)
            {
                Console.WriteLine(phase + " " + name.Replace(' ', '_') + " 1");
            }
        }

        /// <summary>Parses what <see cref="Print(string, Dictionary{string, long})"/> wrote: phase → key → value.</summary>
        internal static Dictionary<string, Dictionary<string, long>> Parse(string output)
        {
            var phases = new Dictionary<string, Dictionary<string, long>>();
            foreach (string line in output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            {
                string[] parts = line.Split(' ');
                if (parts.Length != 3 || !long.TryParse(parts[2], NumberStyles.Integer, CultureInfo.InvariantCulture, out long value))
                {
                    continue;
                }

                if (!phases.TryGetValue(parts[0], out Dictionary<string, long>? phase))
                {
                    phases[parts[0]] = phase = new Dictionary<string, long>();
                }

                phase[parts[1]] = value;
            }

            return phases;
        }
    }
}
