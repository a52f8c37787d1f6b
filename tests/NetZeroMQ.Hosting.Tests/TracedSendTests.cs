using System;
using System.Diagnostics;
using System.Text;
using System.Threading.Tasks;
using Xunit;

namespace NetZeroMQ.Hosting.Tests
{
    /// <summary>
    /// <see cref="ZmqTracing.SendTracedAsync"/> over a real PUSH/PULL pair: what arrives with and without a listener on the
    /// <c>NetZeroMQ</c> source and an application's activity, and bad arguments refused at the call with the message left as
    /// it was. (This assembly runs its test classes one at a time, so no other class's listener is attached meanwhile.)
    /// </summary>
    public class TracedSendTests
    {
        [Fact]
        public async Task NoListener_NoCurrentActivity_SendsTheMessageAsItIs()
        {
            Assert.False(ZmqTracing.Source.HasListeners());
            Assert.Null(Activity.Current);
            using var pair = new Pair();
            using var message = new MultipartMessage();
            message.Add("payload");

            await pair.Push.SendTracedAsync(message);

            Assert.Equal(new[] { "payload" }, pair.Receive());
        }

        [Fact]
        public async Task NoListener_ApplicationActivity_CarriesItsContextInATraceFrame()
        {
            Assert.False(ZmqTracing.Source.HasListeners());
            using var pair = new Pair();
            using var message = new MultipartMessage();
            message.Add("payload");
            using Activity application = new Activity("application request").Start();

            await pair.Push.SendTracedAsync(message);

            using var received = new MultipartMessage();
            pair.Pull.RecvMultipart(received);
            Assert.Equal(TraceFrameStatus.Valid, TraceContextFrame.Extract(received, out ActivityContext carried));
            Assert.Equal(application.TraceId, carried.TraceId);
            Assert.Equal(application.SpanId, carried.SpanId);
            Assert.Equal(new[] { "payload" }, Array.ConvertAll(received.ToArrays(), Encoding.UTF8.GetString));
        }

        [Fact]
        public async Task Listener_SendsInAProducerSpanWhoseContextArrives()
        {
            Activity? span = null;
            using ActivityListener listener = Listen(started => span = started);
            using var pair = new Pair();
            using var message = new MultipartMessage();
            message.Add("payload");

            await pair.Push.SendTracedAsync(message, "tcp://example:5555");

            Assert.NotNull(span);
            Assert.Equal("send tcp://example:5555", span!.DisplayName);
            Assert.Equal(ActivityKind.Producer, span.Kind);
            using var received = new MultipartMessage();
            pair.Pull.RecvMultipart(received);
            Assert.Equal(TraceFrameStatus.Valid, TraceContextFrame.Extract(received, out ActivityContext carried));
            Assert.Equal(span.TraceId, carried.TraceId);
            Assert.Equal(span.SpanId, carried.SpanId);
        }

        /// <summary>
        /// Null arguments and a message with no frame throw from the call itself, never from the returned task, with and
        /// without a listener and inside an application's activity (where the trace frame would be appended first); the message
        /// keeps what it held and nothing is sent.
        /// </summary>
        [Theory]
        [InlineData(false, false)]
        [InlineData(false, true)]
        [InlineData(true, false)]
        [InlineData(true, true)]
        public void BadArguments_ThrowAtTheCallAndLeaveTheMessageAsItWas(bool listening, bool insideActivity)
        {
            using ActivityListener? listener = listening ? Listen(_ => { }) : null;
            using Activity? application = insideActivity ? new Activity("application request").Start() : null;
            using var pair = new Pair();
            using var message = new MultipartMessage();
            message.Add("payload");
            using var empty = new MultipartMessage();

            Assert.Equal("socket", Assert.Throws<ArgumentNullException>(() => ZmqTracing.SendTracedAsync(null!, message)).ParamName);
            Assert.Equal("message", Assert.Throws<ArgumentNullException>(() => pair.Push.SendTracedAsync(null!)).ParamName);
            Assert.Equal(new[] { "payload" }, Array.ConvertAll(message.ToArrays(), Encoding.UTF8.GetString));
            Assert.ThrowsAny<ArgumentException>(() => pair.Push.SendTracedAsync(empty));
            Assert.Empty(empty);

            using var nothing = new MultipartMessage();
            Assert.False(pair.Pull.TryRecvMultipart(nothing, TimeSpan.FromMilliseconds(100)));
        }

        private static ActivityListener Listen(Action<Activity> started)
        {
            var listener = new ActivityListener
            {
                ShouldListenTo = source => source.Name == ZmqTracing.ActivitySourceName,
                Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
                ActivityStarted = started,
            };
            ActivitySource.AddActivityListener(listener);
            return listener;
        }

        /// <summary>A PUSH bound to a fresh inproc endpoint and a PULL connected to it, in a context of their own.</summary>
        private sealed class Pair : IDisposable
        {
            private readonly Context _context = new Context();

            internal Pair()
            {
                string endpoint = "inproc://traced-send-" + Guid.NewGuid().ToString("N");
                Push = new Socket(_context, SocketType.Push);
                Push.Bind(endpoint);
                Pull = new Socket(_context, SocketType.Pull);
                Pull.Connect(endpoint);
                Pull.ReceiveTimeout = TimeSpan.FromSeconds(10);
            }

            internal Socket Push { get; }

            internal Socket Pull { get; }

            internal string[] Receive()
            {
                using var received = new MultipartMessage();
                Pull.RecvMultipart(received);
                return Array.ConvertAll(received.ToArrays(), Encoding.UTF8.GetString);
            }

            public void Dispose()
            {
                Push.Dispose();
                Pull.Dispose();
                _context.Dispose();
            }
        }
    }
}
