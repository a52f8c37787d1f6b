using System;
using System.Buffers;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.ZeroCopy
{
    [Collection(IsolatedCollection.Name)]
    public class ManagedZeroCopyTests : ZeroCopyMachineryTest
    {
        /// <summary>A pool that overwrites every array returned to it: a buffer given back before libzmq let go shows up as garbage.</summary>
        private sealed class PoisoningPool : ArrayPool<byte>
        {
            public int Rented;
            public int Returned;

            public override byte[] Rent(int minimumLength)
            {
                Interlocked.Increment(ref Rented);
                return new byte[minimumLength];
            }

            public override void Return(byte[] array, bool clearArray = false)
            {
                array.AsSpan().Fill(0xDD);
                Interlocked.Increment(ref Returned);
            }
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void SendZeroCopy_PoisoningPool_NoMessageCorrupted(string transport)
        {
            const int Count = 20_000;
            const int Size = 300;
            var pool = new PoisoningPool();
            int corrupted = 0;
            using (Context context = Zmq.NewContext())
            using (Socket pull = Zmq.NewSocket(context, SocketType.Pull))
            using (Socket push = Zmq.NewSocket(context, SocketType.Push))
            {
                push.Connect(Transports.BindAnywhere(pull, transport));
                var receiver = new Thread(() =>
                {
                    var buffer = new byte[Size + 1];
                    for (int i = 0; i < Count; i++)
                    {
                        RecvResult result = pull.Recv(buffer);
                        if (result.IsTruncated || result.BytesWritten != Size || buffer[0] != (byte)i || buffer[Size - 1] != (byte)(i * 7))
                        {
                            Interlocked.Increment(ref corrupted);
                        }
                    }
                });
                receiver.Start();
                for (int i = 0; i < Count; i++)
                {
                    byte[] array = pool.Rent(Size);
                    array.AsSpan().Fill((byte)(i * 7));
                    array[0] = (byte)i;
                    push.SendZeroCopy(array, Size, pool);
                }

                Assert.True(receiver.Join(TestTimeouts.Expected * 3), "receiver did not finish");
            }

            Assert.Equal(0, corrupted);
            Assert.True(Eventually.True(() => pool.Returned == Count), "returned: " + pool.Returned);
        }

        [Fact]
        public void SendZeroCopy_MemoryOwner_DisposedOnceAfterSend()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "tcp"));
            var owner = new CountingOwner(128);
            owner.Memory.Span.Fill(42);
            push.SendZeroCopy(owner, 100);
            byte[] received = pull.RecvBytes();
            Assert.Equal(100, received.Length);
            Assert.All(received, b => Assert.Equal(42, b));
            Assert.True(Eventually.True(() => owner.Disposals == 1));
            Thread.Sleep(50);
            Assert.Equal(1, owner.Disposals);
        }

        [Fact]
        public void MessageZeroCopy_ReadOnlyMemory_SentWithoutCopy()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            byte[] payload = new byte[70_000];
            new Random(1).NextBytes(payload);
            using (Message message = Message.ZeroCopy(payload))
            {
                Assert.Equal(payload.Length, message.Size);
                push.Send(message);
                Assert.Equal(0, message.Size);
            }

            int outstanding = ZeroCopyDiagnostics.OutstandingBuffers;
            Assert.True(outstanding >= 1);
            using (var received = new Message())
            {
                pull.Recv(received);
                Assert.True(received.Data.SequenceEqual(payload));
            }

            // inproc: the receiver's close of the message is what releases the buffer.
            Assert.Equal(outstanding - 1, ZeroCopyDiagnostics.OutstandingBuffers);
        }

        [Fact]
        public void RecvPooled_AnySize_ExactLengthAndReturnedOnDispose()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            foreach (int size in new[] { 0, 1, 33, 34, 1000, 100_000 })
            {
                byte[] payload = new byte[size];
                new Random(size).NextBytes(payload);
                push.Send(payload);
                using PooledBuffer buffer = pull.RecvPooled();
                Assert.Equal(size, buffer.Length);
                Assert.True(buffer.Span.SequenceEqual(payload));
            }

            Assert.False(pull.TryRecvPooled(out PooledBuffer? none));
            Assert.Null(none);
        }

        [Fact]
        public void RecvIntoBufferWriter_AppendsWholeFrames()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            push.Send(new byte[] { 1, 2, 3 });
            push.Send(new byte[5000]);
            var writer = new ArrayBufferWriter<byte>();
            Assert.Equal(3, pull.Recv(writer));
            Assert.Equal(5000, pull.Recv(writer));
            Assert.Equal(5003, writer.WrittenCount);
            Assert.Equal(new byte[] { 1, 2, 3 }, writer.WrittenSpan[..3].ToArray());
        }

        private sealed class CountingOwner : IMemoryOwner<byte>
        {
            private readonly byte[] _array;
            public int Disposals;

            public CountingOwner(int size) => _array = new byte[size];

            public Memory<byte> Memory => _array;

            public void Dispose() => Interlocked.Increment(ref Disposals);
        }
    }
}
