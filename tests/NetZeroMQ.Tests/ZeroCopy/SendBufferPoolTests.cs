using System;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.ZeroCopy
{
    /// <summary>
    /// Large span sends copy into pooled native buffers that libzmq gives back through its free function: the bytes arrive
    /// intact, every buffer comes back (sent and received, not sent, dropped at close), and frames outside the pooled sizes
    /// do not touch the pool.
    /// </summary>
    [Collection(IsolatedCollection.Name)]
    public class SendBufferPoolTests
    {
        private static byte[] Pattern(int length, int seed)
        {
            var bytes = new byte[length];
            for (int i = 0; i < length; i++)
            {
                bytes[i] = (byte)(i * 7 + seed);
            }

            return bytes;
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void LargeSpanSend_BytesArriveAndEveryBufferComesBack(string transport)
        {
            long before = LibraryInternals.PoolOutstanding;
            int[] sizes = { SendBufferPool.MinimumSize, SendBufferPool.MinimumSize + 1, 65536, SendBufferPool.MaximumSize };
            using (Context context = Zmq.NewContext())
            using (Socket pull = Zmq.NewSocket(context, SocketType.Pull))
            using (Socket push = Zmq.NewSocket(context, SocketType.Push))
            {
                pull.ReceiveTimeout = TestTimeouts.Expected;
                push.Connect(Transports.BindAnywhere(pull, transport));
                for (int round = 0; round < 3; round++)
                {
                    for (int i = 0; i < sizes.Length; i++)
                    {
                        push.Send(Pattern(sizes[i], round + i));
                    }

                    for (int i = 0; i < sizes.Length; i++)
                    {
                        byte[] received = pull.RecvBytes();
                        Assert.Equal(Pattern(sizes[i], round + i), received);
                    }
                }
            }

            Assert.True(Eventually.True(() => LibraryInternals.PoolOutstanding == before), "outstanding: " + LibraryInternals.PoolOutstanding + ", before: " + before);
        }

        [Fact]
        public void LargeSpanSend_HeldByLibzmqUntilReceived()
        {
            long before = LibraryInternals.PoolOutstanding;
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            pull.ReceiveTimeout = TestTimeouts.Expected;
            push.Connect(Transports.BindAnywhere(pull, "inproc"));

            push.Send(Pattern(65536, 1));
            Assert.Equal(before + 1, LibraryInternals.PoolOutstanding);

            // A span receive copies the frame out and closes it: the buffer is back when Recv returns.
            var buffer = new byte[65536];
            Assert.Equal(65536, pull.Recv(buffer).BytesWritten);
            Assert.Equal(Pattern(65536, 1), buffer);
            Assert.Equal(before, LibraryInternals.PoolOutstanding);
        }

        [Fact]
        public void LargeSpanTrySend_WouldBlock_ReturnsFalseAndGivesTheBufferBack()
        {
            long before = LibraryInternals.PoolOutstanding;
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push);

            Assert.False(push.TrySend(Pattern(65536, 2)));
            Assert.False(push.TrySend(Pattern(65536, 2), TimeSpan.FromMilliseconds(20)));

            Assert.Equal(before, LibraryInternals.PoolOutstanding);
        }

        [Fact]
        public void LargeSpanSend_DroppedAtClose_BufferComesBack()
        {
            long before = LibraryInternals.PoolOutstanding;
            using (Context context = Zmq.NewContext())
            using (Socket pull = Zmq.NewSocket(context, SocketType.Pull))
            using (Socket push = Zmq.NewSocket(context, SocketType.Push))
            {
                push.Linger = TimeSpan.Zero;
                push.Connect(Transports.BindAnywhere(pull, "tcp"));
                pull.ReceiveTimeout = TestTimeouts.Expected;
                push.Send(Pattern(1000, 3));
                Assert.Equal(1000, pull.RecvBytes().Length);
                for (int i = 0; i < 20; i++)
                {
                    push.Send(Pattern(SendBufferPool.MaximumSize, i));
                }
            }

            Assert.True(Eventually.True(() => LibraryInternals.PoolOutstanding == before), "outstanding: " + LibraryInternals.PoolOutstanding + ", before: " + before);
        }

        [Fact]
        public void SpanSend_OutsidePooledSizes_DoesNotUseThePool()
        {
            long before = LibraryInternals.PoolOutstanding;
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            pull.ReceiveTimeout = TestTimeouts.Expected;
            push.Connect(Transports.BindAnywhere(pull, "inproc"));

            push.Send(Pattern(SendBufferPool.MinimumSize - 1, 4));
            push.Send(Pattern(SendBufferPool.MaximumSize + 1, 5));
            Assert.Equal(before, LibraryInternals.PoolOutstanding);

            Assert.Equal(Pattern(SendBufferPool.MinimumSize - 1, 4), pull.RecvBytes());
            Assert.Equal(Pattern(SendBufferPool.MaximumSize + 1, 5), pull.RecvBytes());
        }
    }
}
