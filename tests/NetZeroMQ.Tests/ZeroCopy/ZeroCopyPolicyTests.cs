using System;
using System.Buffers;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.ZeroCopy
{
    /// <summary>Small zero-copy payloads are copied and released at once; larger ones are handed to libzmq.</summary>
    [Collection(IsolatedCollection.Name)]
    public class ZeroCopyPolicyTests : IDisposable
    {
        private readonly int _saved = ZeroCopyPolicy.CopyThreshold;

        public void Dispose() => ZeroCopyPolicy.CopyThreshold = _saved;

        [Fact]
        public void CopyThreshold_Default_Is1024AndNegativeIsRejected()
        {
            Assert.Equal(1024, ZeroCopyPolicy.DefaultCopyThreshold);
            Assert.Equal(ZeroCopyPolicy.DefaultCopyThreshold, ZeroCopyPolicy.CopyThreshold);
            Assert.Throws<ArgumentOutOfRangeException>(() => ZeroCopyPolicy.CopyThreshold = -1);
        }

        [Theory]
        [InlineData("inproc")]
        [InlineData("tcp")]
        public void SendZeroCopy_AtThreshold_ReleasedBeforeReturningAndBytesArrive(string transport)
        {
            var counter = new ReleaseCounter(2);
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, transport));
            int outstanding = ZeroCopyDiagnostics.OutstandingBuffers;

            push.SendZeroCopy(counter.Allocate(0, 64), 64, counter.Release);
            Assert.Equal(1, counter.ReleasesOf(0));
            push.SendZeroCopy(counter.Allocate(1, ZeroCopyPolicy.CopyThreshold), ZeroCopyPolicy.CopyThreshold, counter.Release);
            Assert.Equal(1, counter.ReleasesOf(1));
            Assert.Equal(outstanding, ZeroCopyDiagnostics.OutstandingBuffers);

            byte[] first = pull.RecvBytes();
            Assert.Equal(64, first.Length);
            Assert.Equal(0, BitConverter.ToInt32(first));
            Assert.Equal((byte)(0 + 63), first[63]);
            byte[] second = pull.RecvBytes();
            Assert.Equal(ZeroCopyPolicy.CopyThreshold, second.Length);
            Assert.Equal(1, BitConverter.ToInt32(second));
            Assert.Equal(0, counter.CountNotExactlyOnce());
        }

        [Fact]
        public void SendZeroCopy_AboveThreshold_ReleasedOnlyWhenLibzmqLetsGo()
        {
            var counter = new ReleaseCounter(1);
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            int size = ZeroCopyPolicy.CopyThreshold + 1;

            push.SendZeroCopy(counter.Allocate(0, size), size, counter.Release);
            Assert.Equal(0, counter.ReleasesOf(0));
            using (var message = new Message())
            {
                pull.Recv(message);
                Assert.Equal(size, message.Size);
                Assert.Equal(0, counter.ReleasesOf(0)); // inproc: the receiver's message still holds the buffer
            }

            Assert.Equal(1, counter.ReleasesOf(0));
        }

        [Fact]
        public void MessageZeroCopy_SmallPooledArray_ReturnedAtOnceAndContentKept()
        {
            var pool = new CountingPool();
            byte[] array = pool.Rent(16);
            array.AsSpan(0, 16).Fill(7);
            using Message message = Message.ZeroCopy(array, 16, pool);
            Assert.Equal(1, pool.Returned);
            array.AsSpan().Clear(); // the pool's array may be reused now: the message has its own copy
            Assert.Equal(16, message.Size);
            Assert.All(message.ToArray(), b => Assert.Equal(7, b));
        }

        [Fact]
        public void CopyThresholdZero_SmallPayload_HandedToLibzmq()
        {
            ZeroCopyPolicy.CopyThreshold = 0;
            var counter = new ReleaseCounter(1);
            var message = new Message(counter.Allocate(0, 64), 64, counter.Release);
            Assert.Equal(0, counter.ReleasesOf(0));
            message.Dispose();
            Assert.Equal(1, counter.ReleasesOf(0));
        }

        private sealed class CountingPool : ArrayPool<byte>
        {
            public int Returned;

            public override byte[] Rent(int minimumLength) => new byte[minimumLength];

            public override void Return(byte[] array, bool clearArray = false) => Interlocked.Increment(ref Returned);
        }
    }
}
