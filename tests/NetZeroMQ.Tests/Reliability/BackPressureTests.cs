using System;
using System.Diagnostics;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Reliability
{
    /// <summary>
    /// Flow control: PUSH/PULL under back-pressure (tiny high-water marks, a sender far faster than the receiver at times)
    /// loses nothing and reorders nothing; PUB/SUB at its high-water mark drops instead of blocking the publisher.
    /// </summary>
    public class BackPressureTests
    {
        [Theory]
        [InlineData("inproc", 1_000_000)]
        [InlineData("tcp", 200_000)]
        public void PushPull_SmallHighWatermark_EverySequenceNumberArrivesInOrder(string transport, int count) => PushPull(transport, count);

        [Theory]
        [Trait(Tiers.Category, Tiers.Long)]
        [InlineData("tcp")]
        [InlineData("ipc")]
        public void PushPull_SmallHighWatermarkMillionMessages_EverySequenceNumberArrivesInOrder(string transport) => PushPull(transport, 1_000_000);

        [Fact]
        public void PubSub_SubscriberNotReading_PublisherNeverBlocksAndDropsAtHighWatermark()
        {
            const int Sent = 200_000;
            using Context context = Zmq.NewContext();
            using Socket pub = Zmq.NewSocket(context, SocketType.Pub);
            using Socket sub = Zmq.NewSocket(context, SocketType.Sub);
            pub.SendHighWatermark = 100;
            sub.ReceiveHighWatermark = 100;
            sub.Subscribe(new byte[] { 0x42 });
            sub.Subscribe("probe");
            sub.Connect(Transports.BindAnywhere(pub, "tcp"));
            Subscriptions.WaitUntilDelivered(pub, sub, "probe");
            while (sub.TryRecv(new byte[16], out _))
            {
            }

            pub.SendTimeout = System.Threading.Timeout.InfiniteTimeSpan; // if PUB ever blocked, this would hang: bounded by the join below
            double slowestSendMs = 0;
            BlockingCall publisher = BlockingCall.Start(() =>
            {
                var frame = new byte[9];
                frame[0] = 0x42;
                for (long seq = 0; seq < Sent; seq++)
                {
                    BitConverter.TryWriteBytes(frame.AsSpan(1), seq);
                    long start = Stopwatch.GetTimestamp();
                    pub.Send(frame);
                    slowestSendMs = Math.Max(slowestSendMs, (Stopwatch.GetTimestamp() - start) * 1000.0 / Stopwatch.Frequency);
                }
            });
            Assert.True(publisher.Join(TestTimeouts.Expected), $"the publisher did not get through {Sent} sends in {TestTimeouts.Expected}: it blocked");
            Assert.Null(publisher.Exception);
            Assert.True(slowestSendMs < 1000, $"one send took {slowestSendMs:F1} ms");

            // What the subscriber gets: fewer than were sent (the rest were dropped at the high-water marks), in order.
            sub.ReceiveTimeout = TestTimeouts.Absent;
            var buffer = new byte[16];
            long received = 0, last = -1;
            while (true)
            {
                try
                {
                    sub.Recv(buffer);
                }
                catch (ZmqException e) when (e.IsTimeout)
                {
                    break;
                }

                long seq = BitConverter.ToInt64(buffer, 1);
                Assert.True(seq > last, $"sequence {seq} after {last}");
                last = seq;
                received++;
            }

            Assert.True(received > 0, "nothing arrived");
            Assert.True(received < Sent, $"all {Sent} arrived: the high-water marks never dropped anything, so the test proved nothing");
        }

        private static void PushPull(string transport, int count)
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            pull.ReceiveHighWatermark = 10;
            push.SendHighWatermark = 10;
            push.Connect(Transports.BindAnywhere(pull, transport));
            BlockingCall sender = BlockingCall.Start(() =>
            {
                var frame = new byte[8];
                for (long seq = 0; seq < count; seq++)
                {
                    BitConverter.TryWriteBytes(frame, seq);
                    push.Send(frame);
                }
            });

            var buffer = new byte[16];
            long expected = 0;
            var stall = Stopwatch.StartNew();
            while (expected < count)
            {
                RecvResult r = pull.Recv(buffer); // bounded by the socket's 10 s receive timeout
                Assert.Equal(8, r.MessageSize);
                long seq = BitConverter.ToInt64(buffer, 0);
                if (seq != expected)
                {
                    Assert.Fail($"{transport}: expected sequence {expected}, got {seq} (a gap or reordering)");
                }

                expected++;
                if (expected % 1000 == 0 && stall.Elapsed.TotalMilliseconds > 1)
                {
                    // Let the sender run into the high-water mark now and then, so back-pressure really happens.
                    System.Threading.Thread.Sleep(1);
                    stall.Restart();
                }
            }

            Assert.True(sender.Join(TestTimeouts.Expected));
            Assert.Null(sender.Exception);
            Assert.False(pull.TryRecv(buffer, out _), "a message beyond the last sequence number arrived");
        }
    }
}
