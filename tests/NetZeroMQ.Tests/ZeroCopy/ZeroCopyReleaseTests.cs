using System;
using System.Buffers;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.ZeroCopy
{
    [Collection(IsolatedCollection.Name)]
    public class ZeroCopyReleaseTests : ZeroCopyMachineryTest
    {
        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void SendZeroCopy_NativeBuffer_ArrivesIntactAndIsReleasedOnce(string transport)
        {
            var counter = new ReleaseCounter(100);
            using (Context context = Zmq.NewContext())
            using (Socket pull = Zmq.NewSocket(context, SocketType.Pull))
            using (Socket push = Zmq.NewSocket(context, SocketType.Push))
            {
                push.Connect(Transports.BindAnywhere(pull, transport));
                using var received = new Message();
                for (int id = 0; id < 100; id++)
                {
                    push.SendZeroCopy(counter.Allocate(id, 1000), 1000, counter.Release);
                    pull.Recv(received);
                    Assert.Equal(1000, received.Size);
                    Assert.Equal(id, BitConverter.ToInt32(received.Data));
                    Assert.Equal((byte)(id + 999), received.Data[999]);
                }
            }

            Assert.True(Eventually.True(() => counter.Total == 100), "releases: " + counter.Total);
            Assert.Equal(0, counter.CountNotExactlyOnce());
        }

        [Fact]
        public void Message_NativeBufferDisposedUnsent_ReleasedOnceByDispose()
        {
            var counter = new ReleaseCounter(1);
            var message = new Message(counter.Allocate(0, 64), 64, counter.Release);
            Assert.Equal(0, counter.ReleasesOf(0));
            message.Dispose();
            Assert.Equal(1, counter.ReleasesOf(0));
            message.Dispose();
            Assert.Equal(1, counter.ReleasesOf(0));
        }

        [Fact]
        public void Message_CopiedThenBothDisposed_ReleasedOnceAfterTheLast()
        {
            var counter = new ReleaseCounter(1);
            var original = new Message(counter.Allocate(0, 64), 64, counter.Release);
            var copy = new Message();
            copy.CopyFrom(original);
            Assert.True(copy.IsShared);
            original.Dispose();
            Assert.Equal(0, counter.ReleasesOf(0));
            Assert.Equal(0, BitConverter.ToInt32(copy.Data));
            copy.Dispose();
            Assert.Equal(1, counter.ReleasesOf(0));
        }

        [Fact]
        public void TrySend_NoPeer_MessageKeepsBufferUntilDisposed()
        {
            var counter = new ReleaseCounter(1);
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            var message = new Message(counter.Allocate(0, 64), 64, counter.Release);
            Assert.False(push.TrySend(message));
            Assert.Equal(64, message.Size);
            Assert.Equal(0, counter.ReleasesOf(0));
            message.Dispose();
            Assert.Equal(1, counter.ReleasesOf(0));
        }

        [Fact]
        public void TrySendZeroCopy_WouldBlock_ReleasesBeforeReturningFalse()
        {
            var counter = new ReleaseCounter(1);
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            Assert.False(push.TrySendZeroCopy(counter.Allocate(0, 64), 64, counter.Release));
            Assert.Equal(1, counter.ReleasesOf(0));
        }

        [Fact]
        public void SendZeroCopy_DisposedSocket_ReleasesAndThrowsObjectDisposed()
        {
            var counter = new ReleaseCounter(1);
            using Context context = Zmq.NewContext();
            Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Dispose();
            Assert.Throws<ObjectDisposedException>(() => push.SendZeroCopy(counter.Allocate(0, 64), 64, counter.Release));
            Assert.Equal(1, counter.ReleasesOf(0));
        }

        [Fact]
        public void SendZeroCopy_InvalidArguments_ThrowBeforeTakingOwnership()
        {
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            Assert.Throws<ArgumentException>(() => push.SendZeroCopy(IntPtr.Zero, 10, _ => { }));
            Assert.Throws<ArgumentNullException>(() => push.SendZeroCopy(new IntPtr(1), 10, null!));
            Assert.Throws<ArgumentOutOfRangeException>(() => push.SendZeroCopy(new byte[4], 5, ArrayPool<byte>.Shared));
            Assert.Throws<ArgumentOutOfRangeException>(() => push.SendZeroCopy(MemoryPool<byte>.Shared.Rent(4), -1));
        }

        [Fact]
        public void SendZeroCopy_UnknownFlags_ThrowBeforeTakingOwnership()
        {
            const SendFlags Unknown = (SendFlags)0x40;
            var counter = new ReleaseCounter(1);
            var pool = new CountingPool();
            var owner = new CountingOwner();
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            IntPtr buffer = counter.Allocate(0, 64);

            Assert.Equal("flags", Assert.Throws<ArgumentOutOfRangeException>(() => push.SendZeroCopy(buffer, 64, counter.Release, Unknown)).ParamName);
            Assert.Equal("flags", Assert.Throws<ArgumentOutOfRangeException>(() => push.SendZeroCopy(new byte[64], 64, pool, Unknown)).ParamName);
            Assert.Equal("flags", Assert.Throws<ArgumentOutOfRangeException>(() => push.SendZeroCopy(owner, 64, Unknown)).ParamName);

            // Like every other argument exception, these leave the buffers with the caller: nothing was released or returned.
            Assert.Equal(0, counter.ReleasesOf(0));
            Assert.Equal(0, pool.Returned);
            Assert.Equal(0, owner.Disposals);
            counter.Release(buffer);
        }

        private sealed class CountingPool : ArrayPool<byte>
        {
            public int Returned { get; private set; }

            public override byte[] Rent(int minimumLength) => new byte[minimumLength];

            public override void Return(byte[] array, bool clearArray = false) => Returned++;
        }

        private sealed class CountingOwner : IMemoryOwner<byte>
        {
            public int Disposals { get; private set; }

            public Memory<byte> Memory { get; } = new byte[64];

            public void Dispose() => Disposals++;
        }

        [Fact]
        public void ReleaseCallback_Throws_IsReportedAndNotFatal()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "tcp"));
            Exception? reported = null;
            Action<Exception> handler = e => Interlocked.CompareExchange(ref reported, e, null);
            ZeroCopyDiagnostics.ReleaseFailed += handler;
            try
            {
                long before = ZeroCopyDiagnostics.ReleaseFailureCount;
                IntPtr buffer = System.Runtime.InteropServices.Marshal.AllocHGlobal(16);
                push.SendZeroCopy(buffer, 16, p =>
                {
                    System.Runtime.InteropServices.Marshal.FreeHGlobal(p);
                    throw new InvalidOperationException("release failed on purpose");
                });
                Assert.Equal(16, pull.RecvBytes().Length);
                Assert.True(Eventually.True(() => ZeroCopyDiagnostics.ReleaseFailureCount == before + 1));
                Assert.IsType<InvalidOperationException>(Volatile.Read(ref reported));

                // The I/O thread survived: the socket still works.
                push.Send("after");
                Assert.Equal("after", pull.RecvString());
            }
            finally
            {
                ZeroCopyDiagnostics.ReleaseFailed -= handler;
            }
        }

        [Fact]
        public void Context_DisposedWithZeroCopyInFlight_ReleasesEveryBuffer()
        {
            var counter = new ReleaseCounter(50);
            using (Context context = Zmq.NewContext())
            {
                Socket push = Zmq.NewSocket(context, SocketType.Push);
                push.Connect("tcp://127.0.0.1:1"); // nobody listens: the messages stay queued
                for (int id = 0; id < 50; id++)
                {
                    push.SendZeroCopy(counter.Allocate(id, 256), 256, counter.Release);
                }

                Assert.Equal(0, counter.Total);
            }

            Assert.True(Eventually.True(() => counter.Total == 50), "releases: " + counter.Total);
            Assert.Equal(0, counter.CountNotExactlyOnce());
        }

        // EveryPath_UnderGcStress moved to Reliability/ZeroCopyStressTests, extended with the managed paths and counters.
    }
}
