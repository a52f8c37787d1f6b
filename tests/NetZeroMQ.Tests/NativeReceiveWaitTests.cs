using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Text;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// A blocking receive waits first inside libzmq's own blocking receive, bounded by a short slice that the socket's native
    /// <c>ZMQ_RCVTIMEO</c> holds from the first receive that had to wait, then in the wakeable wait. What a caller sees must not
    /// change: frames arriving after many slices are received, the timeout the caller set reads back unchanged and still bounds
    /// the receive (longer or shorter than a slice, set before or after, by every option path), and a Dispose ends a blocked
    /// receive promptly whichever of the two waits it is in.
    /// </summary>
    public class NativeReceiveWaitTests
    {
        /// <summary>Ten slices: a frame sent after this is received by the wakeable wait, after the native one gave up.</summary>
        private static readonly TimeSpan Pause = TimeSpan.FromMilliseconds(10 * Socket.NativeReceiveSliceMs);

        /// <summary>How long "promptly" may take on a loaded machine: far below any timeout that would otherwise end the call.</summary>
        private static readonly TimeSpan Promptly = TimeSpan.FromSeconds(2);

        public static TheoryData<string, bool> TransportsAndTimeouts()
        {
            var data = new TheoryData<string, bool>();
            foreach (string transport in new[] { "inproc", "ipc", "tcp" })
            {
                data.Add(transport, true);
                data.Add(transport, false);
            }

            return data;
        }

        [Theory]
        [MemberData(nameof(TransportsAndTimeouts))]
        public void BlockingRecv_FramesArriveAfterManySlices_EveryOneIsReceived(string transport, bool infiniteTimeout)
        {
            using Context context = Zmq.NewContext();
            using var pull = new Socket(context, SocketType.Pull) { ReceiveTimeout = infiniteTimeout ? Timeout.InfiniteTimeSpan : TestTimeouts.Expected };
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, transport));
            var received = new List<string>();
            BlockingCall call = BlockingCall.Start(() =>
            {
                // Every blocking form, each waiting past the slice: the span and Message forms make the native wait inline,
                // the others through the usual path.
                var buffer = new byte[64];
                using var message = new Message();
                for (int i = 0; i < 4; i++)
                {
                    switch (i)
                    {
                        case 0:
                            RecvResult result = pull.Recv(buffer);
                            received.Add(Encoding.UTF8.GetString(buffer, 0, result.BytesWritten));
                            break;
                        case 1:
                            pull.Recv(message);
                            received.Add(message.GetString());
                            break;
                        case 2:
                            received.Add(pull.RecvString());
                            break;
                        default:
                            received.Add(Encoding.UTF8.GetString(pull.RecvMultipartBytes()[0]));
                            break;
                    }
                }
            });

            for (int i = 0; i < 4; i++)
            {
                Thread.Sleep(Pause);
                push.Send("frame " + i);
            }

            Assert.True(call.Join(TestTimeouts.Expected), "the receives did not end");
            Assert.Null(call.Exception);
            Assert.Equal(new[] { "frame 0", "frame 1", "frame 2", "frame 3" }, received);
        }

        [Fact]
        public void ReceiveTimeout_AfterTheNativeWaitBegan_ReadsBackAsSetAndBoundsTheReceive()
        {
            using Context context = Zmq.NewContext();
            using var pull = new Socket(context, SocketType.Pull) { ReceiveTimeout = Timeout.InfiniteTimeSpan };
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            ReceiveOneSentAfterPause(pull, push); // the first receive that waits puts the slice in place

            AssertReceiveTimeoutReads(pull, -1);

            pull.ReceiveTimeout = TimeSpan.FromMilliseconds(300);
            AssertReceiveTimeoutReads(pull, 300);
            AssertTimesOutAfter(pull, TimeSpan.FromMilliseconds(300));

            pull.SetOption(SocketOptions.ReceiveTimeout, TimeSpan.FromMilliseconds(Socket.NativeReceiveSliceMs / 2));
            AssertReceiveTimeoutReads(pull, Socket.NativeReceiveSliceMs / 2);
            AssertTimesOutAfter(pull, TimeSpan.FromMilliseconds(Socket.NativeReceiveSliceMs / 2));

            pull.SetOptionRaw(SocketOptions.ReceiveTimeout.Id, BitConverter.GetBytes(-1));
            AssertReceiveTimeoutReads(pull, -1);
            ReceiveOneSentAfterPause(pull, push);

            pull.ReceiveTimeout = TimeSpan.Zero;
            var clock = Stopwatch.StartNew();
            Assert.Equal(ZmqError.TryAgain, Assert.Throws<ZmqException>(() => pull.Recv(new byte[8])).Error);
            Assert.True(clock.Elapsed < Promptly, "a zero timeout waited " + clock.Elapsed);
        }

        [Fact]
        public void ReceiveTimeout_InvalidValueAfterTheNativeWaitBegan_IsRejectedAndTheKeptOneStays()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            ReceiveOneSentAfterPause(pull, push);
            pull.ReceiveTimeout = TimeSpan.FromMilliseconds(250);

            // Refused before libzmq, as the typed setter refuses it (issue 31): the kept timeout must not change either way.
            var refused = Assert.Throws<ArgumentOutOfRangeException>(() => pull.SetOptionRaw(SocketOptions.ReceiveTimeout.Id, BitConverter.GetBytes(-7)));
            Assert.Contains("Socket option ReceiveTimeout", refused.Message, StringComparison.Ordinal);

            AssertReceiveTimeoutReads(pull, 250);
            AssertTimesOutAfter(pull, TimeSpan.FromMilliseconds(250));
        }

        [Theory]
        [InlineData(0)]
        [InlineData(3)]
        [InlineData(7)]
        [InlineData(50)]
        public void BlockingRecv_DisposedDuringEitherWait_ThrowsObjectDisposedPromptly(int waitBeforeDisposeMs)
        {
            using Context context = Zmq.NewContext();
            var pull = new Socket(context, SocketType.Pull) { ReceiveTimeout = Timeout.InfiniteTimeSpan };
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            ReceiveOneSentAfterPause(pull, push);

            for (int round = 0; round < 10; round++)
            {
                BlockingCall call = BlockingCall.Start(() => pull.Recv(new byte[8]));
                Thread.Sleep(waitBeforeDisposeMs);
                if (round < 9)
                {
                    push.Send("wake"); // ends this round's receive; the last round is ended by Dispose
                    Assert.True(call.Join(TestTimeouts.Expected), "round " + round + ": the frame did not end the receive");
                    Assert.Null(call.Exception);
                    continue;
                }

                long disposedAt = Stopwatch.GetTimestamp();
                pull.Dispose();
                Assert.True(call.Join(TestTimeouts.Expected), "the receive did not end on Dispose");
                Assert.True(call.EndedAfter(disposedAt) < Promptly, "ended " + call.EndedAfter(disposedAt) + " after Dispose");
                Assert.IsType<ObjectDisposedException>(call.Exception);
            }
        }

        /// <summary>A blocking receive of a frame that is sent only after <see cref="Pause"/>, so that the receive has to wait.</summary>
        private static void ReceiveOneSentAfterPause(Socket pull, Socket push)
        {
            string? text = null;
            BlockingCall call = BlockingCall.Start(() => text = pull.RecvString());
            Thread.Sleep(Pause);
            push.Send("after a pause");
            Assert.True(call.Join(TestTimeouts.Expected), "the receive did not end");
            Assert.Null(call.Exception);
            Assert.Equal("after a pause", text);
        }

        /// <summary>Every way of reading the receive timeout gives <paramref name="milliseconds"/> (-1: infinite).</summary>
        private static void AssertReceiveTimeoutReads(Socket socket, int milliseconds)
        {
            TimeSpan expected = milliseconds < 0 ? Timeout.InfiniteTimeSpan : TimeSpan.FromMilliseconds(milliseconds);
            Assert.Equal(expected, socket.ReceiveTimeout);
            Assert.Equal(expected, socket.GetOption(SocketOptions.ReceiveTimeout));
            var raw = new byte[4];
            Assert.Equal(4, socket.GetOptionRaw(SocketOptions.ReceiveTimeout.Id, raw));
            Assert.Equal(milliseconds, BitConverter.ToInt32(raw, 0));
        }

        /// <summary>A blocking receive with nothing to receive throws <see cref="ZmqError.TryAgain"/>, no sooner than <paramref name="timeout"/>.</summary>
        private static void AssertTimesOutAfter(Socket socket, TimeSpan timeout)
        {
            TimeSpan elapsed = default;
            BlockingCall call = BlockingCall.Start(() =>
            {
                var clock = Stopwatch.StartNew();
                try
                {
                    socket.Recv(new byte[8]);
                }
                finally
                {
                    elapsed = clock.Elapsed;
                }
            });
            Assert.True(call.Join(TestTimeouts.Expected), "the receive did not time out");
            Assert.Equal(ZmqError.TryAgain, Assert.IsType<ZmqException>(call.Exception).Error);
            Assert.True(elapsed >= timeout, "timed out after " + elapsed + ", before " + timeout);
            Assert.True(elapsed < timeout + Promptly, "timed out after " + elapsed);
        }
    }
}
