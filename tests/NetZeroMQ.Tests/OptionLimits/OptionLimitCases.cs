using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using NetZeroMQ.Tests.TestUtilities;
using NetSocket = System.Net.Sockets.Socket;
using NetSocketType = System.Net.Sockets.SocketType;

namespace NetZeroMQ.Tests.OptionLimits
{
    /// <summary>
    /// Every socket and context option at its documented limits and just past them. A case sets the value and then uses the
    /// socket (a message round trip over the transport the option matters for); its outcome is "works", "refused" (the
    /// setter threw, naming the option), "refused at first socket" (the context's first socket threw instead of letting
    /// libzmq abort) or a named clean failure. Run in child processes (<see cref="Child"/>): before the fixes several of
    /// these values abort the process inside libzmq, which then shows as "aborted".
    /// </summary>
    internal static class OptionLimitCases
    {
        internal const string Scenario = "option-limits";

        internal const string Works = "works";
        internal const string Refused = "refused";
        internal const string RefusedAtStart = "refused at first socket";

        /// <summary>
        /// What an epgm value that works shows with a libzmq built without OpenPGM (NetZeroMQ.Native's): the value is accepted,
        /// and the epgm connect is refused as an unknown transport (ProtocolNotSupported) before anything reaches a socket.
        /// </summary>
        /// <summary>What a draft-only option shows with a libzmq without the draft API: refused as missing, naming the option.</summary>
        internal const string DraftMissing = "not supported: no draft API in this libzmq";

        /// <summary>The outcome of an option the loaded libzmq version lacks (docs/libzmq-versions.md): refused, naming it.</summary>
        internal const string VersionMissing = "not supported: the loaded libzmq version lacks it";

        internal const string AcceptedWithoutPgm = "accepted; epgm refused: no PGM in this libzmq";

        /// <summary>The groups, each run in its own children, and the command that starts those children.</summary>
        internal static readonly Dictionary<string, string[]> Launchers = new Dictionary<string, string[]>
        {
            ["plain"] = Array.Empty<string>(),

            // A small descriptor limit, so that the I/O thread limit is a few hundred threads, not ten thousand.
            ["nofile-1024"] = new[] { "prlimit", "--nofile=1024:1024" },

            // Without CAP_SYS_NICE, as an unprivileged user runs: libzmq's threads cannot raise their priority.
            ["no-sys-nice"] = new[] { "setpriv", "--inh-caps=-sys_nice", "--bounding-set=-sys_nice" },
        };

        private static readonly Random s_random = new Random();

        internal static readonly Case[] All = BuildCases().ToArray();

        /// <summary>The child: runs the cases of group args[0] from index args[1] on, one line per case.</summary>
        internal static int Child(string[] args)
        {
            string group = args[0];
            Case[] cases = All.Where(c => c.Group == group).ToArray();
            for (int i = int.Parse(args[1], System.Globalization.CultureInfo.InvariantCulture); i < cases.Length; i++)
            {
                Console.WriteLine("start " + i);
                Console.Out.Flush();
                string outcome;
                try
                {
                    outcome = cases[i].Run();
                }
                catch (Exception e)
                {
                    outcome = "unexpected " + e.GetType().Name + ": " + e.Message.Replace('\n', ' ');
                }

                Console.WriteLine("case " + i + " " + outcome);
                Console.Out.Flush();
            }

            Console.WriteLine("all done");
            return 0;
        }

