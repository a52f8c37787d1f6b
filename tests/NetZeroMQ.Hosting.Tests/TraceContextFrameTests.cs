using System;
using System.Diagnostics;
using System.Text;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using NetZeroMQ.Hosting.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Hosting.Tests
{
    public class TraceContextFrameTests
    {
        [Theory]
        [InlineData(ActivityTraceFlags.Recorded, "vendor=abc,other=1")]
        [InlineData(ActivityTraceFlags.None, null)]
        public void Extract_InjectedContext_ParsesBackExactlyAndRemovesTheFrame(ActivityTraceFlags flags, string? traceState)
        {
            var sent = new ActivityContext(ActivityTraceId.CreateRandom(), ActivitySpanId.CreateRandom(), flags, traceState);
            using var message = new MultipartMessage();
            message.Add("payload");

            TraceContextFrame.Inject(message, sent, traceState);

            Assert.Equal(2, message.Count);
            Assert.True(message[1].Data.StartsWith(TraceContextFrame.Marker));
            Assert.Equal(
                "00-" + sent.TraceId.ToHexString() + "-" + sent.SpanId.ToHexString() + "-" + (flags == ActivityTraceFlags.Recorded ? "01" : "00")
                + (traceState is null ? "" : "\n" + traceState),
                Encoding.ASCII.GetString(message[1].Data[TraceContextFrame.Marker.Length..]));

            Assert.Equal(TraceFrameStatus.Valid, TraceContextFrame.Extract(message, out ActivityContext received));
            Assert.Equal(sent.TraceId, received.TraceId);
            Assert.Equal(sent.SpanId, received.SpanId);
            Assert.Equal(sent.TraceFlags, received.TraceFlags);
            Assert.Equal(traceState, received.TraceState);
            Assert.True(received.IsRemote);
            Assert.Equal(new[] { "payload" }, Array.ConvertAll(message.ToArrays(), Encoding.UTF8.GetString));
        }

        [Theory]
        [InlineData("garbage")]
        [InlineData("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331")]
        [InlineData("00-0af7651916cd43dd8448eb211c80319g-b7ad6b7169203331-01")]
        [InlineData("00-00000000000000000000000000000000-b7ad6b7169203331-01")]
        [InlineData("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\n\u00ff\u00fe")]
        public void Extract_MalformedFrame_ReturnsMalformedRemovesItAndKeepsThePayload(string body)
        {
            using var message = new MultipartMessage();
            message.Add("payload");
            message.Add(Concat(TraceContextFrame.Marker, Encoding.Latin1.GetBytes(body)));

            Assert.Equal(TraceFrameStatus.Malformed, TraceContextFrame.Extract(message, out ActivityContext context));

            Assert.Equal(default, context);
            Assert.Equal(new[] { "payload" }, Array.ConvertAll(message.ToArrays(), Encoding.UTF8.GetString));
        }

        [Fact]
        public void Extract_OversizedFrame_ReturnsMalformed()
        {
            using var message = new MultipartMessage();
            message.Add("payload");
            message.Add(Concat(TraceContextFrame.Marker, new byte[TraceContextFrame.MaxLength]));

            Assert.Equal(TraceFrameStatus.Malformed, TraceContextFrame.Extract(message, out _));
            Assert.Single(message.ToArrays());
        }

        [Fact]
        public void Extract_NoMarkerOrSingleFrame_ReturnsAbsentAndLeavesTheMessage()
        {
            using var plain = new MultipartMessage();
            plain.Add("a");
            plain.Add("b");
            using var single = new MultipartMessage();
            single.Add(Concat(TraceContextFrame.Marker, Encoding.ASCII.GetBytes("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")));

            Assert.Equal(TraceFrameStatus.Absent, TraceContextFrame.Extract(plain, out _));
            Assert.Equal(TraceFrameStatus.Absent, TraceContextFrame.Extract(single, out _));
            Assert.Equal(2, plain.Count);
            Assert.Single(single.ToArrays());
        }

        [Fact]
        public void Inject_DefaultContextOrEmptyMessage_Throws()
        {
            using var empty = new MultipartMessage();
            using var message = new MultipartMessage();
            message.Add("payload");
            var context = new ActivityContext(ActivityTraceId.CreateRandom(), ActivitySpanId.CreateRandom(), ActivityTraceFlags.None);

            Assert.Throws<ArgumentException>(() => TraceContextFrame.Inject(message, default));
            Assert.Throws<ArgumentException>(() => TraceContextFrame.Inject(empty, context));
            Assert.Throws<ArgumentNullException>(() => TraceContextFrame.Inject(null!, context));
        }

        [Fact]
        public async Task Worker_MalformedTraceFrameFromPeer_LogsEvent102AndGoesOn()
        {
            var probe = new Probe();
            var records = new LogRecords();
            using IHost host = TestHosts.Build(
                TestHosts.Socket("jobs", "Pull").With("NetZeroMQ:Sockets:jobs:TraceContext", "true"), services =>
                {
                    services.AddSingleton(probe);
                    services.AddNetZeroMQ().AddSocketWorker<EchoHandler>("jobs");
                }, records);
            await host.StartAsync();
            await records.WaitForAsync(103);
            var valid = new ActivityContext(ActivityTraceId.CreateRandom(), ActivitySpanId.CreateRandom(), ActivityTraceFlags.Recorded);

            using (var context = new Context())
            using (var push = new Socket(context, SocketType.Push) { Linger = TimeSpan.FromSeconds(5) })
            {
                push.Connect(host.Services.GetRequiredService<SocketFactory>().GetPeers("jobs").LastEndpoint);
                push.SendMultipart(new[] { Encoding.UTF8.GetBytes("first"), Concat(TraceContextFrame.Marker, Encoding.ASCII.GetBytes("00-nonsense")) });
                using var second = new MultipartMessage();
                second.Add("second");
                TraceContextFrame.Inject(second, valid);
                push.SendMultipart(second);
            }

            Assert.Equal(new[] { "first" }, await probe.NextAsync());
            Assert.Equal(new[] { "second" }, await probe.NextAsync());
            Assert.Single(records.WithId(102));
            Assert.True(probe.Traces.TryDequeue(out var first));
            Assert.Equal(default, first.Parent);
            Assert.True(probe.Traces.TryDequeue(out var traced));
            Assert.Equal(valid.TraceId, traced.Parent.TraceId);
            Assert.Equal(valid.SpanId, traced.Parent.SpanId);
            Assert.Empty(records.WithId(105));
            await host.StopAsync();
        }

        private static byte[] Concat(ReadOnlySpan<byte> first, byte[] second)
        {
            var all = new byte[first.Length + second.Length];
            first.CopyTo(all);
            second.CopyTo(all.AsSpan(first.Length));
            return all;
        }
    }
}
