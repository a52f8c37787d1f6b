using System;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Async
{
    /// <summary>
    /// How an async operation starts to wait and is woken: it reads ZMQ_EVENTS before it attempts (AsyncOperation.TryAdvance),
    /// so it waits only after ZMQ_EVENTS said "not ready", and a wake-up of the descriptor that brought no message leaves it
    /// waiting. Each case checks what arrived, against the reactor in use (the portable one with the test run's switch).
    /// </summary>
    public class AsyncWaitTests
    {
        [Theory(Timeout = TestTimeouts.TestMilliseconds)]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public async Task RecvAsync_MessagesRacingTheStartOfEachWait_EveryOneArrivesOnceInOrder(string transport)
        {
            // The sender sends each message after a varying spin, so over the run messages land before the receive's first
            // attempt, between that attempt and its readiness check, and after it armed the descriptor.
            const int Count = 3_000;
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, transport));

            var sender = new Thread(() =>
            {
                var payload = new byte[4];
                for (int i = 0; i < Count; i++)
                {
                    Thread.SpinWait((i * 7919) % 4_000);
                    BitConverter.TryWriteBytes(payload, i);
                    push.Send(payload);
                }
            })
            { IsBackground = true };
            sender.Start();

            using var message = new Message();
            for (int i = 0; i < Count; i++)
            {
                await pull.RecvAsync(message).AsTask().WaitAsync(TestTimeouts.Expected);
                Assert.Equal(4, message.Size);
                Assert.Equal(i, BitConverter.ToInt32(message.Data));
            }

            Assert.True(sender.Join(TestTimeouts.Expected));
            Assert.False(pull.TryRecv(message), "a message beyond the sent ones arrived");
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task RecvAsync_DescriptorWokenWithoutAMessage_StaysPendingThenCompletesWithTheMessage()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            string endpoint = Transports.BindAnywhere(pull, "tcp");
            var buffer = new byte[64];
            ValueTask<RecvResult> pending = pull.RecvAsync(buffer);
            Assert.False(pending.IsCompleted);

            // A peer connecting sends the PULL's socket commands (a new pipe), which signal its descriptor: the reactor wakes,
            // finds ZMQ_EVENTS without a message, and arms again.
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(endpoint);
            await Task.Delay(TestTimeouts.Absent);
            Assert.False(pending.IsCompleted, "the receive completed without a message");

            push.Send("after the wake-up"u8);
            RecvResult result = await pending.AsTask().WaitAsync(TestTimeouts.Expected);
            Assert.Equal("after the wake-up", System.Text.Encoding.ASCII.GetString(buffer, 0, result.BytesWritten));
            Assert.False(result.IsTruncated);
        }

        [Theory(Timeout = TestTimeouts.TestMilliseconds)]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public async Task SendAsync_QueueFull_WaitsUntilThePeerReceivesThenSendsOnce(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.SendHighWatermark = 1;
            pull.ReceiveHighWatermark = 1;

            // Kernel buffers of a fixed size: left to the kernel, they grow while the test fills them (tcp autotuning), so a
            // loaded machine could give the waiting send room after the fill below had found none (seen once, under load 10).
            push.SetOption(SocketOptions.SendBufferSize, 8192);
            pull.SetOption(SocketOptions.ReceiveBufferSize, 8192);
            push.Connect(Transports.BindAnywhere(pull, transport));

            // Fill every queue on the way (libzmq's pipes and, over ipc and tcp, the kernel's buffers) until a send would block.
            byte[] payload = new byte[1024];
            int queued = 0;
            var clock = System.Diagnostics.Stopwatch.StartNew();
            while (clock.Elapsed < TestTimeouts.Expected)
            {
                if (push.TrySend(payload))
                {
                    queued++;
                    clock.Restart();
                }
                else if (clock.Elapsed > TestTimeouts.Absent)
                {
                    break; // nothing went out for a while: the way is full
                }
            }

            payload[0] = 0xEE;
            ValueTask send = push.SendAsync(payload);
            await Task.Delay(TestTimeouts.Absent);
            Assert.False(send.IsCompleted, "the send completed while every queue was full");

            // Receive until the waiting send's frame (marked 0xEE) arrives: it comes after every queued one, exactly once.
            var frame = new byte[1024];
            int received = 0;
            while (true)
            {
                RecvResult result = await pull.RecvAsync(frame).AsTask().WaitAsync(TestTimeouts.Expected);
                Assert.Equal(1024, result.MessageSize);
                received++;
                if (frame[0] == 0xEE)
                {
                    break;
                }
            }

            await send.AsTask().WaitAsync(TestTimeouts.Expected);
            Assert.Equal(queued + 1, received);
            Assert.False(pull.TryRecv(frame, out _), "a frame beyond the sent ones arrived");
        }
    }
}