        private static IEnumerable<Case> BuildCases()
        {
            // ---- Socket options over TCP: values libzmq accepts but the kernel refuses or misreads ----
            yield return Tcp("TypeOfService", 255, Works, s => s.SetOption(SocketOptions.TypeOfService, 255));
            yield return Tcp("TypeOfService", 256, Refused, s => s.SetOption(SocketOptions.TypeOfService, 256));
            yield return Tcp("TypeOfService", -1, Refused, s => s.SetOption(SocketOptions.TypeOfService, -1));
            foreach ((string name, SocketOption<int> key, int max) in new[]
            {
                ("TcpKeepaliveCount", SocketOptions.TcpKeepaliveCount, 127),
                ("TcpKeepaliveIdle", SocketOptions.TcpKeepaliveIdle, 32767),
                ("TcpKeepaliveInterval", SocketOptions.TcpKeepaliveInterval, 32767),
            })
            {
                yield return Tcp(name, max, Works, s => { s.SetOption(SocketOptions.TcpKeepalive, 1); s.SetOption(key, max); });
                yield return Tcp(name, max + 1, Refused, s => { s.SetOption(SocketOptions.TcpKeepalive, 1); s.SetOption(key, max + 1); });
                yield return Tcp(name, 1, Works, s => { s.SetOption(SocketOptions.TcpKeepalive, 1); s.SetOption(key, 1); });
                yield return Tcp(name, 0, Refused, s => { s.SetOption(SocketOptions.TcpKeepalive, 1); s.SetOption(key, 0); });
                yield return Tcp(name, -1, Works, s => { s.SetOption(SocketOptions.TcpKeepalive, 1); s.SetOption(key, -1); });
            }

            // libzmq 4.2 takes at most 6553 deciseconds (655.3 s, options.cpp) and refuses more itself, naming the option; 4.3 takes 65535.
            yield return Tcp("HeartbeatTimeToLive", 6553500, LoadedLibzmq.IsAtLeast(4, 3, 0) ? Works : Refused, s => Heartbeats(s, 6553500));
            yield return Tcp("HeartbeatTimeToLive", 6553501, Refused, s => Heartbeats(s, 6553501));
            yield return Tcp("HeartbeatTimeToLive", 6553600, Refused, s => Heartbeats(s, 6553600));
            yield return Tcp("HeartbeatTimeToLive", 100, Works, s => Heartbeats(s, 100));
            yield return Tcp("HeartbeatTimeToLive", 150, Refused, s => Heartbeats(s, 150));
            yield return Tcp("HeartbeatTimeToLive", 50, Refused, s => Heartbeats(s, 50));
            yield return Tcp("MaxMessageSize", -1, Works, s => s.SetOption(SocketOptions.MaxMessageSize, -1L));
            yield return Tcp("MaxMessageSize", -2, Refused, s => s.SetOption(SocketOptions.MaxMessageSize, -2L));
            yield return Tcp("MaxMessageSize", long.MaxValue, Works, s => s.SetOption(SocketOptions.MaxMessageSize, long.MaxValue));
            yield return Tcp("BindToDevice", "lo", Works, s => s.SetOption(SocketOptions.BindToDevice, "lo"));
            yield return Tcp("BindToDevice", "15 bytes", "bind fails: NoDevice", s => s.SetOption(SocketOptions.BindToDevice, new string('d', 15)));
            yield return Tcp("BindToDevice", "16 bytes", Refused, s => s.SetOption(SocketOptions.BindToDevice, new string('d', 16)));
            yield return Tcp("Priority", 7, Refused, s => s.SetOption(SocketOptions.Priority, 7));
            yield return Tcp("InBatchSize", 1, Refused, s => s.SetOption(SocketOptions.InBatchSize, 1));
            yield return Draft("InBatchSize", 2, Works, s => s.SetOption(SocketOptions.InBatchSize, 2));
            yield return Tcp("OutBatchSize", 0, Refused, s => s.SetOption(SocketOptions.OutBatchSize, 0));
            yield return Draft("OutBatchSize", 1, Works, s => s.SetOption(SocketOptions.OutBatchSize, 1));

            // Values libzmq handles at their extremes (documented, nothing to refuse).
            yield return Tcp("SendBufferSize", int.MaxValue, Works, s => s.SetOption(SocketOptions.SendBufferSize, int.MaxValue));
            yield return Tcp("SendBufferSize", -2, Refused, s => s.SetOption(SocketOptions.SendBufferSize, -2));
            yield return Tcp("ReceiveBufferSize", int.MaxValue, Works, s => s.SetOption(SocketOptions.ReceiveBufferSize, int.MaxValue));
            yield return Tcp("Backlog", int.MaxValue, Works, s => s.SetOption(SocketOptions.Backlog, int.MaxValue));
            yield return Tcp("SendHighWatermark", int.MaxValue, Works, s => s.SetOption(SocketOptions.SendHighWatermark, int.MaxValue));
            yield return Tcp("SendHighWatermark", -1, Refused, s => s.SetOption(SocketOptions.SendHighWatermark, -1));
            yield return Tcp("ReceiveHighWatermark", int.MaxValue, Works, s => s.SetOption(SocketOptions.ReceiveHighWatermark, int.MaxValue));
            yield return Tcp("Affinity", "all bits", Works, s => s.SetOption(SocketOptions.Affinity, ulong.MaxValue));
            yield return Tcp("Affinity", "thread 1 of 1", "bind fails: NoIOThread", s => s.SetOption(SocketOptions.Affinity, 2UL));
            TimeSpan longest = TimeSpan.FromMilliseconds(int.MaxValue);
            foreach ((string name, SocketOption<TimeSpan> key) in new[]
            {
                ("Linger", SocketOptions.Linger), ("ReconnectInterval", SocketOptions.ReconnectInterval),
                ("ReconnectIntervalMax", SocketOptions.ReconnectIntervalMax), ("HandshakeInterval", SocketOptions.HandshakeInterval),
                ("HeartbeatInterval", SocketOptions.HeartbeatInterval), ("HeartbeatTimeout", SocketOptions.HeartbeatTimeout),
                ("ConnectTimeout", SocketOptions.ConnectTimeout), ("TcpMaxRetransmitTimeout", SocketOptions.TcpMaxRetransmitTimeout),
            })
            {
                yield return Tcp(name, "int.MaxValue ms", Works, s => s.SetOption(key, longest));
                yield return Tcp(name, "int.MaxValue + 1 ms", Refused, s => s.SetOption(key, longest + TimeSpan.FromMilliseconds(1)));
            }

            // ---- UseFd: what the descriptor is ----
            yield return UseFd("a listening TCP socket", Works, AdoptedListener.Tcp);
            yield return UseFd("a listening TCP socket, then a second Bind", Works, AdoptedListener.TcpThenSecondBind);
            yield return UseFd("a listening Unix socket (ipc)", Works, AdoptedListener.Unix);
            yield return UseFd("100000 (not open)", Refused, AdoptedListener.NotOpen);
            yield return UseFd("a TCP socket not listening", Refused, AdoptedListener.NotListening);
            yield return UseFd("a UDP socket", Refused, AdoptedListener.Udp);
            yield return UseFd("a regular file", Refused, AdoptedListener.File);
            yield return UseFd("-2", LoadedLibzmq.Has(SocketOptions.UseFd) ? Refused : VersionMissing, AdoptedListener.MinusTwo);

            // ---- PGM (epgm on loopback): where OpenPGM and libzmq abort ----
            yield return Pgm("MulticastHops", 255, Works, s => s.SetOption(SocketOptions.MulticastHops, 255));
            yield return Pgm("MulticastHops", 256, Refused, s => s.SetOption(SocketOptions.MulticastHops, 256));
            yield return Pgm("MulticastHops", 0, Refused, s => s.SetOption(SocketOptions.MulticastHops, 0));
            yield return Pgm("MulticastMaxTpdu", 80, Works, s => s.SetOption(SocketOptions.MulticastMaxTpdu, 80));
            yield return Pgm("MulticastMaxTpdu", 79, Refused, s => s.SetOption(SocketOptions.MulticastMaxTpdu, 79));
            yield return Pgm("MulticastMaxTpdu", 52, Refused, s => s.SetOption(SocketOptions.MulticastMaxTpdu, 52));
            yield return Pgm("MulticastMaxTpdu", 65535, Works, s => { s.SetOption(SocketOptions.Rate, 525); s.SetOption(SocketOptions.MulticastMaxTpdu, 65535); });
            yield return Pgm("MulticastMaxTpdu", 65536, Refused, s => { s.SetOption(SocketOptions.Rate, 525); s.SetOption(SocketOptions.MulticastMaxTpdu, 65536); });
            yield return Pgm("MulticastMaxTpdu", "65535 at Rate 100", Refused, s => s.SetOption(SocketOptions.MulticastMaxTpdu, 65535));
            yield return Pgm("Rate", 12, Works, s => s.SetOption(SocketOptions.Rate, 12));
            yield return Pgm("Rate", 11, Refused, s => s.SetOption(SocketOptions.Rate, 11));
            yield return Pgm("Rate", 1, Refused, s => s.SetOption(SocketOptions.Rate, 1));
            yield return Pgm("Rate", 2147483, Works, s => s.SetOption(SocketOptions.Rate, 2147483));
            yield return Pgm("Rate", 2147484, Refused, s => s.SetOption(SocketOptions.Rate, 2147484));
            yield return Pgm("RecoveryInterval", "int.MaxValue ms", Works, s => s.SetOption(SocketOptions.RecoveryInterval, longest));
            // MulticastMaxTpdu comes first: libzmq 4.1 has none, so the case stops there.
            yield return Pgm("RecoveryInterval", "window past 2^31 packets", LoadedLibzmq.Has(SocketOptions.MulticastMaxTpdu) ? Refused : VersionMissing, s =>
            {
                s.SetOption(SocketOptions.MulticastMaxTpdu, 80);
                s.SetOption(SocketOptions.Rate, 2147483);
                s.SetOption(SocketOptions.RecoveryInterval, TimeSpan.FromMilliseconds(700_000));
            });

            // ---- Context options ----
            yield return ContextCaseOf("IOThreads", int.MaxValue, Refused, c => c.IOThreads = int.MaxValue);
            yield return ContextCaseOf("MaxSockets", 65535, Works, c => c.MaxSockets = 65535);
            yield return ContextCaseOf("MaxSockets", 65536, Refused, c => c.MaxSockets = 65536);
            yield return ContextCaseOf("MaxSockets", int.MaxValue, Refused, c => c.MaxSockets = int.MaxValue);
            yield return ContextCaseOf("MaxSockets", 0, Refused, c => c.SetOption(ContextOptions.MaxSockets, 0));
            foreach (int policy in new[] { 0, 3, 5 })
            {
                yield return ContextCaseOf("ThreadSchedulingPolicy", policy, Works, c => c.SetOption(ContextOptions.ThreadSchedulingPolicy, policy));
            }

            foreach (int policy in new[] { 4, 6, 7, 1000 })
            {
                yield return ContextCaseOf("ThreadSchedulingPolicy", policy, Refused, c => c.SetOption(ContextOptions.ThreadSchedulingPolicy, policy));
            }

            // As root (CAP_SYS_NICE) libzmq's threads may take real-time priorities and nice -20; without it they may not.
            string privileged = HasSysNice() ? Works : RefusedAtStart;
            yield return ContextCaseOf("ThreadSchedulingPolicy", "1 without ThreadPriority", RefusedAtStart, c => c.SetOption(ContextOptions.ThreadSchedulingPolicy, 1));
            yield return ContextCaseOf("ThreadPriority", "99 with SCHED_FIFO", privileged, c => { c.SetOption(ContextOptions.ThreadSchedulingPolicy, 1); c.SetThreadPriority(99); });
            yield return ContextCaseOf("ThreadPriority", "1 with SCHED_RR", privileged, c => { c.SetOption(ContextOptions.ThreadSchedulingPolicy, 2); c.SetThreadPriority(1); });
            yield return ContextCaseOf("ThreadPriority", "0 with SCHED_FIFO", RefusedAtStart, c => { c.SetOption(ContextOptions.ThreadSchedulingPolicy, 1); c.SetThreadPriority(0); });
            yield return ContextCaseOf("ThreadPriority", 100, Refused, c => c.SetThreadPriority(100));
            yield return ContextCaseOf("ThreadPriority", "0 (nice -20)", privileged, c => c.SetThreadPriority(0));
            long[] cpus = AllowedCpus();
            long highest = cpus.Max();
            yield return ContextCaseOf("ThreadAffinityCpuAdd", "highest allowed CPU", Works, c => c.SetOption(ContextOptions.ThreadAffinityCpuAdd, (int)highest));
            if (!cpus.Contains(highest + 1))
            {
                yield return ContextCaseOf("ThreadAffinityCpuAdd", "highest allowed CPU + 1", Refused, c => c.SetOption(ContextOptions.ThreadAffinityCpuAdd, (int)highest + 1));
            }

            yield return ContextCaseOf("ThreadAffinityCpuAdd", 1024, Refused, c => c.SetOption(ContextOptions.ThreadAffinityCpuAdd, 1024));
            yield return ContextCaseOf("ThreadNamePrefix", int.MinValue, Works, c => c.SetOption(ContextOptions.ThreadNamePrefix, int.MinValue));

            // The I/O thread limit, found by the setter and then used: at the limit the threads start and the socket works.
            yield return new Case("nofile-1024", "IOThreads", "the largest value accepted", Works, () =>
            {
                using var context = new Context { DefaultLinger = TimeSpan.Zero };
                int limit = LargestAccepted(context);
                context.IOThreads = limit;
                return limit < 100 ? "limit only " + limit : UseContext(context, "IOThreads");
            });
            yield return new Case("nofile-1024", "IOThreads", "the largest value accepted + 1", Refused, () =>
            {
                using var context = new Context { DefaultLinger = TimeSpan.Zero };
                int limit = LargestAccepted(context);
                return SetContext(context, "IOThreads", c => c.IOThreads = limit + 1);
            });
            yield return new Case("nofile-1024", "IOThreads", "1000 (2000 descriptors of 1024)", Refused, () =>
            {
                using var context = new Context { DefaultLinger = TimeSpan.Zero };
                return SetContext(context, "IOThreads", c => c.IOThreads = 1000);
            });

            // Without CAP_SYS_NICE the scheduling calls of libzmq's threads fail; the first socket refuses instead of aborting.
            yield return new Case("no-sys-nice", "ThreadPriority", "0 (nice -20, unprivileged)", RefusedAtStart, () => ContextCase("ThreadPriority", c => c.SetThreadPriority(0)));
            yield return new Case("no-sys-nice", "ThreadPriority", "50 with SCHED_FIFO (unprivileged)", RefusedAtStart, () => ContextCase("ThreadPriority", c =>
            {
                c.SetOption(ContextOptions.ThreadSchedulingPolicy, 1);
                c.SetThreadPriority(50);
            }));
            yield return new Case("no-sys-nice", "ThreadSchedulingPolicy", "5 (SCHED_IDLE, unprivileged)", Works, () => ContextCase("ThreadSchedulingPolicy", c => c.SetOption(ContextOptions.ThreadSchedulingPolicy, 5)));
        }

