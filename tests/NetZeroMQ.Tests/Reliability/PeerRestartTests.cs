using System;
using System.Collections.Generic;
using System.Diagnostics;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;
using Xunit.Abstractions;

namespace NetZeroMQ.Tests.Reliability
{
    /// <summary>
    /// A peer process (/usr/bin/python3 with pyzmq: a ROUTER that echoes) killed with SIGKILL and restarted on the same port,
    /// again and again. The survivor, a DEALER that connected once, must round-trip with each new incarnation within 3 s of
    /// it being ready, and its descriptors must stay flat. Counts descriptors, so the class runs alone.
    /// </summary>
    [Collection(IsolatedCollection.Name)]
    public class PeerRestartTests
    {
        internal const string Python = "/usr/bin/python3";

        internal const string EchoPeer = @"
import sys, zmq
ctx = zmq.Context()
s = ctx.socket(zmq.ROUTER)
s.setsockopt(zmq.LINGER, 0)
s.bind(sys.argv[1])
print('ready ' + s.getsockopt_string(zmq.LAST_ENDPOINT), flush=True)
while True:
    s.send_multipart(s.recv_multipart())
";

        private static readonly TimeSpan ReconnectBound = TimeSpan.FromSeconds(3);

        private readonly ITestOutputHelper _output;

        public PeerRestartTests(ITestOutputHelper output) => _output = output;

        [Fact]
        public void Survivor_PeerKilledAndRestarted10Times_ReconnectsWithin3SecondsAndDescriptorsStayFlat() => KillAndRestart(10);

        [Fact]
        [Trait(Tiers.Category, Tiers.Long)]
        public void Survivor_PeerKilledAndRestarted100Times_ReconnectsWithin3SecondsAndDescriptorsStayFlat() => KillAndRestart(100);

        private void KillAndRestart(int restarts)
        {
            int port = LoopbackPorts.Unused();
            string endpoint = "tcp://127.0.0.1:" + port;
            using Context context = Zmq.NewContext();
            using Socket dealer = Zmq.NewSocket(context, SocketType.Dealer);
            dealer.SetOption(SocketOptions.Immediate, true); // queue nothing for a dead peer: a send waits for the next incarnation
            dealer.SetOption(SocketOptions.ReconnectInterval, TimeSpan.FromMilliseconds(100));
            dealer.SendTimeout = ReconnectBound;
            dealer.ReceiveTimeout = ReconnectBound;
            dealer.Connect(endpoint);

            var reconnectMs = new List<double>();
            var descriptors = new List<int>();
            int baseline = 0;
            for (int round = 0; round <= restarts; round++)
            {
                using Process peer = StartPeer(endpoint, out _);
                try
                {
                    var sinceReady = Stopwatch.StartNew();
                    string text = "round " + round;
                    RoundTrip(dealer, text, round);
                    reconnectMs.Add(sinceReady.Elapsed.TotalMilliseconds);
                }
                finally
                {
                    peer.Kill();
                    Assert.True(peer.WaitForExit((int)TestTimeouts.Expected.TotalMilliseconds), "the peer did not die");
                    peer.StandardOutput.Dispose();
                    peer.StandardError.Dispose();
                }

                if (round == 1)
                {
                    baseline = ResourceProbe.OpenDescriptors(); // after the first restart every lazily made descriptor exists
                    _output.WriteLine("descriptors at baseline: " + ResourceProbe.DescribeDescriptors());
                }

                if (round >= 1)
                {
                    // The dead connection's descriptor is closed by libzmq's I/O thread shortly after the peer dies.
                    bool flat = Eventually.True(() => ResourceProbe.OpenDescriptors() <= baseline + 5, TimeSpan.FromSeconds(2));
                    descriptors.Add(ResourceProbe.OpenDescriptors());
                    Assert.True(flat, $"round {round}: descriptors grew from {baseline} to {ResourceProbe.OpenDescriptors()}: {ResourceProbe.DescribeDescriptors()}");
                }
            }

            _output.WriteLine("reconnect after restart: " + Stats.Describe(reconnectMs));
            _output.WriteLine("descriptors per round: " + string.Join(" ", descriptors));
            Assert.All(reconnectMs, ms => Assert.True(ms <= ReconnectBound.TotalMilliseconds, $"a reconnect took {ms:F0} ms"));
        }

        /// <summary>Sends <paramref name="text"/> and waits for its echo, skipping echoes of earlier rounds still on their way.</summary>
        private static void RoundTrip(Socket dealer, string text, int round)
        {
            dealer.Send(text); // waits (up to 3 s) until the new peer is connected
            var deadline = Stopwatch.StartNew();
            while (true)
            {
                string echo = dealer.RecvString(); // bounded by the 3 s receive timeout
                if (echo == text)
                {
                    return;
                }

                Assert.True(deadline.Elapsed < ReconnectBound, $"round {round}: only stale echoes ({echo})");
            }
        }

        internal static Process StartPeer(string endpoint, out string boundEndpoint, IReadOnlyList<string>? launcher = null)
        {
            var start = new ProcessStartInfo(launcher is null ? Python : launcher[0])
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
            };
            if (launcher is not null)
            {
                for (int i = 1; i < launcher.Count; i++)
                {
                    start.ArgumentList.Add(launcher[i]);
                }

                start.ArgumentList.Add(Python);
            }

            start.ArgumentList.Add("-c");
            start.ArgumentList.Add(EchoPeer);
            start.ArgumentList.Add(endpoint);
            Process peer = Process.Start(start)!;
            var line = peer.StandardOutput.ReadLineAsync();
            if (!line.Wait(TestTimeouts.Expected) || line.Result is null || !line.Result.StartsWith("ready ", StringComparison.Ordinal))
            {
                peer.Kill();
                throw new Xunit.Sdk.XunitException("the python peer did not start: " + (line.IsCompleted ? line.Result : "(no output)") + " " + peer.StandardError.ReadToEnd());
            }

            boundEndpoint = line.Result.Substring("ready ".Length).Trim();
            return peer;
        }
    }
}
