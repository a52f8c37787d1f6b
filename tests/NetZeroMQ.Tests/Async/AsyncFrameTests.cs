using System;
using System.Linq;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Async
{
    /// <summary>
    /// The receives that hand a frame out as a new object (RecvBytesAsync, RecvStringAsync, RecvPooledAsync), whether they
    /// complete at once or after waiting, and the async sends' first attempt being the socket's own non-blocking send.
    /// </summary>
    [Collection(IsolatedCollection.Name)]
    public class AsyncFrameTests
    {
        private const int Rounds = 150;

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task FrameReceives_QueuedOrWaitedFor_ExactFramesAndNoNativeMessagePerCall()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));

            // Counted process-wide (this collection runs alone): every native zmq_msg_t block a Message allocates.
            long before = ResourceCounters.Snapshot().MessagesCreated;
            for (int i = 0; i < Rounds; i++)
            {
                byte[] payload = Payload(i);

                // Queued first: the call completes at once. Sent afterwards: the call waits in the reactor.
                push.Send(payload);
                Assert.Equal(payload, await pull.RecvBytesAsync());
                ValueTask<byte[]> bytes = pull.RecvBytesAsync();
                push.Send(payload);
                Assert.Equal(payload, await bytes.AsTask().WaitAsync(TestTimeouts.Expected));

                push.Send("text " + i);
                Assert.Equal("text " + i, await pull.RecvStringAsync());
                ValueTask<string> text = pull.RecvStringAsync();
                push.Send("text " + i);
                Assert.Equal("text " + i, await text.AsTask().WaitAsync(TestTimeouts.Expected));

                push.Send(payload);
                using (PooledBuffer queued = await pull.RecvPooledAsync())
                {
                    Assert.Equal(payload, queued.Span.ToArray());
                }

                ValueTask<PooledBuffer> pooled = pull.RecvPooledAsync();
                push.Send(payload);
                using (PooledBuffer waited = await pooled.AsTask().WaitAsync(TestTimeouts.Expected))
                {
                    Assert.Equal(payload, waited.Span.ToArray());
                }
            }

            long created = ResourceCounters.Snapshot().MessagesCreated - before;

            // The socket's own scratch message (the immediate receives) and the async side's (the waiting ones), made once.
            Assert.True(created <= 2, created + " native messages were made for " + (Rounds * 6) + " frame receives");
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task FrameReceives_WaitingForALargeFrame_CopyItWhole()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "tcp"));
            byte[] large = Enumerable.Range(0, 300_000).Select(i => (byte)(i * 7)).ToArray();

            ValueTask<byte[]> bytes = pull.RecvBytesAsync();
            push.Send(large);
            Assert.Equal(large, await bytes.AsTask().WaitAsync(TestTimeouts.Expected));

            ValueTask<PooledBuffer> pooled = pull.RecvPooledAsync();
            push.Send(large);
            using PooledBuffer buffer = await pooled.AsTask().WaitAsync(TestTimeouts.Expected);
            Assert.Equal(large, buffer.Span.ToArray());

            // The scratch message let go of the large frame; the next, small one arrives intact.
            ValueTask<string> text = pull.RecvStringAsync();
            push.Send("small");
            Assert.Equal("small", await text.AsTask().WaitAsync(TestTimeouts.Expected));
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task FrameReceive_OnDisposedSocket_FailsThroughTheTask()
        {
            using Context context = Zmq.NewContext();
            Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            pull.Dispose();

            // Like the async methods they were written as: the error is the task's, not the call's.
            ValueTask<byte[]> bytes = pull.RecvBytesAsync();
            Assert.True(bytes.IsFaulted);
            await Assert.ThrowsAsync<ObjectDisposedException>(async () => await bytes);
        }

        [Fact]
        public void SendAsync_AfterMultipartSendBrokeOff_RefusesLikeEverySend()
        {
            // A real failure after the first frame (see MultipartTransferTests): the sender's context shuts down between frames.
            using Context receiverContext = Zmq.NewContext();
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(receiverContext, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "tcp"));
            var frames = new System.Collections.Generic.List<ReadOnlyMemory<byte>>
            {
                new byte[] { 0 },
                new MultipartFaults.BeforeSendMemory(new byte[] { 1 }, () => MultipartFaults.ShutDownBeforeNextSend(context)).Memory,
                new byte[] { 2 },
            };
            Assert.Throws<ZmqException>(() => push.SendMultipart(frames));

            Assert.True(push.IsMultipartSendBroken);

            // A frame sent now would be glued onto the half-sent message: async sends refuse as the blocking ones do.
            Assert.Contains("can no longer send", Assert.Throws<InvalidOperationException>(() => { _ = push.SendAsync(new byte[] { 1 }); }).Message);
            Assert.Throws<InvalidOperationException>(() => { _ = push.SendAsync("glued?"); });
            using var message = new Message(new byte[] { 2 });
            Assert.Throws<InvalidOperationException>(() => { _ = push.SendAsync(message); });
            Assert.Equal(1, message.Size);
        }

        private static byte[] Payload(int i) => Enumerable.Range(0, 1 + (i % 40)).Select(b => (byte)(b + i)).ToArray();
    }
}