        private static void Heartbeats(Socket socket, int ttlMs)
        {
            socket.SetOption(SocketOptions.HeartbeatInterval, TimeSpan.FromMilliseconds(100));
            socket.SetOption(SocketOptions.HeartbeatTimeToLive, TimeSpan.FromMilliseconds(ttlMs));
        }

        private static Case Tcp(string option, object value, string expected, Action<Socket> set) =>
            new Case("plain", option, Text(value), ForLoadedLibzmq(option, expected), () => SocketCase(option, set, pgm: false));

        /// <summary>
        /// What a case that works, or fails only at the bind, gives on the loaded libzmq: <see cref="VersionMissing"/> where the
        /// version lacks the option (a value out of its limits is refused first, on every version), and a bind that fails
        /// with NotSupported where a BindToDevice reaches a libzmq built without SO_BINDTODEVICE (CMake builds).
        /// </summary>
        private static string ForLoadedLibzmq(string option, string expected)
        {
            if (expected == Refused && !(option == nameof(SocketOptions.HeartbeatTimeToLive) && !LibzmqVersions.HasOption(SocketOptions.HeartbeatInterval.Id, Libzmq.Version)))
            {
                return expected;
            }

            int id = SocketOptions.ById.Single(o => o.Value.Name == option).Key;
            if (!LibzmqVersions.HasOption(id, Libzmq.Version))
            {
                return VersionMissing;
            }

            // The heartbeat cases set HeartbeatInterval first, which the version refuses before any limit is checked.
            if (option == nameof(SocketOptions.HeartbeatTimeToLive) && !LibzmqVersions.HasOption(SocketOptions.HeartbeatInterval.Id, Libzmq.Version))
            {
                return VersionMissing;
            }

            return option == nameof(SocketOptions.BindToDevice) && !LoadedLibzmq.HasBindToDevice ? "bind fails: NotSupported" : expected;
        }

