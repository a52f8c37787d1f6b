using System;
using System.Diagnostics;
using System.Threading;
using NetZeroMQ.Draft;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Draft
{
    /// <summary>
    /// A thread-safe socket's blocking sends and receives wait inside libzmq, in turns of native timeouts that hold slices
    /// from the socket's creation, while the caller's timeouts live in shadows. What a caller sees must not change: the
    /// timeout it set reads back unchanged and bounds the call (longer or shorter than a slice), a blocked sender at the
    /// high-water mark goes on as the receiver drains, and a Dispose ends a blocked call promptly.
    /// </summary>
    public class DraftNativeWaitTests
    {
        /// <summary>How long "promptly" may take on a loaded machine: far below any timeout that would otherwise end the call.</summary>
        private static readonly TimeSpan Promptly = TimeSpan.FromSeconds(2);

        [Fact]
        public void NewThreadSafeSocket_NativeTimeoutsHoldSlices_OptionsReadInfinite()
        {
            using Context context = Zmq.NewContext();
            if (!DraftApi.IsAvailable)
            {
                Assert.Null(DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client));
                return;
            }

            using Socket client = DraftSockets.Create(context, DraftSocketType.Client);

            Assert.Equal(Timeout.InfiniteTimeSpan, client.SendTimeout);
            Assert.Equal(Timeout.InfiniteTimeSpan, client.ReceiveTimeout);
            Assert.Equal(Socket.UninterruptibleSliceMs, client.NativeInt32Option(Interop.Zmq.ZMQ_SNDTIMEO));
            Assert.Equal(Socket.NativeReceiveSliceMs, client.NativeInt32Option(Interop.Zmq.ZMQ_RCVTIMEO));
        }

        [Theory]
        [InlineData(5)]    // shorter than both slices: the native timeouts hold it
        [InlineData(180)]  // longer: the native timeouts keep their slices
        public void Timeouts_SetOnThreadSafeSocket_ReadBackAsSet_NativeOnesNeverLongerThanASlice(int milliseconds)
        {
            using Context context = Zmq.NewContext();
            using Socket? client = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client);
            if (client is null)
            {
                return;
            }

            client.SendTimeout = TimeSpan.FromMilliseconds(milliseconds);
            client.ReceiveTimeout = TimeSpan.FromMilliseconds(milliseconds);

            Assert.Equal(TimeSpan.FromMilliseconds(milliseconds), client.SendTimeout);
            Assert.Equal(TimeSpan.FromMilliseconds(milliseconds), client.ReceiveTimeout);
            Assert.Equal(milliseconds, client.GetOption(SocketOptions.SendTimeout).TotalMilliseconds);
            Assert.Equal(Math.Min(milliseconds, Socket.UninterruptibleSliceMs), client.NativeInt32Option(Interop.Zmq.ZMQ_SNDTIMEO));
            Assert.Equal(Math.Min(milliseconds, Socket.NativeReceiveSliceMs), client.NativeInt32Option(Interop.Zmq.ZMQ_RCVTIMEO));
        }

        [Theory]
        [InlineData(0)]
        [InlineData(5)]
        [InlineData(180)]
        public void BlockingSendAndRecv_NothingCanMove_ThrowTryAgainNoSoonerThanTheTimeout(int milliseconds)
        {
            using Context context = Zmq.NewContext();
            using Socket? client = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client);
            if (client is null)
            {
                return;
            }

            // A CLIENT with no peer has nowhere to send and nothing to receive: both calls wait out their timeouts.
            client.SendTimeout = TimeSpan.FromMilliseconds(milliseconds);
            client.ReceiveTimeout = TimeSpan.FromMilliseconds(milliseconds);

            long start = Stopwatch.GetTimestamp();
            var send = Assert.Throws<ZmqException>(() => client.Send(new byte[] { 1 }));
            TimeSpan sendTook = Stopwatch.GetElapsedTime(start);
            start = Stopwatch.GetTimestamp();
            var recv = Assert.Throws<ZmqException>(() => client.Recv(new byte[8]));
            TimeSpan recvTook = Stopwatch.GetElapsedTime(start);

            Assert.Equal(ZmqError.TryAgain, send.Error);
            Assert.Equal(ZmqError.TryAgain, recv.Error);
            Assert.InRange(sendTook, TimeSpan.FromMilliseconds(milliseconds), TimeSpan.FromMilliseconds(milliseconds) + Promptly);
            Assert.InRange(recvTook, TimeSpan.FromMilliseconds(milliseconds), TimeSpan.FromMilliseconds(milliseconds) + Promptly);
        }

        [Fact]
        public void RadioAtHighWatermark_NoDrop_BlockedSenderGoesOnAsDishDrains_EveryMessageInOrder()
        {
            using Context context = Zmq.NewContext();
            using Socket? dish = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Dish);
            if (dish is null)
            {
                return;
            }

            using Socket radio = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Radio)!;
            dish.ReceiveHighWatermark = 10;
            radio.SendHighWatermark = 10;
            radio.SetOption(SocketOptions.XPubNoDrop, true); // blocks at the high-water mark instead of dropping
            dish.Join("g");
            radio.Connect(Transports.BindAnywhere(dish, "inproc"));
            RadioDishTraffic.WaitUntilJoined(radio, dish, "g");

            const int count = 5000;
            var sender = BlockingCall.Start(() =>
            {
                using var message = new Message();
                for (int i = 0; i < count; i++)
                {
                    message.Rebuild(BitConverter.GetBytes(i));
                    message.Group = "g";
                    radio.Send(message);
                }
            });

            using var received = new Message();
            for (int i = 0; i < count; i++)
            {
                dish.Recv(received);
                Assert.Equal(i, BitConverter.ToInt32(received.Data));
                Assert.Equal("g", received.Group);
            }

            Assert.True(sender.Join(Promptly), "the sender did not end after its last message was received");
            Assert.Null(sender.Exception);
        }

        [Fact]
        public void Dispose_ThreadsBlockedInNativeWaitsBothWays_EndPromptlyWithObjectDisposed()
        {
            using Context context = Zmq.NewContext();
            Socket? client = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client);
            if (client is null)
            {
                return;
            }

            client.SendTimeout = Timeout.InfiniteTimeSpan;
            client.ReceiveTimeout = Timeout.InfiniteTimeSpan;
            var sending = BlockingCall.Start(() => client.Send(new byte[] { 1 }));
            var receiving = BlockingCall.Start(() => client.Recv(new byte[8]));
            Thread.Sleep(3 * Socket.UninterruptibleSliceMs); // both are in their native turns by now

            long start = Stopwatch.GetTimestamp();
            client.Dispose();

            Assert.True(sending.Join(Promptly), "the blocked send did not end");
            Assert.True(receiving.Join(Promptly), "the blocked receive did not end");
            Assert.InRange(Stopwatch.GetElapsedTime(start), TimeSpan.Zero, Promptly);
            Assert.IsType<ObjectDisposedException>(sending.Exception);
            Assert.IsType<ObjectDisposedException>(receiving.Exception);
            Assert.True(client.IsNativeClosed());
        }
    }
}
