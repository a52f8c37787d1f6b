using System;
using System.Linq;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>libzmq truncates a frame that does not fit the caller's buffer silently; NetZeroMQ must always report it.</summary>
    public class TruncationTests
    {
        private static readonly byte[] s_payload = Enumerable.Range(0, 100).Select(i => (byte)(i + 1)).ToArray();

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Recv_BufferShorterThanFrame_ReportsTruncationRealSizeAndKeepsTheFirstBytes(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, transport));
            push.Send(s_payload);
            push.Send("next");
            var buffer = new byte[10];

            RecvResult result = pull.Recv(buffer);

            Assert.True(result.IsTruncated);
            Assert.Equal(10, result.BytesWritten);
            Assert.Equal(100, result.MessageSize);
            Assert.Equal(s_payload.Take(10), buffer);
            Assert.Contains("truncated", result.ToString());

            // The dropped tail is gone for good: the next receive is the next frame.
            Assert.Equal("next", pull.RecvString());
        }

        [Fact]
        public void Recv_BufferExactlyTheFrameSize_NotTruncated()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            push.Send(s_payload);
            var buffer = new byte[100];

            RecvResult result = pull.Recv(buffer);

            Assert.False(result.IsTruncated);
            Assert.Equal(new RecvResult(100, 100), result);
            Assert.Equal(s_payload, buffer);
        }

        [Fact]
        public void Recv_BufferLargerThanFrame_OnlyFrameBytesWrittenAndRestUntouched()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            push.Send(new byte[] { 7, 8, 9 });
            byte[] buffer = Enumerable.Repeat((byte)0xEE, 8).ToArray();

            RecvResult result = pull.Recv(buffer);

            Assert.Equal(new RecvResult(3, 3), result);
            Assert.False(result.IsTruncated);
            Assert.Equal(new byte[] { 7, 8, 9, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE }, buffer);
        }

        [Fact]
        public void Recv_EmptyBuffer_ReportsWholeFrameAsTruncated()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            push.Send(s_payload);
            push.Send(Array.Empty<byte>());

            RecvResult truncated = pull.Recv(Span<byte>.Empty);
            RecvResult empty = pull.Recv(Span<byte>.Empty);

            Assert.Equal(new RecvResult(0, 100), truncated);
            Assert.True(truncated.IsTruncated);
            Assert.Equal(new RecvResult(0, 0), empty);
            Assert.False(empty.IsTruncated);
        }

        [Fact]
        public void TryRecv_BufferShorterThanFrame_ReportsTruncation()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            push.Send(s_payload);
            var buffer = new byte[33];

            Assert.True(pull.TryRecv(buffer, out RecvResult result));

            Assert.Equal(new RecvResult(33, 100), result);
            Assert.True(result.IsTruncated);
            Assert.Equal(s_payload.Take(33), buffer);
        }

        [Fact]
        public void Recv_TruncatedFrameOfMultipartMessage_HasMoreStillReported()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            push.Send(s_payload, SendFlags.SendMore);
            push.Send("tail");
            var buffer = new byte[4];

            RecvResult first = pull.Recv(buffer);
            Assert.True(first.IsTruncated);
            Assert.True(pull.HasMore);
            RecvResult second = pull.Recv(buffer);

            Assert.Equal(new RecvResult(4, 4), second);
            Assert.Equal("tail"u8.ToArray(), buffer);
            Assert.False(pull.HasMore);
        }
    }
}