        /// <summary>
        /// An epgm case. Where the loaded libzmq has no PGM (<c>Context.Has("pgm")</c>, asked alike by the test and its child),
        /// a value that works can only be shown accepted, with the transport refused: <see cref="AcceptedWithoutPgm"/>.
        /// </summary>
        private static Case Pgm(string option, object value, string expected, Action<Socket> set)
        {
            expected = ForLoadedLibzmq(option, expected);
            return new Case("plain", option, Text(value) + " (epgm)", expected == Works && !Context.Has("pgm") ? AcceptedWithoutPgm : expected,
                () => SocketCase(option, set, pgm: true));
        }

        /// <summary>
        /// A case of an option only libzmq builds with the draft API have. Without it (<c>Context.Has("draft")</c>, asked alike
        /// by the test and its child) a value that works can only be shown refused as missing: <see cref="DraftMissing"/>.
        /// </summary>
        private static Case Draft(string option, object value, string expected, Action<Socket> set) =>
            new Case("plain", option, Text(value) + " (draft)", expected == Works && !Context.Has("draft") ? DraftMissing : expected,
                () => SocketCase(option, set, pgm: false));

        /// <summary>
        /// A context case: where the loaded version cannot set the option to a value that works (ThreadNamePrefix before 4.2.3,
        /// or negative before 4.3.3), the value is refused as missing, <see cref="VersionMissing"/>.
        /// </summary>
        private static Case ContextCaseOf(string option, object value, string expected, Action<Context> set)
        {
            if (expected == Works && typeof(ContextOptions).GetField(option)?.GetValue(null) is ContextOption<int> key &&
                !LoadedLibzmq.CanSet(key, value is int number ? number : 0))
            {
                expected = VersionMissing;
            }

            return new Case("plain", option, Text(value), expected, () => ContextCase(option, set));
        }

