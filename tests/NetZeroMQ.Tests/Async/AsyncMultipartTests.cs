using System;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Async
{
    public class AsyncMultipartTests
    {
        [Theory(Timeout = TestTimeouts.TestMilliseconds)]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public async Task RecvMultipartAsync_PendingWhenMessageArrives_GetsEveryFrameInOrder(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, transport));
            using var received = new MultipartMessage();

            for (int round = 0; round < 100; round++)
            {
                ValueTask pending = pull.RecvMultipartAsync(received);
                using var sent = new MultipartMessage();
                sent.Add("head " + round);
                sent.Add(Array.Empty<byte>());
                sent.Add(new byte[] { 1, 2, 3 });
                await push.SendMultipartAsync(sent);
                Assert.True(sent.Count == 0, "a sent multipart message is left empty");

                await pending.AsTask().WaitAsync(TestTimeouts.Expected);
                Assert.Equal(3, received.Count);
                Assert.Equal("head " + round, received[0].GetString());
                Assert.Equal(0, received[1].Size);
                Assert.Equal(new byte[] { 1, 2, 3 }, received[2].ToArray());
            }
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task SendMultipartAsync_AtHighWatermark_WaitsThenDeliversWholeMessages()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.SendHighWatermark = 2;
            pull.ReceiveHighWatermark = 2;
            push.Connect(Transports.BindAnywhere(pull, "tcp"));

            const int Messages = 2000;
            Task sender = Task.Run(async () =>
            {
                using var message = new MultipartMessage();
                for (int i = 0; i < Messages; i++)
                {
                    message.Add(BitConverter.GetBytes(i));
                    message.Add("tail");
                    await push.SendMultipartAsync(message);
                }
            });

            using var received = new MultipartMessage();
            for (int i = 0; i < Messages; i++)
            {
                await pull.RecvMultipartAsync(received);
                Assert.Equal(2, received.Count);
                Assert.Equal(i, BitConverter.ToInt32(received[0].Data));
                Assert.Equal("tail", received[1].GetString());
            }

            await sender.WaitAsync(TestTimeouts.Expected);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task DealerRouter_AsyncEnvelopes_ReplyReachesTheDealer()
        {
            using Context context = Zmq.NewContext();
            using Socket router = Zmq.NewSocket(context, SocketType.Router);
            using Socket dealer = Zmq.NewSocket(context, SocketType.Dealer);
            dealer.Connect(Transports.BindAnywhere(router, "ipc"));
            using var request = new MultipartMessage();
            request.Add("question");
            await dealer.SendMultipartAsync(request);

            using var envelope = new MultipartMessage();
            await router.RecvMultipartAsync(envelope).AsTask().WaitAsync(TestTimeouts.Expected);
            Assert.Equal(2, envelope.Count);
            Assert.Equal("question", envelope[1].GetString());
            envelope[1].Rebuild(System.Text.Encoding.UTF8.GetBytes("answer"));
            await router.SendMultipartAsync(envelope);

            using var reply = new MultipartMessage();
            await dealer.RecvMultipartAsync(reply).AsTask().WaitAsync(TestTimeouts.Expected);
            Assert.True(reply.Count == 1, "one frame expected, got " + reply.Count);
            Assert.Equal("answer", reply[0].GetString());
        }

        [Fact]
        public async Task SendMultipartAsync_EmptyMessage_ThrowsBeforeSending()
        {
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            using var empty = new MultipartMessage();
            await Assert.ThrowsAsync<ArgumentException>(async () => await push.SendMultipartAsync(empty));
        }
    }
}
