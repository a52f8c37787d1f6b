using System;
using System.Buffers;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Multipart
{
    public class MultipartTransferTests
    {
        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void SendMultipart_MixedAndEmptyFrames_ArriveIntact(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, transport));

            var frames = new[] { new byte[] { 1, 2 }, Array.Empty<byte>(), new byte[1000], Array.Empty<byte>() };
            push.SendMultipart(frames);
            push.SendMultipart("héllo", "", "wörld");
            push.SendMultipart(new List<ReadOnlyMemory<byte>> { new byte[] { 7 }, ReadOnlyMemory<byte>.Empty });

            Assert.Equal(frames, pull.RecvMultipartBytes());
            using MultipartMessage text = pull.RecvMultipart();
            Assert.Equal(new[] { "héllo", "", "wörld" }, text.Select(f => f.GetString()).ToArray());
            Assert.Equal(new[] { new byte[] { 7 }, Array.Empty<byte>() }, pull.RecvMultipartBytes());
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void SendMultipart_TenThousandFrames_ArriveInOrder(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, transport));
            using var message = new MultipartMessage();
            for (int i = 0; i < 10_000; i++)
            {
                message.Add(BitConverter.GetBytes(i));
            }

            push.SendMultipart(message);
            Assert.Empty(message);

            using var received = new MultipartMessage();
            pull.RecvMultipart(received);
            Assert.Equal(10_000, received.Count);
            for (int i = 0; i < 10_000; i++)
            {
                Assert.Equal(i, BitConverter.ToInt32(received[i].Data));
            }

            Assert.False(received[9_999].HasMore);
        }

        [Fact]
        public void RecvMultipart_ReusedMessage_ReusesFrameObjects()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            using var received = new MultipartMessage();

            push.SendMultipart("a", "b", "c");
            pull.RecvMultipart(received);
            var first = received.ToList();
            push.SendMultipart("d", "e");
            pull.RecvMultipart(received);

            Assert.Equal(new[] { "d", "e" }, received.Select(f => f.GetString()).ToArray());
            Assert.All(received, frame => Assert.Contains(frame, first));
        }

        [Fact]
        public void TryRecvMultipart_NothingWaiting_ReturnsFalseAndEmpty()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            pull.Bind(Transports.BindEndpoint("inproc"));
            using var message = new MultipartMessage(new[] { new byte[] { 1 } });

            Assert.False(pull.TryRecvMultipart(message));
            Assert.Empty(message);
        }

        [Fact]
        public void SendMultipart_NullFrameOrEmptyOrDisposed_SendsNothingThenNextArrivesIntact()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "tcp"));
            var disposedFrame = new Message(new byte[] { 1 });
            using var withDisposed = new MultipartMessage();
            withDisposed.Add("ok");
            withDisposed.Add(disposedFrame);
            disposedFrame.Dispose();

            Assert.Throws<ArgumentNullException>(() => push.SendMultipart(new[] { new byte[] { 1 }, null!, new byte[] { 3 } }));
            Assert.Throws<ArgumentNullException>(() => push.SendMultipart("a", null!));
            Assert.Throws<ArgumentException>(() => push.SendMultipart(Array.Empty<byte[]>()));
            Assert.Throws<ArgumentException>(() => push.SendMultipart(new MultipartMessage()));
            Assert.Throws<ArgumentException>(() => push.SendMultipart(withDisposed));
            Assert.Throws<InvalidTimeZoneException>(() => push.SendMultipart(ThrowingSequence()));
            Assert.False(push.IsMultipartSendBroken);

            push.SendMultipart("next", "message");
            Assert.Equal(new[] { "next", "message" }, pull.RecvMultipart().Select(f => f.GetString()).ToArray());
            pull.ReceiveTimeout = TestTimeouts.Absent;
            Assert.False(pull.TryRecvMultipart(new MultipartMessage()));
        }

        [Fact]
        public void SendMultipart_FailureAfterFirstFrame_MarksSocketBrokenAndPeerGetsNoGluedMessage()
        {
            // A real failure after the first frames: the sender's context shuts down between frames 2 and 3.
            using var sender = new BrokenMultipartSender();
            Socket push = sender.Push, pull = sender.Pull;
            ZmqException broken = sender.SendBreakingBefore(failingFrame: 2, frameCount: 4);

            Assert.Equal(ZmqError.ContextTerminated, broken.Error);
            Assert.Contains("after 2 of 4 frames", broken.Message);
            Assert.True(push.IsMultipartSendBroken);
            Assert.Throws<InvalidOperationException>(() => push.Send("glued?"));
            Assert.Throws<InvalidOperationException>(() => push.SendMultipart("glued?", "again"));
            Assert.Throws<InvalidOperationException>(() => push.TrySend(new byte[] { 1 }));

            // The half message never completes, so the peer receives nothing at all (in particular no glued message).
            pull.ReceiveTimeout = TestTimeouts.Absent;
            Assert.False(pull.TryRecvMultipart(new MultipartMessage()));
            Assert.Equal(ZmqError.TryAgain, Assert.Throws<ZmqException>(() => pull.RecvBytes()).Error);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task AsyncAndZeroCopySends_AfterBrokenMultipartSend_ThrowInvalidOperationLikeEverySend()
        {
            // The same real failure as above, between frames 1 and 2.
            using var sender = new BrokenMultipartSender();
            Socket push = sender.Push, pull = sender.Pull;
            Assert.IsType<ZmqException>(sender.SendBreakingBefore(failingFrame: 1, frameCount: 3));

            Assert.True(push.IsMultipartSendBroken);
            await Assert.ThrowsAsync<InvalidOperationException>(async () => await push.SendAsync(new byte[] { 1 }));
            await Assert.ThrowsAsync<InvalidOperationException>(async () => await push.SendAsync("glued?"));
            using (var message = new Message(new byte[] { 2 }))
            {
                await Assert.ThrowsAsync<InvalidOperationException>(async () => await push.SendAsync(message));
                Assert.Equal(1, message.Size); // refused before it was taken
            }

            using (var more = new MultipartMessage(new[] { new byte[] { 3 } }))
            {
                await Assert.ThrowsAsync<InvalidOperationException>(async () => await push.SendMultipartAsync(more));
            }

            Assert.Throws<InvalidOperationException>(() => push.SendZeroCopy(new byte[] { 4 }.AsMemory()));

            // Nothing was glued onto the half message: the peer receives nothing at all.
            pull.ReceiveTimeout = TestTimeouts.Absent;
            Assert.False(pull.TryRecvMultipart(new MultipartMessage()));
            Assert.Equal(ZmqError.TryAgain, Assert.Throws<ZmqException>(() => pull.RecvBytes()).Error);
        }

        [Fact]
        public void SendMultipart_FailureAfterFirstFrame_KeepsTheCauseAsInnerException()
        {
            // A real failure between frames 1 and 2 (the sender's context shuts down), as in the tests above.
            using var sender = new BrokenMultipartSender();
            ZmqException broken = sender.SendBreakingBefore(failingFrame: 1, frameCount: 3);

            Assert.Contains("after 1 of 3 frames", broken.Message);
            ZmqException cause = Assert.IsType<ZmqException>(broken.InnerException);
            Assert.Equal(ZmqError.ContextTerminated, cause.Error);
            Assert.Equal(cause.Error, broken.Error);
        }

        [Fact]
        public void RecvMultipart_ContextShutDownPartWay_KeepsFramesAndTheCauseAsInnerException()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            string[] frames = Enumerable.Range(0, 150).Select(i => "f" + i).ToArray();
            push.Send("ready");
            push.SendMultipart(frames);
            Assert.Equal("ready", pull.RecvString());

            // libzmq delivers the whole message at once, so only a shutdown can stop it part way: the stop command waits in
            // the socket's mailbox, and libzmq 4.3 reads its mailbox every 100th receive (inbound_poll_rate), which then fails
            // with ETERM. The first frames are received before that.
            context.Shutdown();
            using var message = new MultipartMessage();
            ZmqException e = Assert.Throws<ZmqException>(() => pull.RecvMultipart(message));

            Assert.Equal(ZmqError.ContextTerminated, e.Error);
            Assert.InRange(message.Count, 1, 149);
            Assert.Contains("failed after " + message.Count + " frames", e.Message);
            ZmqException cause = Assert.IsType<ZmqException>(e.InnerException);
            Assert.Equal(ZmqError.ContextTerminated, cause.Error);
            Assert.DoesNotContain("multipart", cause.Message);
        }

        [Fact]
        public void SendMultipart_FailureAtFirstFrame_DoesNotMarkSocket()
        {
            // A real failure at the first frame: a PUSH without a peer cannot queue, and a zero send timeout gives up at once.
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            string endpoint = Transports.BindAnywhere(pull, "inproc");
            push.SendTimeout = TimeSpan.Zero;
            Assert.Equal(ZmqError.TryAgain, Assert.Throws<ZmqException>(() => push.SendMultipart("a", "b")).Error);

            Assert.False(push.IsMultipartSendBroken);
            push.SendTimeout = TestTimeouts.Expected;
            push.Connect(endpoint);
            push.SendMultipart("c", "d");
            Assert.Equal(new[] { "c", "d" }, pull.RecvMultipart().Select(f => f.GetString()).ToArray());
        }

        [Fact]
        public void TrySendMultipart_HighWaterMarkReached_ReturnsFalseAndSendsNothing()
        {
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.SendHighWatermark = 1;
            push.Connect("tcp://127.0.0.1:1"); // never connects: messages queue in the pipe up to the high-water mark
            int sent = 0;
            while (push.TrySendMultipart(new[] { new byte[] { 1 }, new byte[] { 2 } }))
            {
                Assert.True(++sent < 10_000, "the high-water mark never stopped the sends");
            }

            using var message = new MultipartMessage(new[] { new byte[] { 1 } });
            Assert.False(push.TrySendMultipart(message));
            Assert.Single(message);
            Assert.False(push.IsMultipartSendBroken);
        }

        [Fact]
        public void SendMultipart_AfterContextShutdown_ThrowsContextTerminatedAndDoesNotMark()
        {
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            context.Shutdown();

            Assert.Equal(ZmqError.ContextTerminated, Assert.Throws<ZmqException>(() => push.SendMultipart("a", "b")).Error);
            Assert.False(push.IsMultipartSendBroken);
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void RouterDealer_EnvelopeThroughMultipart_ReplyReachesRightDealer(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket router = Zmq.NewSocket(context, SocketType.Router);
            using Socket dealerA = Zmq.NewSocket(context, SocketType.Dealer);
            using Socket dealerB = Zmq.NewSocket(context, SocketType.Dealer);
            string endpoint = Transports.BindAnywhere(router, transport);
            dealerA.RoutingId = new byte[] { (byte)'A' };
            dealerB.RoutingId = new byte[] { (byte)'B' };
            dealerA.Connect(endpoint);
            dealerB.Connect(endpoint);

            dealerB.SendMultipart("", "request-b");
            using var request = new MultipartMessage();
            router.RecvMultipart(request);
            Assert.Equal(3, request.Count);
            Assert.Equal("B", request[0].GetString());
            Assert.Equal(0, request[1].Size);

            Message routingId = request.PopFront();
            request.Clear();
            request.Add("reply-b");
            request.PushFront(ReadOnlySpan<byte>.Empty);
            request.PushFront(routingId);
            router.SendMultipart(request);

            Assert.Equal(new[] { "", "reply-b" }, dealerB.RecvMultipart().Select(f => f.GetString()).ToArray());
            dealerA.ReceiveTimeout = TestTimeouts.Absent;
            Assert.False(dealerA.TryRecvMultipart(new MultipartMessage()));
        }

        private static IEnumerable<byte[]> ThrowingSequence()
        {
            yield return new byte[] { 1 };
            throw new InvalidTimeZoneException("enumerator failed");
        }
    }
}