        private static Case UseFd(string value, string expected, AdoptedListener kind) =>
            new Case("plain", "UseFd", value, expected == Works && !LibzmqVersions.HasOption(SocketOptions.UseFd.Id, Libzmq.Version) ? VersionMissing : expected, () => UseFdCase(kind));

        private static string Text(object value) => value is int i ? i.ToString(System.Globalization.CultureInfo.InvariantCulture) : value.ToString()!;

        /// <summary>Sets the option on both ends of a pair, then sends a message each way.</summary>
        private static string SocketCase(string option, Action<Socket> set, bool pgm)
        {
            using Context context = Zmq.NewContext();
            using Socket a = Zmq.NewSocket(context, pgm ? SocketType.Sub : SocketType.Pair);
            using Socket b = Zmq.NewSocket(context, pgm ? SocketType.Pub : SocketType.Pair);
            string? refused = Refusal(option, () => { set(a); set(b); });
            if (refused is not null)
            {
                return refused;
            }

            return pgm ? PgmRoundTrip(a, b) : TcpRoundTrip(a, b, "tcp://127.0.0.1:*", null);
        }

        private static string ContextCase(string option, Action<Context> set)
        {
            using var context = new Context { DefaultLinger = TimeSpan.Zero };
            string result = SetContext(context, option, set);
            return result == Works ? UseContext(context, option) : result;
        }

