using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Patterns
{
    public class PairTests
    {
        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void SendRecv_BothDirections_MessagesArriveInOrder(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket left = Zmq.NewSocket(context, SocketType.Pair);
            using Socket right = Zmq.NewSocket(context, SocketType.Pair);
            right.Connect(Transports.BindAnywhere(left, transport));

            for (int i = 0; i < 50; i++)
            {
                left.Send("L" + i);
                right.Send("R" + i);
            }

            for (int i = 0; i < 50; i++)
            {
                Assert.Equal("L" + i, right.RecvString());
                Assert.Equal("R" + i, left.RecvString());
            }

            Assert.False(left.TryRecvBytes(out _));
            Assert.False(right.TryRecvBytes(out _));
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Send_RightAfterConnect_QueuedUntilTheConnectionIsUp(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket left = Zmq.NewSocket(context, SocketType.Pair);
            using Socket right = Zmq.NewSocket(context, SocketType.Pair);

            // The connecting side queues at once (its pipe exists from Connect), even before the binder accepts.
            string endpoint = Transports.BindAnywhere(left, transport);
            right.Connect(endpoint);
            right.Send("early");

            Assert.Equal("early", left.RecvString());
        }

        [Fact]
        public void Send_UnconnectedPair_WouldBlock()
        {
            using Context context = Zmq.NewContext();
            using Socket pair = Zmq.NewSocket(context, SocketType.Pair);
            Transports.BindAnywhere(pair, "inproc");

            Assert.False(pair.TrySend("nobody is there"));
        }
    }
}
