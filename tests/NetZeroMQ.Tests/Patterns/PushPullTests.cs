using System;
using System.Buffers.Binary;
using System.Collections.Generic;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Patterns
{
    public class PushPullTests
    {
        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Send_ManyMessages_AllArriveInOrder(string transport)
        {
            const int Count = 20_000;
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, transport));

            // Sends block at the high-water mark, so the receiver runs alongside on its own thread.
            Exception? receiverFailure = null;
            bool extra = false;
            var receiver = new System.Threading.Thread(() =>
            {
                try
                {
                    var buffer = new byte[8];
                    for (int i = 0; i < Count; i++)
                    {
                        RecvResult result = pull.Recv(buffer);
                        Assert.Equal(new RecvResult(4, 4), result);
                        Assert.Equal(i, BinaryPrimitives.ReadInt32LittleEndian(buffer));
                    }

                    extra = pull.TryRecvBytes(out _);
                }
                catch (Exception e)
                {
                    receiverFailure = e;
                }
            });
            receiver.Start();

            var frame = new byte[4];
            for (int i = 0; i < Count && receiver.IsAlive; i++)
            {
                BinaryPrimitives.WriteInt32LittleEndian(frame, i);
                push.Send(frame);
            }

            Assert.True(receiver.Join(TestTimeouts.Expected * 3), "the receiver did not finish");
            Assert.Null(receiverFailure);
            Assert.False(extra, "a message arrived beyond the ones sent");
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Send_OnePushTwoPulls_CountsBalanceAndEachStreamIsOrdered(string transport)
        {
            const int Count = 1000;
            using Context context = Zmq.NewContext();
            using Socket pullA = Zmq.NewSocket(context, SocketType.Pull);
            using Socket pullB = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);

            // Connecting (not binding) the PUSH creates both pipes at once, so round-robin spreads from the first message.
            push.Connect(Transports.BindAnywhere(pullA, transport));
            push.Connect(Transports.BindAnywhere(pullB, transport));
            for (int i = 0; i < Count; i++)
            {
                push.Send(i.ToString(System.Globalization.CultureInfo.InvariantCulture));
            }

            var fromA = new List<int>();
            var fromB = new List<int>();
            while (fromA.Count + fromB.Count < Count)
            {
                bool any = false;
                if (pullA.TryRecvString(out string? a))
                {
                    fromA.Add(int.Parse(a, System.Globalization.CultureInfo.InvariantCulture));
                    any = true;
                }

                if (pullB.TryRecvString(out string? b))
                {
                    fromB.Add(int.Parse(b, System.Globalization.CultureInfo.InvariantCulture));
                    any = true;
                }

                if (!any)
                {
                    // Nothing waiting on either: block (bounded) on whichever still lacks its share.
                    Socket slow = fromA.Count < Count / 2 ? pullA : pullB;
                    (slow == pullA ? fromA : fromB).Add(int.Parse(slow.RecvString(), System.Globalization.CultureInfo.InvariantCulture));
                }
            }

            Assert.Equal(Count, fromA.Count + fromB.Count);
            Assert.Equal(Count / 2, fromA.Count);
            Assert.Equal(Count / 2, fromB.Count);
            AssertStrictlyIncreasing(fromA);
            AssertStrictlyIncreasing(fromB);
            var all = new HashSet<int>(fromA);
            all.UnionWith(fromB);
            Assert.Equal(Count, all.Count);
            Assert.False(pullA.TryRecvBytes(out _));
            Assert.False(pullB.TryRecvBytes(out _));
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Recv_TwoPushesOnePull_FairQueuedAndEachSenderOrdered(string transport)
        {
            const int PerSender = 500;
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket pushA = Zmq.NewSocket(context, SocketType.Push);
            using Socket pushB = Zmq.NewSocket(context, SocketType.Push);
            string endpoint = Transports.BindAnywhere(pull, transport);
            pushA.Connect(endpoint);
            pushB.Connect(endpoint);

            for (int i = 0; i < PerSender; i++)
            {
                pushA.Send("A" + i);
                pushB.Send("B" + i);
            }

            int nextA = 0;
            int nextB = 0;
            for (int i = 0; i < 2 * PerSender; i++)
            {
                string text = pull.RecvString();
                int n = int.Parse(text.AsSpan(1), provider: System.Globalization.CultureInfo.InvariantCulture);
                if (text[0] == 'A')
                {
                    Assert.Equal(nextA++, n);
                }
                else
                {
                    Assert.Equal('B', text[0]);
                    Assert.Equal(nextB++, n);
                }
            }

            Assert.Equal(PerSender, nextA);
            Assert.Equal(PerSender, nextB);
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Send_LargeFrame_ArrivesIntact(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, transport));
            var payload = new byte[3 * 1024 * 1024 + 17];
            new Random(42).NextBytes(payload);

            push.Send(payload);
            byte[] received = pull.RecvBytes();

            Assert.Equal(payload.Length, received.Length);
            Assert.True(payload.AsSpan().SequenceEqual(received));
        }

        private static void AssertStrictlyIncreasing(List<int> values)
        {
            for (int i = 1; i < values.Count; i++)
            {
                Assert.True(values[i - 1] < values[i], "out of order at " + i + ": " + values[i - 1] + " then " + values[i]);
            }
        }
    }
}