        private static string SetContext(Context context, string option, Action<Context> set) =>
            Refusal(option, () => set(context)) ?? Works;

        /// <summary>Creates the context's first sockets (which starts libzmq's threads) and sends a message each way.</summary>
        private static string UseContext(Context context, string option)
        {
            Socket a;
            try
            {
                a = Zmq.NewSocket(context, SocketType.Pair);
            }
            catch (InvalidOperationException e)
            {
                return e.Message.Contains(option) || e.Message.Contains("I/O thread") ? RefusedAtStart : "refused at first socket without naming " + option + ": " + e.Message;
            }

            using (a)
            using (Socket b = Zmq.NewSocket(context, SocketType.Pair))
            {
                return TcpRoundTrip(a, b, "tcp://127.0.0.1:*", null);
            }
        }

        /// <summary>Null when <paramref name="set"/> succeeds; "refused" when it throws an argument or libzmq error naming the option.</summary>
        private static string? Refusal(string option, Action set)
        {
            try
            {
                set();
                return null;
            }
            catch (ArgumentOutOfRangeException e)
            {
                return e.Message.Contains(option) ? Refused : "refused without naming " + option + ": " + e.Message;
            }
            catch (ZmqException e)
            {
                if (e.Error != ZmqError.InvalidArgument)
                {
                    throw;
                }

                return e.Option == option ? Refused : "refused by libzmq without naming " + option + ": " + e.Message;
            }
            catch (NotSupportedException e)
            {
                if (e.Message.StartsWith("Context option " + option + " needs libzmq ", StringComparison.Ordinal))
                {
                    return VersionMissing;
                }

                if (e.Message.Contains("Socket option " + option + " needs libzmq " + LibzmqVersions.OptionSince(SocketOptions.ById.Single(o => o.Value.Name == option).Key)) ||
                    (option == nameof(SocketOptions.HeartbeatTimeToLive) && e.Message.StartsWith("Socket option HeartbeatInterval needs libzmq ", StringComparison.Ordinal)) ||
                    (option == nameof(SocketOptions.RecoveryInterval) && e.Message.StartsWith("Socket option MulticastMaxTpdu needs libzmq ", StringComparison.Ordinal)))
                {
                    return VersionMissing;
                }

                if (!e.Message.Contains("needs libzmq's draft API"))
                {
                    throw;
                }

                return e.Message.Contains("Socket option " + option) ? DraftMissing : "draft API missing without naming " + option + ": " + e.Message;
            }
        }

