using System;
using System.Buffers.Binary;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    public class HighWatermarkTests
    {
        private const int FrameSize = 1024;

        // A generous bound: with the small kernel buffers set below, the queue fills after a few hundred frames.
        private const int MaxFrames = 200_000;

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void TrySend_PushAtHighWatermarkWithIdleReceiver_ReturnsFalseThenBlocksAndNothingIsLost(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            pull.ReceiveHighWatermark = 10;
            pull.SetOption(SocketOptions.ReceiveBufferSize, 16 * 1024);
            push.SendHighWatermark = 10;
            push.SetOption(SocketOptions.SendBufferSize, 16 * 1024);
            push.Connect(Transports.BindAnywhere(pull, transport));

            var frame = new byte[FrameSize];
            int sent = 0;
            while (sent < MaxFrames)
            {
                BinaryPrimitives.WriteInt32LittleEndian(frame, sent);
                if (!push.TrySend(frame))
                {
                    break;
                }

                sent++;
            }

            Assert.True(sent < MaxFrames, "TrySend never reported a full queue");
            Assert.True(sent >= 10, "only " + sent + " frames were queued before the high-water mark");

            // Over tcp the I/O thread may still move a few frames into kernel buffers; once those are full a blocking send
            // must wait its whole timeout and give up.
            push.SendTimeout = TimeSpan.FromMilliseconds(100);
            bool timedOut = false;
            while (!timedOut && sent < MaxFrames)
            {
                BinaryPrimitives.WriteInt32LittleEndian(frame, sent);
                try
                {
                    push.Send(frame);
                    sent++;
                }
                catch (ZmqException e) when (e.IsTimeout)
                {
                    timedOut = true;
                }
            }

            Assert.True(timedOut, "a blocking send never timed out at the high-water mark");

            // Everything that was accepted arrives, in order, and nothing else.
            var buffer = new byte[FrameSize + 1];
            for (int i = 0; i < sent; i++)
            {
                RecvResult result = pull.Recv(buffer);
                Assert.Equal(new RecvResult(FrameSize, FrameSize), result);
                Assert.Equal(i, BinaryPrimitives.ReadInt32LittleEndian(buffer));
            }

            Assert.False(pull.TryRecv(buffer, out _));

            // With the queue drained the sender can go on.
            push.SendTimeout = TestTimeouts.Expected;
            push.Send("after");
            Assert.Equal("after", pull.RecvString());
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Send_PubAtHighWatermarkWithSlowSubscriber_NeverBlocksAndDropsTheExcess(string transport)
        {
            const int Count = 20_000;
            using Context context = Zmq.NewContext();
            using Socket pub = Zmq.NewSocket(context, SocketType.Pub);
            using Socket sub = Zmq.NewSocket(context, SocketType.Sub);
            pub.SendHighWatermark = 10;
            pub.SetOption(SocketOptions.SendBufferSize, 16 * 1024);
            sub.ReceiveHighWatermark = 10;
            sub.SetOption(SocketOptions.ReceiveBufferSize, 16 * 1024);
            sub.Connect(Transports.BindAnywhere(pub, transport));
            sub.Subscribe(string.Empty);
            Subscriptions.WaitUntilDelivered(pub, sub, "sync");

            // PUB never waits for a subscriber: a send that would block is a drop, so even the non-blocking form succeeds.
            var frame = new byte[FrameSize];
            for (int i = 0; i < Count; i++)
            {
                BinaryPrimitives.WriteInt32LittleEndian(frame, i);
                Assert.True(pub.TrySend(frame), "send " + i + " would have blocked");
            }

            // Only now does the subscriber read. What arrives is a prefix-ordered subset; the rest was dropped.
            sub.ReceiveTimeout = TimeSpan.FromMilliseconds(500);
            var buffer = new byte[FrameSize];
            int received = 0;
            int last = -1;
            while (true)
            {
                RecvResult result;
                try
                {
                    result = sub.Recv(buffer);
                }
                catch (ZmqException e) when (e.IsTimeout)
                {
                    break;
                }

                if (result.MessageSize != FrameSize)
                {
                    continue; // a leftover "sync" probe
                }

                int n = BinaryPrimitives.ReadInt32LittleEndian(buffer);
                Assert.True(n > last, "frame " + n + " arrived after " + last);
                last = n;
                received++;
            }

            Assert.True(received > 0, "nothing arrived");
            Assert.True(received < Count, "all " + Count + " frames arrived: nothing was dropped");
        }

        [Fact]
        public void SendHighWatermark_Zero_MeansNoLimit()
        {
            const int Count = 5000;
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.SendHighWatermark = 0;
            pull.ReceiveHighWatermark = 0;
            push.Connect(Transports.BindAnywhere(pull, "inproc"));

            for (int i = 0; i < Count; i++)
            {
                Assert.True(push.TrySend(BitConverter.GetBytes(i)), "send " + i + " would have blocked");
            }

            for (int i = 0; i < Count; i++)
            {
                Assert.Equal(i, BitConverter.ToInt32(pull.RecvBytes()));
            }
        }
    }
}
