using System;
using System.Buffers;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.ZeroCopy
{
    /// <summary>
    /// Every path documented as allocation-free, measured with <see cref="GC.GetAllocatedBytesForCurrentThread"/> over batches
    /// of 40,000 messages after a warm-up (<see cref="SteadyAllocation"/>). Sender and receiver are the same thread (PAIR over inproc, one message in flight), so the
    /// count covers both sides, including zero-copy release callbacks, which inproc runs on the receiving thread.
    /// </summary>
    [Collection(IsolatedCollection.Name)]
    public class AllocationTests : ZeroCopyMachineryTest
    {
        private const int Messages = 40_000; // per batch (SteadyAllocation)

        [Fact]
        public void SpanSendAndRecv_SteadyState_AllocatesNothing() =>
            AssertNoAllocation((push, pull, payload, scratch) =>
            {
                push.Send(payload.Span);
                Check(payload.Length, pull.Recv(scratch).BytesWritten);
            });

        [Fact]
        public void StringSendAndRecvIntoSpan_SteadyState_AllocatesNothing() =>
            AssertNoAllocation((push, pull, payload, scratch) =>
            {
                push.Send("a short text message");
                Check(20, pull.Recv(scratch).BytesWritten);
            });

        [Fact]
        public void ReusedMessageRecv_SteadyState_AllocatesNothing()
        {
            using var message = new Message();
            AssertNoAllocation((push, pull, payload, scratch) =>
            {
                push.Send(payload.Span);
                pull.Recv(message);
                Check(payload.Length, message.Size);
            });
        }

        [Fact]
        public void ArrayPoolSendAndPooledRecv_SteadyState_AllocatesNothing() =>
            AssertNoAllocation((push, pull, payload, scratch) =>
            {
                byte[] rented = ArrayPool<byte>.Shared.Rent(payload.Length);
                payload.Span.CopyTo(rented);
                push.SendZeroCopy(rented, payload.Length, ArrayPool<byte>.Shared);
                using PooledBuffer received = pull.RecvPooled();
                Check(payload.Length, received.Length);
            });

        [Fact]
        public void ZeroCopyMemorySend_SteadyState_AllocatesNothing()
        {
            using var message = new Message();
            AssertNoAllocation((push, pull, payload, scratch) =>
            {
                push.SendZeroCopy(payload);
                pull.Recv(message);
                Check(payload.Length, message.Size);
            });
        }

        [Fact]
        public void BufferWriterRecv_ReusedWriter_AllocatesNothing()
        {
            var writer = new ArrayBufferWriter<byte>(4096);
            AssertNoAllocation((push, pull, payload, scratch) =>
            {
                push.Send(payload.Span);
                writer.Clear();
                Check(payload.Length, pull.Recv(writer));
            });
        }

        /// <summary>An allocation-free equality check (xunit's Assert.Equal allocates per call, which would hide the result).</summary>
        private static void Check(int expected, int actual)
        {
            if (expected != actual)
            {
                throw new Xunit.Sdk.XunitException($"expected {expected}, got {actual}");
            }
        }

        /// <summary>
        /// A socket makes its wake-up handle (one small object) the first time a receive really waits; under load that first
        /// wait can land inside the measured loop. One timed-out receive makes it up front, so only the steady state is measured.
        /// </summary>
        private static void MakeWakeUpHandle(Socket socket, byte[] scratch)
        {
            socket.ReceiveTimeout = TimeSpan.FromMilliseconds(1);
            Assert.Throws<ZmqException>(() => socket.Recv(scratch));
            socket.ReceiveTimeout = TestTimeouts.Expected;
        }

        private delegate void RoundTrip(Socket push, Socket pull, ReadOnlyMemory<byte> payload, byte[] scratch);

        private static void AssertNoAllocation(RoundTrip roundTrip)
        {
            foreach (int size in new[] { 64, 1024 })
            {
                using Context context = Zmq.NewContext();
                using Socket pull = Zmq.NewSocket(context, SocketType.Pair);
                using Socket push = Zmq.NewSocket(context, SocketType.Pair);
                push.Connect(Transports.BindAnywhere(pull, "inproc"));
                ReadOnlyMemory<byte> payload = new byte[size];
                byte[] scratch = new byte[size + 1];
                MakeWakeUpHandle(pull, scratch);
                for (int i = 0; i < 2000; i++)
                {
                    roundTrip(push, pull, payload, scratch);
                }

                long allocated = SteadyAllocation.Least(() =>
                {
                    for (int i = 0; i < Messages; i++)
                    {
                        roundTrip(push, pull, payload, scratch);
                    }
                });
                Assert.True(allocated == 0, $"{allocated} bytes allocated over {Messages} messages of {size} B (the least of {SteadyAllocation.Batches} batches)");
            }
        }
    }
}