        private static string TcpRoundTrip(Socket a, Socket b, string bindEndpoint, string? connectEndpoint)
        {
            try
            {
                a.Bind(bindEndpoint);
            }
            catch (ZmqException e)
            {
                return "bind fails: " + e.Error;
            }

            b.Connect(connectEndpoint ?? a.LastEndpoint);
            b.Send("ping");
            if (!a.TryRecvWithin(out string? ping) || ping != "ping")
            {
                return "no message a<-b";
            }

            a.Send("pong");
            return b.TryRecvWithin(out string? pong) && pong == "pong" ? Works : "no message b<-a";
        }

        /// <summary>PUB b to SUB a over epgm on the loopback interface; PGM needs a moment to join, so b sends until a hears.</summary>
        private static string PgmRoundTrip(Socket sub, Socket pub)
        {
            string endpoint;
            lock (s_random)
            {
                endpoint = "epgm://127.0.0.1;239.192." + s_random.Next(1, 255) + "." + s_random.Next(1, 255) + ":" + s_random.Next(20000, 60000);
            }

            if (!Context.Has("pgm"))
            {
                try
                {
                    sub.Connect(endpoint);
                }
                catch (ZmqException e) when (e.Error == ZmqError.ProtocolNotSupported && e.Endpoint == endpoint)
                {
                    return AcceptedWithoutPgm;
                }

                return "epgm connect accepted by a libzmq without PGM";
            }

            sub.Connect(endpoint);
            sub.Subscribe("");
            pub.Connect(endpoint);
            DateTime deadline = DateTime.UtcNow + TestTimeouts.Expected;
            while (DateTime.UtcNow < deadline)
            {
                pub.Send("ping");
                using var poller = new Poller();
                poller.Add(sub, PollEvents.In);
                if (poller.Poll(100) > 0 && sub.TryRecvString(out string? text))
                {
                    return text == "ping" ? Works : "received " + text;
                }
            }

            return "no message over epgm";
        }

        private enum AdoptedListener
        {
            Tcp,
            Unix,
            TcpThenSecondBind,
            NotOpen,
            NotListening,
            Udp,
            File,
            MinusTwo,
        }

        private static string UseFdCase(AdoptedListener kind)
        {
            using Context context = Zmq.NewContext();
            using Socket a = Zmq.NewSocket(context, SocketType.Pair);
            using Socket b = Zmq.NewSocket(context, SocketType.Pair);
            string unixPath = Path.Combine(Path.GetTempPath(), "nzmq-usefd-" + Guid.NewGuid().ToString("N").Substring(0, 8));
            NetSocket? net = null;
            FileStream? file = null;
            try
            {
                int fd;
                switch (kind)
                {
                    case AdoptedListener.Tcp:
                    case AdoptedListener.TcpThenSecondBind:
                        net = new NetSocket(System.Net.Sockets.AddressFamily.InterNetwork, NetSocketType.Stream, System.Net.Sockets.ProtocolType.Tcp);
                        net.Bind(new IPEndPoint(IPAddress.Loopback, 0));
                        net.Listen(10);
                        break;
                    case AdoptedListener.Unix:
                        net = new NetSocket(System.Net.Sockets.AddressFamily.Unix, NetSocketType.Stream, System.Net.Sockets.ProtocolType.Unspecified);
                        net.Bind(new System.Net.Sockets.UnixDomainSocketEndPoint(unixPath));
                        net.Listen(10);
                        break;
                    case AdoptedListener.NotListening:
                        net = new NetSocket(System.Net.Sockets.AddressFamily.InterNetwork, NetSocketType.Stream, System.Net.Sockets.ProtocolType.Tcp);
                        break;
                    case AdoptedListener.Udp:
                        net = new NetSocket(System.Net.Sockets.AddressFamily.InterNetwork, NetSocketType.Dgram, System.Net.Sockets.ProtocolType.Udp);
                        net.Bind(new IPEndPoint(IPAddress.Loopback, 0));
                        break;
                    case AdoptedListener.File:
                        file = new FileStream(typeof(OptionLimitCases).Assembly.Location, FileMode.Open, FileAccess.Read);
                        break;
                }

                fd = kind switch
                {
                    AdoptedListener.NotOpen => 100_000,
                    AdoptedListener.MinusTwo => -2,
                    AdoptedListener.File => (int)file!.SafeFileHandle.DangerousGetHandle(),
                    _ => (int)net!.SafeHandle.DangerousGetHandle(),
                };

                string? refused = Refusal("UseFd", () => a.SetOption(SocketOptions.UseFd, fd));
                if (refused is not null)
                {
                    return refused;
                }

                // libzmq owns the descriptor from Bind on and closes it. .NET must neither close it nor dispose its Socket,
                // whose Dispose shuts a listening descriptor down: libzmq's accept would then fail and abort the process.
                string result = kind == AdoptedListener.Unix
                    ? TcpRoundTrip(a, b, "ipc://" + unixPath, null)
                    : TcpRoundTrip(a, b, "tcp://127.0.0.1:*", net is null ? null : "tcp://" + net.LocalEndPoint);
                if (net is not null && result != Refused)
                {
                    net.SafeHandle.SetHandleAsInvalid();
                    net = null;
                }

                if (kind == AdoptedListener.TcpThenSecondBind && result == Works)
                {
                    // The descriptor was adopted by the first Bind; a second one must make its own listener, not adopt it again.
                    string first = a.LastEndpoint!;
                    a.Bind("tcp://127.0.0.1:*");
                    int left = a.GetOption(SocketOptions.UseFd);
                    return left == -1 && a.LastEndpoint != first ? Works : "second Bind: UseFd " + left + ", endpoint " + a.LastEndpoint;
                }

                return result;
            }
            finally
            {
                net?.Dispose();
                file?.Dispose();
                File.Delete(unixPath);
            }
        }

