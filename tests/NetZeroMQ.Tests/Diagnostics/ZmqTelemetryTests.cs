using System.Collections.Generic;
using System.Linq;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Diagnostics
{
    /// <summary>
    /// The NetZeroMQ meter, read by a <see cref="System.Diagnostics.Metrics.MeterListener"/> as dotnet-counters or OpenTelemetry
    /// read it, in a child process (the counts are process-wide: exact numbers need a process where no other test makes
    /// sockets). Every number asserted is what the scenario in <see cref="MetricsScenarios"/> sent, received or did.
    /// </summary>
    public class ZmqTelemetryTests
    {
        private const string Push = "{netzeromq.socket.type=push}";
        private const string Pull = "{netzeromq.socket.type=pull}";
        private const string Pair = "{netzeromq.socket.type=pair}";

        private static readonly Dictionary<string, Dictionary<string, long>> s_phases = RunScenario();

        [Fact]
        public void Meter_PublishesEveryInstrumentWithItsUnit()
        {
            string[] expected =
            {
                "netzeromq.contexts_({context})", "netzeromq.sockets_({socket})",
                "netzeromq.messages.sent_({message})", "netzeromq.messages.received_({message})",
                "netzeromq.bytes.sent_(By)", "netzeromq.bytes.received_(By)", "netzeromq.would_block_({attempt})",
                "netzeromq.errors_({error})", "netzeromq.zerocopy.buffers_({buffer})", "netzeromq.async.pending_({operation})",
                "netzeromq.zap.decisions_({decision})",
            };
            Assert.Equal(expected.OrderBy(n => n), Phase("instruments").Keys.OrderBy(n => n));
        }

        [Fact]
        public void Sockets_CountOpenSocketsByType_AndContexts()
        {
            Assert.Equal(1, Phase("empty")["netzeromq.contexts"]);
            Assert.DoesNotContain(Phase("empty").Keys, k => k.StartsWith("netzeromq.sockets", System.StringComparison.Ordinal));
            Assert.Equal(1, Phase("opened")["netzeromq.sockets" + Push]);
            Assert.Equal(1, Phase("opened")["netzeromq.sockets" + Pull]);
            Assert.Equal(0, Phase("disposed")["netzeromq.sockets" + Push]);
            Assert.Equal(0, Phase("disposed")["netzeromq.sockets" + Pull]);
            Assert.Equal(0, Phase("terminated")["netzeromq.contexts"]);
        }

        [Fact]
        public void Messages_SpanMessageAndMultipartPaths_CountEveryFrameAndByte()
        {
            const long Frames = MetricsScenarios.SpanFrames + MetricsScenarios.MessageFrames + 3;
            const long Bytes = (MetricsScenarios.SpanFrames + MetricsScenarios.MessageFrames) * MetricsScenarios.FrameSize + 10 + 20 + 30;
            Dictionary<string, long> traffic = Phase("traffic");
            Assert.Equal(Frames, traffic["netzeromq.messages.sent" + Push]);
            Assert.Equal(Bytes, traffic["netzeromq.bytes.sent" + Push]);
            Assert.Equal(Frames, traffic["netzeromq.messages.received" + Pull]);
            Assert.Equal(Bytes, traffic["netzeromq.bytes.received" + Pull]);
            Assert.Equal(0, traffic["netzeromq.messages.received" + Push]);
            Assert.Equal(0, traffic["netzeromq.messages.sent" + Pull]);
        }

        [Fact]
        public void WouldBlock_CountsTryCallsThatFoundNothing()
        {
            Assert.Equal(0, Phase("opened")["netzeromq.would_block" + Pull]);
            Assert.Equal(2, Phase("traffic")["netzeromq.would_block" + Pull]);
            Assert.Equal(0, Phase("traffic")["netzeromq.would_block" + Push]);
        }

        [Fact]
        public void Errors_CountEachZmqExceptionByError()
        {
            Assert.DoesNotContain(Phase("traffic").Keys, k => k.StartsWith("netzeromq.errors", System.StringComparison.Ordinal));
            Dictionary<string, long> errors = Phase("error").Where(p => p.Key.StartsWith("netzeromq.errors", System.StringComparison.Ordinal))
                .ToDictionary(p => p.Key, p => p.Value);
            Assert.Equal(new Dictionary<string, long> { ["netzeromq.errors{error.type=InvalidState}"] = 1 }, errors);
        }

        [Fact]
        public void AsyncPending_CountsAWaitingReceiveUntilItCompletes_AndItsFrame()
        {
            Assert.Equal(0, Phase("traffic")["netzeromq.async.pending"]);
            Assert.Equal(1, Phase("async-waiting")["netzeromq.async.pending"]);
            Assert.Equal(0, Phase("async-done")["netzeromq.async.pending"]);

            // The frame the reactor received for the async call is counted like any other.
            long before = Phase("async-waiting")["netzeromq.messages.received" + Pull];
            Assert.Equal(before + 1, Phase("async-done")["netzeromq.messages.received" + Pull]);
            Assert.Equal(Phase("async-waiting")["netzeromq.bytes.received" + Pull] + 7, Phase("async-done")["netzeromq.bytes.received" + Pull]);
        }

        [Fact]
        public void ZeroCopyBuffers_CountsABufferUntilLibzmqReleasesIt()
        {
            Assert.Equal(0, Phase("async-done")["netzeromq.zerocopy.buffers"]);
            Assert.Equal(1, Phase("zerocopy-held")["netzeromq.zerocopy.buffers"]);
            Assert.Equal(0, Phase("zerocopy-released")["netzeromq.zerocopy.buffers"]);
        }

        [Fact]
        public void DisposedSockets_KeepTheirCountsInTheTotals()
        {
            const long Frames = MetricsScenarios.SpanFrames + MetricsScenarios.MessageFrames + 3 + 1 + 1;
            const long Bytes = (MetricsScenarios.SpanFrames + MetricsScenarios.MessageFrames + 1) * MetricsScenarios.FrameSize + 60 + 7;
            Dictionary<string, long> disposed = Phase("disposed");
            Assert.Equal(Frames, disposed["netzeromq.messages.sent" + Push]);
            Assert.Equal(Bytes, disposed["netzeromq.bytes.sent" + Push]);
            Assert.Equal(Frames, disposed["netzeromq.messages.received" + Pull]);
            Assert.Equal(Bytes, disposed["netzeromq.bytes.received" + Pull]);
            Assert.Equal(Frames, Phase("terminated")["netzeromq.messages.sent" + Push]);
        }

        [Fact]
        public void AbandonedSockets_AreClosedByTheFinalizer_AndKeepTheirCounts()
        {
            Dictionary<string, long> abandoned = Phase("abandoned");
            Assert.Equal(0, abandoned["netzeromq.sockets" + Pair]);
            Assert.Equal(5, abandoned["netzeromq.messages.sent" + Pair]);
            Assert.Equal(5, abandoned["netzeromq.messages.received" + Pair]);
            Assert.Equal(15, abandoned["netzeromq.bytes.received" + Pair]);
        }

        [Fact]
        public void ZapDecisions_CountAllowedAndDeniedByMechanism()
        {
            Assert.DoesNotContain(Phase("abandoned").Keys, k => k.StartsWith("netzeromq.zap", System.StringComparison.Ordinal));
            Dictionary<string, long> zap = Phase("zap").Where(p => p.Key.StartsWith("netzeromq.zap", System.StringComparison.Ordinal))
                .ToDictionary(p => p.Key, p => p.Value);
            Assert.Equal(
                new Dictionary<string, long>
                {
                    ["netzeromq.zap.decisions{netzeromq.zap.decision=allowed,netzeromq.zap.mechanism=plain}"] = 1,
                    ["netzeromq.zap.decisions{netzeromq.zap.decision=denied,netzeromq.zap.mechanism=plain}"] = 1,
                },
                zap);
        }

        private static Dictionary<string, long> Phase(string name)
        {
            Assert.True(s_phases.TryGetValue(name, out Dictionary<string, long>? phase), "the scenario printed no phase '" + name + "'");
            return phase!;
        }

        [Fact]
        public void Messages_ThreadSafeSocketUsedByEightThreadsAtOnce_CountsBalance()
        {
            if (!NetZeroMQ.Draft.DraftApi.IsAvailable)
            {
                using Context context = Zmq.NewContext();
                Assert.Throws<System.NotSupportedException>(
                    () => NetZeroMQ.Draft.DraftSockets.Create(context, NetZeroMQ.Draft.DraftSocketType.Client));
                return;
            }

            (int exitCode, string output) = ChildProcess.Run(MetricsScenarios.SharedTraffic);
            Assert.True(exitCode == 0, "the shared-traffic scenario failed (exit " + exitCode + "):\n" + output);
            Dictionary<string, long> shared = MetricsScenarios.Parse(output)["shared"];
            const long Frames = MetricsScenarios.SharedThreads * MetricsScenarios.SharedFramesPerThread;
            Assert.Equal(Frames, shared["netzeromq.messages.sent{netzeromq.socket.type=client}"]);
            Assert.Equal(Frames * MetricsScenarios.FrameSize, shared["netzeromq.bytes.sent{netzeromq.socket.type=client}"]);
            Assert.Equal(Frames, shared["netzeromq.messages.received{netzeromq.socket.type=server}"]);
        }

        private static Dictionary<string, Dictionary<string, long>> RunScenario()
        {
            (int exitCode, string output) = ChildProcess.Run(MetricsScenarios.Traffic);
            Assert.True(exitCode == 0, "the metrics scenario failed (exit " + exitCode + "):\n" + output);
            return MetricsScenarios.Parse(output);
        }
    }
}
