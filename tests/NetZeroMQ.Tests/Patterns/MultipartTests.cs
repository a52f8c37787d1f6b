using System;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Patterns
{
    public class MultipartTests
    {
        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Recv_ThreeFramesSentWithSendMore_HasMoreTrueUntilTheLast(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, transport));

            push.Send("header", SendFlags.SendMore);
            push.Send(Array.Empty<byte>(), SendFlags.SendMore);
            push.Send(new byte[] { 1, 2, 3 });
            push.Send("next message");

            Assert.Equal("header", pull.RecvString());
            Assert.True(pull.HasMore);
            Assert.Empty(pull.RecvBytes());
            Assert.True(pull.HasMore);
            Assert.Equal(new byte[] { 1, 2, 3 }, pull.RecvBytes());
            Assert.False(pull.HasMore);
            Assert.Equal("next message", pull.RecvString());
            Assert.False(pull.HasMore);
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void RecvMessage_MultipartFrames_MessageHasMoreMatchesSocketHasMore(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket right = Zmq.NewSocket(context, SocketType.Pair);
            using Socket left = Zmq.NewSocket(context, SocketType.Pair);
            left.Connect(Transports.BindAnywhere(right, transport));
            using (var first = new Message(new byte[] { 10 }))
            using (var second = new Message(new byte[] { 20, 21 }))
            using (var third = new Message(new byte[100]))
            {
                left.Send(first, SendFlags.SendMore);
                left.Send(second, SendFlags.SendMore);
                left.Send(third);
                Assert.Equal(0, first.Size);
                Assert.Equal(0, third.Size);
            }

            using var frame = new Message();
            right.Recv(frame);
            Assert.Equal(new byte[] { 10 }, frame.ToArray());
            Assert.True(frame.HasMore);
            Assert.True(right.HasMore);
            right.Recv(frame);
            Assert.Equal(new byte[] { 20, 21 }, frame.ToArray());
            Assert.True(frame.HasMore);
            Assert.True(right.HasMore);
            right.Recv(frame);
            Assert.Equal(100, frame.Size);
            Assert.False(frame.HasMore);
            Assert.False(right.HasMore);
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Send_ManyMultipartMessagesToTwoPulls_FramesOfOneMessageStayTogether(string transport)
        {
            const int Count = 200;
            using Context context = Zmq.NewContext();
            using Socket pullA = Zmq.NewSocket(context, SocketType.Pull);
            using Socket pullB = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pullA, transport));
            push.Connect(Transports.BindAnywhere(pullB, transport));

            for (int i = 0; i < Count; i++)
            {
                push.Send("msg" + i, SendFlags.SendMore);
                push.Send("part2 of " + i, SendFlags.SendMore);
                push.Send("part3 of " + i);
            }

            // Round-robin is per message, never per frame: every message arrives whole at one receiver.
            int received = 0;
            foreach (Socket pull in new[] { pullA, pullB })
            {
                for (int j = 0; j < Count / 2; j++)
                {
                    string head = pull.RecvString();
                    Assert.True(pull.HasMore);
                    string n = head.Substring(3);
                    Assert.Equal("part2 of " + n, pull.RecvString());
                    Assert.True(pull.HasMore);
                    Assert.Equal("part3 of " + n, pull.RecvString());
                    Assert.False(pull.HasMore);
                    received++;
                }
            }

            Assert.Equal(Count, received);
        }

        [Fact]
        public void Dispose_SenderAfterSendMoreWithoutLastFrame_ReceiverGetsNothing()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            string endpoint = Transports.BindAnywhere(pull, "inproc");
            using (Socket push = Zmq.NewSocket(context, SocketType.Push))
            {
                push.Connect(endpoint);
                push.Send("complete");
                push.Send("incomplete", SendFlags.SendMore);
            }

            Assert.Equal("complete", pull.RecvString());
            Assert.False(pull.HasMore);

            // A message is delivered atomically: the unfinished one is discarded, not delivered half.
            Assert.False(pull.TryRecvString(out string? partial), "received part of an unfinished message: " + partial);
        }
    }
}