        /// <summary>The largest IOThreads the setter accepts on <paramref name="context"/> (binary search; setting starts nothing).</summary>
        private static int LargestAccepted(Context context)
        {
            int low = 0;
            int high = 100_000;
            while (low < high)
            {
                int middle = low + ((high - low + 1) / 2);
                try
                {
                    context.IOThreads = middle;
                    low = middle;
                }
                catch (ArgumentOutOfRangeException)
                {
                    high = middle - 1;
                }
            }

            return low;
        }

        /// <summary>Whether this process has CAP_SYS_NICE (bit 23 of CapEff).</summary>
        private static bool HasSysNice()
        {
            string line = File.ReadAllLines("/proc/self/status").Single(l => l.StartsWith("CapEff:", StringComparison.Ordinal));
            ulong caps = ulong.Parse(line.Substring(7).Trim(), System.Globalization.NumberStyles.HexNumber, System.Globalization.CultureInfo.InvariantCulture);
            return (caps & (1UL << 23)) != 0;
        }

        private static long[] AllowedCpus()
        {
            string line = File.ReadAllLines("/proc/self/status").Single(l => l.StartsWith("Cpus_allowed_list:", StringComparison.Ordinal));
            var cpus = new List<long>();
            foreach (string part in line.Substring(18).Trim().Split(','))
            {
                string[] bounds = part.Split('-');
                long first = long.Parse(bounds[0], System.Globalization.CultureInfo.InvariantCulture);
                long last = long.Parse(bounds[bounds.Length - 1], System.Globalization.CultureInfo.InvariantCulture);
                for (long cpu = first; cpu <= last; cpu++)
                {
                    cpus.Add(cpu);
                }
            }

            return cpus.ToArray();
        }

        private static bool TryRecvWithin(this Socket socket, out string? text)
        {
            using var poller = new Poller();
            poller.Add(socket, PollEvents.In);
            text = null;
            return poller.Poll((int)TestTimeouts.Expected.TotalMilliseconds) > 0 && socket.TryRecvString(out text);
        }

        /// <summary>One option value and what must happen with it.</summary>
        internal sealed class Case
        {
            internal Case(string group, string option, string value, string expected, Func<string> run)
            {
                Group = group;
                Option = option;
                Value = value;
                Expected = expected;
                Run = run;
            }

            internal string Group { get; }

            internal string Option { get; }

            internal string Value { get; }

            internal string Expected { get; }

            internal Func<string> Run { get; }

            internal string Name => Option + " = " + Value;
        }
    }
}
