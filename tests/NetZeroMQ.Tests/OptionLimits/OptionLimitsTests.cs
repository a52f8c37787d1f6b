using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.OptionLimits
{
    /// <summary>
    /// Every option at its documented limits and just past them (<see cref="OptionLimitCases"/>), run in child processes so
    /// that a value which aborts the process inside libzmq fails its own case, not the test run; and every string and binary
    /// option read back at its documented maximum.
    /// </summary>
    public class OptionLimitsTests
    {
        private static readonly Lazy<Dictionary<string, string>> s_outcomes = new Lazy<Dictionary<string, string>>(RunAllCases);

        public static TheoryData<string> CaseNames()
        {
            var data = new TheoryData<string>();
            foreach (OptionLimitCases.Case c in OptionLimitCases.All)
            {
                data.Add(Key(c));
            }

            return data;
        }

        [Fact]
        public void Cases_NamesAreUniqueAndEveryGroupHasALauncher()
        {
            string[] keys = OptionLimitCases.All.Select(Key).ToArray();

            Assert.Equal(keys.Length, keys.Distinct().Count());
            Assert.All(OptionLimitCases.All, c => Assert.True(OptionLimitCases.Launchers.ContainsKey(c.Group), c.Group));
        }

        [Fact]
        public void Cases_CoverEveryOptionWithLimits()
        {
            // Every socket option that NetZeroMQ limits beyond libzmq appears in the table at least twice (at and past a limit).
            string[] limited =
            {
                nameof(SocketOptions.TypeOfService), nameof(SocketOptions.TcpKeepaliveCount), nameof(SocketOptions.TcpKeepaliveIdle),
                nameof(SocketOptions.TcpKeepaliveInterval), nameof(SocketOptions.HeartbeatTimeToLive), nameof(SocketOptions.MaxMessageSize),
                nameof(SocketOptions.BindToDevice), nameof(SocketOptions.UseFd), nameof(SocketOptions.MulticastHops),
                nameof(SocketOptions.MulticastMaxTpdu), nameof(SocketOptions.Rate), nameof(SocketOptions.RecoveryInterval),
                nameof(SocketOptions.InBatchSize), nameof(SocketOptions.OutBatchSize),
                nameof(ContextOptions.IOThreads), nameof(ContextOptions.MaxSockets), nameof(ContextOptions.ThreadSchedulingPolicy),
                "ThreadPriority", nameof(ContextOptions.ThreadAffinityCpuAdd),
            };

            foreach (string option in limited)
            {
                Assert.True(OptionLimitCases.All.Count(c => c.Option == option) >= 2, option);
            }
        }

        [Theory]
        [MemberData(nameof(CaseNames))]
        public void OptionValue_AtAndPastItsLimits_WorksOrIsRefusedWithoutHarm(string name)
        {
            OptionLimitCases.Case c = OptionLimitCases.All.Single(x => Key(x) == name);

            Assert.True(s_outcomes.Value.TryGetValue(name, out string? outcome), "no outcome for " + name);
            Assert.Equal(c.Expected, outcome);
        }

        [Theory]
        [InlineData(nameof(SocketOptions.PlainUsername), 255)]
        [InlineData(nameof(SocketOptions.PlainPassword), 255)]
        [InlineData(nameof(SocketOptions.ZapDomain), 255)]
        [InlineData(nameof(SocketOptions.GssapiPrincipal), 255)]
        [InlineData(nameof(SocketOptions.GssapiServicePrincipal), 255)]
        [InlineData(nameof(SocketOptions.SocksUsername), 255)]
        [InlineData(nameof(SocketOptions.SocksPassword), 255)]
        [InlineData(nameof(SocketOptions.BindToDevice), 15)]
        [InlineData(nameof(SocketOptions.SocksProxy), 100_000)]
        [InlineData(nameof(SocketOptions.SocksProxy), 4_000_000)]
        public void StringOption_AtItsMaximum_RoundTrips(string option, int length)
        {
            SocketOption<string> key = StringKey(option);
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);
            if (option.StartsWith("Gssapi", StringComparison.Ordinal) && !Context.Has("gssapi"))
            {
                Assert.Throws<ZmqException>(() => socket.SetOption(key, "x"));
                return;
            }

            // Multi-byte characters where the limit allows: the limits count UTF-8 bytes.
            string value = length % 2 == 1 ? "é" + new string('p', length - 2) : new string('p', length);
            Assert.Equal(length, Encoding.UTF8.GetByteCount(value));
            if (!LoadedLibzmq.Has(key))
            {
                // An option newer than the loaded libzmq (docs/libzmq-versions.md): refused naming both versions.
                LoadedLibzmq.AssertRefused(key, () => socket.SetOption(key, value));
                return;
            }

            socket.SetOption(key, value);

            Assert.Equal(value, socket.GetOption(key));
        }

        [Theory]
        [InlineData(nameof(SocketOptions.PlainUsername), 256)]
        [InlineData(nameof(SocketOptions.PlainPassword), 256)]
        [InlineData(nameof(SocketOptions.ZapDomain), 256)]
        [InlineData(nameof(SocketOptions.SocksUsername), 256)]
        [InlineData(nameof(SocketOptions.SocksPassword), 256)]
        [InlineData(nameof(SocketOptions.BindToDevice), 16)]
        public void StringOption_PastItsMaximum_IsRefusedNamingTheOption(string option, int length)
        {
            SocketOption<string> key = StringKey(option);
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);
            if (!LoadedLibzmq.Has(key) && option != nameof(SocketOptions.BindToDevice))
            {
                // An option newer than the loaded libzmq, without a limit of its own: refused naming both versions. (BindToDevice's
                // 15 bytes are checked first on every version.)
                LoadedLibzmq.AssertRefused(key, () => socket.SetOption(key, new string('p', length)));
                return;
            }

            Exception e = Assert.ThrowsAny<Exception>(() => socket.SetOption(key, new string('p', length)));

            // libzmq refuses its own limits (InvalidArgument naming the option); NetZeroMQ refuses the rest before it.
            Assert.True(
                e is ZmqException { Error: ZmqError.InvalidArgument } z && z.Option == option
                || e is ArgumentOutOfRangeException && e.Message.Contains(option) && e.Message.Contains("15"),
                e.ToString());
        }

        [Fact]
        public void SocksProxy_HundredThousandCharacters_ReadsBack()
        {
            // The reported case: the read buffer used to stop at 64 KiB and GetOption threw InvalidArgument.
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);
            string proxy = new string('h', 100_000) + ":1080";

            socket.SetOption(SocketOptions.SocksProxy, proxy);

            Assert.Equal(proxy, socket.GetOption(SocketOptions.SocksProxy));
        }

        [Fact]
        public void LastEndpoint_LongInprocName_ReadsBack()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Pair);
            string endpoint = "inproc://" + new string('n', 300_000);

            socket.Bind(endpoint);

            Assert.Equal(endpoint, socket.LastEndpoint);
        }

        [Fact]
        public void RoutingIdAndCurveKeys_AtTheirSizes_RoundTrip()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);
            byte[] id = Enumerable.Range(0, 255).Select(i => (byte)(i % 250 + 1)).ToArray();
            byte[] key = Enumerable.Range(0, 32).Select(i => (byte)(i * 7)).ToArray();

            socket.RoutingId = id;
            socket.SetOption(SocketOptions.CurveServerKey, key);

            Assert.Equal(id, socket.RoutingId);
            Assert.Equal(key, socket.GetOption(SocketOptions.CurveServerKey));
        }

        [Fact]
        public void GetOption_UnknownStringOption_StillFailsWithInvalidArgument()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);

            ZmqException e = Assert.Throws<ZmqException>(() => socket.GetOption(SocketOptions.CustomString(9999, "Bogus")));

            Assert.Equal(ZmqError.InvalidArgument, e.Error);
            Assert.Equal("Bogus", e.Option);
        }

        [Fact]
        public void SetOptionRaw_ValuePastALimit_IsRefusedLikeTheTypedSetter()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);

            var e = Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOptionRaw(SocketOptions.TypeOfService.Id, BitConverter.GetBytes(256)));
            Assert.Contains(nameof(SocketOptions.TypeOfService), e.Message);
            Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOptionRaw(SocketOptions.MaxMessageSize.Id, BitConverter.GetBytes(-2L)));
            Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOptionRaw(SocketOptions.BindToDevice.Id, new byte[16]));
            Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOptionRaw(SocketOptions.UseFd.Id, BitConverter.GetBytes(100_000)));

            socket.SetOptionRaw(SocketOptions.TypeOfService.Id, BitConverter.GetBytes(255));
            Assert.Equal(255, socket.GetOption(SocketOptions.TypeOfService));
        }

        [Fact]
        public void SetOptionRaw_EveryTimeOptionBelowMinusOne_IsRefusedLikeTheTypedSetter()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Dealer);
            int checkedOptions = 0;
            foreach (var option in SocketOptions.ById)
            {
                if (option.Value.ValueType != typeof(TimeSpan) || option.Value.Access == OptionAccess.Read || !LibzmqVersions.HasOption(option.Key, LoadedLibzmq.Version))
                {
                    continue;
                }

                var e = Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOptionRaw(option.Key, BitConverter.GetBytes(-2)));
                Assert.Contains("Socket option " + option.Value.Name, e.Message);
                checkedOptions++;
            }

            // libzmq 4.1 lacks the heartbeat and connect timeouts (docs/libzmq-versions.md).
            Assert.True(checkedOptions >= (LoadedLibzmq.IsAtLeast(4, 2, 0) ? 10 : 6), "time options checked: " + checkedOptions);
            socket.SetOptionRaw(SocketOptions.Linger.Id, BitConverter.GetBytes(-1)); // infinite, as the typed setter allows
            Assert.Equal(System.Threading.Timeout.InfiniteTimeSpan, socket.Linger);
        }

        [Fact]
        public void SetOptionRaw_NegativeLingerAndReceiveTimeout_RefusedBeforeLibzmq()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Dealer);

            Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOptionRaw(SocketOptions.Linger.Id, BitConverter.GetBytes(-5)));
            Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOptionRaw(SocketOptions.ReceiveTimeout.Id, BitConverter.GetBytes(int.MinValue)));
            Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOption(SocketOptions.Linger, TimeSpan.FromMilliseconds(-5)));
        }

        [Fact]
        public void SetOptionRaw_FlagOtherThanZeroOrOne_RefusedAsTheTypedSetterCannotSendIt()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Router);

            var e = Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOptionRaw(SocketOptions.RouterMandatory.Id, BitConverter.GetBytes(2)));
            Assert.Contains("RouterMandatory is a flag", e.Message);
            socket.SetOptionRaw(SocketOptions.RouterMandatory.Id, BitConverter.GetBytes(1));
        }

        [Fact]
        public void RefusedValue_MessageNamesTheOptionAndTheRange()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Dealer);

            var e = Assert.Throws<ArgumentOutOfRangeException>(() => socket.SetOption(SocketOptions.HeartbeatTimeToLive, TimeSpan.FromMilliseconds(150)));

            Assert.Equal("value", e.ParamName);
            Assert.Contains("HeartbeatTimeToLive takes 0 to 6553500 ms in steps of 100, not 150 ms", e.Message);
            if (!LoadedLibzmq.Has(SocketOptions.HeartbeatTimeToLive))
            {
                // libzmq 4.1 has no heartbeats: the limit is checked first, and a read is refused naming both versions.
                LoadedLibzmq.AssertRefused(SocketOptions.HeartbeatTimeToLive, () => socket.GetOption(SocketOptions.HeartbeatTimeToLive));
                return;
            }

            Assert.Equal(TimeSpan.Zero, socket.GetOption(SocketOptions.HeartbeatTimeToLive)); // nothing reached libzmq
        }

        [Fact]
        public void Context_IOThreadsIntMaxValue_RefusedNamingTheOption()
        {
            // The reported case, in-process: the setter refuses, so no socket ever reaches libzmq's overflowing reserve.
            using var context = new Context();

            var e = Assert.Throws<ArgumentOutOfRangeException>(() => context.IOThreads = int.MaxValue);

            Assert.Contains("IOThreads takes 0 to ", e.Message);
            Assert.Equal(1, context.IOThreads);
        }

        [Fact]
        public void Context_MaxSocketsPastSocketLimit_RefusedNamingTheLimit()
        {
            using var context = new Context();
            int limit = context.SocketLimit;

            var e = Assert.Throws<ArgumentOutOfRangeException>(() => context.MaxSockets = limit + 1);

            Assert.Contains("MaxSockets takes 1 to " + limit, e.Message);
            context.MaxSockets = limit;
            Assert.Equal(limit, context.MaxSockets);
        }

        private static string Key(OptionLimitCases.Case c) => c.Group + ": " + c.Name;

        private static SocketOption<string> StringKey(string name) =>
            (SocketOption<string>)typeof(SocketOptions).GetField(name)!.GetValue(null)!;

        /// <summary>
        /// Runs every group's cases in children. A child that dies (libzmq aborted) leaves its last started case without an
        /// outcome: that case is recorded as aborted, and a new child goes on with the next one.
        /// </summary>
        private static Dictionary<string, string> RunAllCases()
        {
            var outcomes = new Dictionary<string, string>();
            foreach (KeyValuePair<string, string[]> group in OptionLimitCases.Launchers)
            {
                OptionLimitCases.Case[] cases = OptionLimitCases.All.Where(c => c.Group == group.Key).ToArray();
                int next = 0;
                while (next < cases.Length)
                {
                    (int exitCode, string output) = ChildProcess.Run(
                        OptionLimitCases.Scenario,
                        new[] { group.Key, next.ToString(System.Globalization.CultureInfo.InvariantCulture) },
                        environment: null,
                        limit: TimeSpan.FromMinutes(3),
                        launcher: group.Value);
                    int started = -1;
                    bool done = false;
                    foreach (string line in output.Split('\n').Select(l => l.TrimEnd('\r')))
                    {
                        if (line.StartsWith("start ", StringComparison.Ordinal))
                        {
                            started = int.Parse(line.Substring(6), System.Globalization.CultureInfo.InvariantCulture);
                        }
                        else if (line.StartsWith("case ", StringComparison.Ordinal))
                        {
                            int space = line.IndexOf(' ', 5);
                            int index = int.Parse(line.Substring(5, space - 5), System.Globalization.CultureInfo.InvariantCulture);
                            outcomes[Key(cases[index])] = line.Substring(space + 1);
                        }
                        else if (line == "all done")
                        {
                            done = true;
                        }
                    }

                    if (done && exitCode == 0)
                    {
                        break;
                    }

                    if (started < next)
                    {
                        // The child never reached a case (it could not start): every remaining case gets its output.
                        for (int i = next; i < cases.Length; i++)
                        {
                            outcomes[Key(cases[i])] = "child failed, exit " + exitCode + ": " + Tail(output);
                        }

                        break;
                    }

                    outcomes[Key(cases[started])] = "aborted, exit " + exitCode + ": " + Tail(output);
                    next = started + 1;
                }
            }

            return outcomes;
        }

        private static string Tail(string output)
        {
            string[] lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
            return string.Join(" | ", lines.Skip(Math.Max(0, lines.Length - 3)));
        }
    }
}
