using System;
using System.Linq;
using System.Text;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;
using Xunit.Abstractions;

namespace NetZeroMQ.Tests
{
    public class MessageTests
    {
        private readonly ITestOutputHelper _output;

        public MessageTests(ITestOutputHelper output) => _output = output;

        public static TheoryData<int> Sizes => new TheoryData<int> { 0, 1, 32, 33, 34, 64, 1000, 70_000 };

        public static TheoryData<byte[], string> Previews => new TheoryData<byte[], string>
        {
            { Array.Empty<byte>(), "Message(0 bytes)" },
            { Encoding.UTF8.GetBytes("Hello, World!!"), "Message(14 bytes: \"Hello, World!!\")" },
            { new byte[] { 1, 2, 0xFF }, "Message(3 bytes: 01 02 FF)" },
            { new byte[] { 0x41 }, "Message(1 byte: \"A\")" },
            { Encoding.UTF8.GetBytes("line\n"), "Message(5 bytes: 6C 69 6E 65 0A)" },
            { Encoding.UTF8.GetBytes(new string('a', 40)), "Message(40 bytes: \"" + new string('a', 32) + "\"...)" },
            // A two-byte character cut by the 32-byte limit is left out, not shown as hex or as a replacement character.
            { Encoding.UTF8.GetBytes(new string('a', 31) + "é" + "bc"), "Message(35 bytes: \"" + new string('a', 31) + "\"...)" },
            { Enumerable.Range(0, 40).Select(i => (byte)i).ToArray(), "Message(40 bytes: " + string.Join(" ", Enumerable.Range(0, 32).Select(i => i.ToString("X2", System.Globalization.CultureInfo.InvariantCulture))) + "...)" },
        };

        [Theory]
        [MemberData(nameof(Previews))]
        public void ToString_Content_ShowsSizeAndAShortPreview(byte[] content, string expected)
        {
            using var message = new Message(content);

            Assert.Equal(expected, message.ToString());
        }

        [Fact]
        public void ToString_Disposed_SaysDisposedWithoutThrowing()
        {
            var message = new Message(Encoding.UTF8.GetBytes("gone"));
            message.Dispose();

            Assert.Equal("Message(disposed)", message.ToString());
        }

        [Fact]
        public void Constructor_Empty_HasSizeZero()
        {
            using var message = new Message();
            Assert.Equal(0, message.Size);
            Assert.Equal(0, message.Data.Length);
            Assert.Empty(message.ToArray());
            Assert.Equal("", message.GetString());
            Assert.False(message.HasMore);
        }

        [Theory]
        [MemberData(nameof(Sizes))]
        public void Constructor_Sized_DataIsWritableAndSizeMatches(int size)
        {
            using var message = new Message(size);
            Assert.Equal(size, message.Size);
            Assert.Equal(size, message.Data.Length);
            Pattern(size).CopyTo(message.Data);
            Assert.Equal(Pattern(size), message.ToArray());
        }

        [Fact]
        public void Constructor_NegativeSize_ThrowsArgumentOutOfRange()
        {
            Assert.Throws<ArgumentOutOfRangeException>(() => new Message(-1));
        }

        [Theory]
        [MemberData(nameof(Sizes))]
        public void Constructor_FromSpan_CopiesBytes(int size)
        {
            byte[] source = Pattern(size);
            using var message = new Message(source.AsSpan());
            source.AsSpan().Clear(); // the message owns a copy
            Assert.Equal(Pattern(size), message.ToArray());
        }

        [Theory]
        [MemberData(nameof(Sizes))]
        public void SendRecv_MessageOfSize_RoundTripsOverInprocAndTcp(int size)
        {
            foreach (string transport in new[] { "inproc", "tcp" })
            {
                using Context context = Zmq.NewContext();
                using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
                using Socket push = Zmq.NewSocket(context, SocketType.Push);
                push.Connect(Transports.BindAnywhere(pull, transport));

                using var outgoing = new Message(Pattern(size).AsSpan());
                push.Send(outgoing);
                using var incoming = new Message(new byte[] { 0xEE }); // replaced by the receive
                pull.Recv(incoming);

                Assert.Equal(size, incoming.Size);
                Assert.Equal(Pattern(size), incoming.ToArray());
                Assert.True(incoming.Data.SequenceEqual(Pattern(size)));
            }
        }

        /// <summary>The receives that fail for want of a frame, each on a PULL socket with nothing queued.</summary>
        public static TheoryData<string, int> FailedReceives()
        {
            var data = new TheoryData<string, int>();
            foreach (string form in new[] { "TryRecv", "TryRecv(20 ms)", "Recv(ReceiveTimeout 5 ms)", "Recv(ReceiveTimeout 40 ms)" })
            {
                foreach (int size in new[] { 10, 1000, 300_000 }) // inside zmq_msg_t, on the heap, mmapped
                {
                    data.Add(form, size);
                }
            }

            return data;
        }

        /// <summary>
        /// libzmq releases a message's content before it looks for a frame, so a receive that finds none leaves the message empty,
        /// and the message must say so: a size or data pointer kept from the released content would copy freed memory (a crash
        /// when it was mmapped; another thread could read it the moment a blocking receive let go between its attempts).
        /// </summary>
        [Theory]
        [MemberData(nameof(FailedReceives))]
        public void Recv_Message_FindingNoFrame_LeavesItEmptyAndUsable(string form, int size)
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            using var message = new Message();
            push.Send(Pattern(size));
            pull.Recv(message);
            Assert.Equal(Pattern(size), message.ToArray()); // the data pointer is read now, before the failure

            switch (form)
            {
                case "TryRecv":
                    Assert.False(pull.TryRecv(message));
                    break;
                case "TryRecv(20 ms)":
                    Assert.False(pull.TryRecv(message, TimeSpan.FromMilliseconds(20)));
                    break;
                default:
                    pull.ReceiveTimeout = TimeSpan.FromMilliseconds(form.Contains("40") ? 40 : 5);
                    Assert.Equal(ZmqError.TryAgain, Assert.Throws<ZmqException>(() => pull.Recv(message)).Error);
                    break;
            }

            Assert.Equal(0, message.Size);
            Assert.Equal(0, message.Data.Length);
            Assert.Empty(message.ToArray());
            Assert.Equal("", message.GetString());

            push.Send(Pattern(size + 1));
            pull.Recv(message);
            Assert.Equal(Pattern(size + 1), message.ToArray());
        }

        /// <summary>An error libzmq finds before it looks for a frame (REQ receiving before it sent) leaves the content alone.</summary>
        [Fact]
        public void Recv_Message_RefusedByTheSocketsState_KeepsTheContent()
        {
            using Context context = Zmq.NewContext();
            using Socket request = Zmq.NewSocket(context, SocketType.Req);
            using var message = new Message(Pattern(1000).AsSpan());

            Assert.Equal(ZmqError.InvalidState, Assert.Throws<ZmqException>(() => request.Recv(message)).Error);

            Assert.Equal(1000, message.Size);
            Assert.Equal(Pattern(1000), message.ToArray());
        }

        [Fact]
        public void Rebuild_Variants_ReplaceContent()
        {
            using var message = new Message(Pattern(100).AsSpan());

            message.Rebuild();
            Assert.Equal(0, message.Size);

            message.Rebuild(40);
            Assert.Equal(40, message.Size);
            Assert.Equal(40, message.Data.Length);

            message.Rebuild(Encoding.UTF8.GetBytes("rebuilt").AsSpan());
            Assert.Equal("rebuilt", message.GetString());

            message.Rebuild(Pattern(10).AsSpan());
            Assert.Equal(Pattern(10), message.ToArray());

            Assert.Throws<ArgumentOutOfRangeException>(() => message.Rebuild(-1));
            Assert.Equal(Pattern(10), message.ToArray()); // a rejected rebuild changed nothing
        }

        [Theory]
        [InlineData(10)]   // stored inside zmq_msg_t: libzmq copies the bytes
        [InlineData(100)]  // on the heap: libzmq shares them
        public void CopyFrom_Message_SameBytesAndSharedWhenLarge(int size)
        {
            using var source = new Message(Pattern(size).AsSpan());
            using var copy = new Message(new byte[] { 1, 2, 3 });

            copy.CopyFrom(source);

            Assert.Equal(Pattern(size), copy.ToArray());
            Assert.Equal(Pattern(size), source.ToArray());
            Assert.Equal(size > 33, copy.IsShared);
            Assert.Equal(size > 33, source.IsShared);
        }

        [Fact]
        public void MoveFrom_Message_TakesContentAndEmptiesSource()
        {
            using var source = new Message(Pattern(100).AsSpan());
            using var target = new Message(new byte[] { 1 });

            target.MoveFrom(source);

            Assert.Equal(Pattern(100), target.ToArray());
            Assert.Equal(0, source.Size);
            Assert.Empty(source.ToArray());
        }

        [Fact]
        public void CopyFromAndMoveFrom_Itself_ThrowArgumentExceptionAndKeepContent()
        {
            using var message = new Message(Pattern(50).AsSpan());

            Assert.Throws<ArgumentException>(() => message.CopyFrom(message));
            Assert.Throws<ArgumentException>(() => message.MoveFrom(message));
            Assert.Throws<ArgumentNullException>(() => message.CopyFrom(null!));
            Assert.Equal(Pattern(50), message.ToArray());
        }

        [Fact]
        public void GetString_Utf8Content_Decodes()
        {
            using var message = new Message(Encoding.UTF8.GetBytes("héllo wörld").AsSpan());
            Assert.Equal("héllo wörld", message.GetString());
            Assert.Equal(Encoding.UTF8.GetBytes("héllo wörld"), message.ToArray());
        }

        [Fact]
        public void Send_Message_ConsumesContent()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            using var message = new Message(Pattern(100).AsSpan());

            push.Send(message);

            Assert.Equal(0, message.Size);
            Assert.Empty(message.ToArray());
            Assert.Equal(Pattern(100), pull.RecvBytes());

            // The emptied message is reusable.
            message.Rebuild(Pattern(5).AsSpan());
            Assert.True(push.TrySend(message));
            Assert.Equal(Pattern(5), pull.RecvBytes());
        }

        [Fact]
        public void SendAndRecv_DisposedMessage_ThrowObjectDisposedAndLeaveTheSocketUsable()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            var disposed = new Message(Pattern(10).AsSpan());
            disposed.Dispose();

            // The message is refused before any transfer (its first attempt finds it disposed and takes the usual path, which
            // throws) and neither socket's guard is left held: both go on working.
            Assert.Throws<ObjectDisposedException>(() => push.Send(disposed));
            Assert.Throws<ObjectDisposedException>(() => pull.Recv(disposed));
            Assert.Throws<ObjectDisposedException>(() => disposed.Rebuild(Pattern(5).AsSpan()));
            push.Send(Pattern(3));
            Assert.Equal(Pattern(3), pull.RecvBytes());
        }

        [Fact]
        public void TrySend_WouldBlock_KeepsContent()
        {
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push); // no peer: a send would block
            using var message = new Message(Pattern(100).AsSpan());

            Assert.False(push.TrySend(message));

            Assert.Equal(100, message.Size);
            Assert.Equal(Pattern(100), message.ToArray());
        }

        [Fact]
        public void Metadata_OverTcp_DescribesThePeer()
        {
            using Context context = Zmq.NewContext();
            using Socket router = Zmq.NewSocket(context, SocketType.Router);
            using Socket dealer = Zmq.NewSocket(context, SocketType.Dealer);
            dealer.RoutingId = Encoding.ASCII.GetBytes("abc");
            dealer.Connect(Transports.BindAnywhere(router, "tcp"));
            dealer.Send("hi");

            using var identity = new Message();
            using var payload = new Message();
            router.Recv(identity);
            Assert.True(identity.HasMore);
            router.Recv(payload);

            Assert.Equal("hi", payload.GetString());
            Assert.Equal("127.0.0.1", payload.PeerAddress);
            Assert.Equal("DEALER", payload.PeerSocketType);
            Assert.Equal(Encoding.ASCII.GetString(dealer.RoutingId), payload.PeerRoutingId);
            Assert.Equal("abc", payload.PeerRoutingId);
            Assert.Equal(identity.ToArray(), dealer.RoutingId);
            Assert.Null(payload.UserId);
            Assert.Null(payload.GetMetadata("X-NotSet"));
        }

        [Fact]
        public void Metadata_OverInproc_IsNull()
        {
            using Context context = Zmq.NewContext();
            using Socket router = Zmq.NewSocket(context, SocketType.Router);
            using Socket dealer = Zmq.NewSocket(context, SocketType.Dealer);
            dealer.RoutingId = Encoding.ASCII.GetBytes("abc");
            dealer.Connect(Transports.BindAnywhere(router, "inproc"));
            dealer.Send("hi");

            using var identity = new Message();
            using var payload = new Message();
            router.Recv(identity);
            router.Recv(payload);

            Assert.Equal("hi", payload.GetString());
            Assert.Null(payload.PeerAddress);
            Assert.Null(payload.PeerSocketType);
            Assert.Null(payload.PeerRoutingId);
        }

        [Fact]
        public void Metadata_NeverReceived_IsNullAndNameValidated()
        {
            using var message = new Message(Pattern(3).AsSpan());
            Assert.Null(message.PeerAddress);
            Assert.Throws<ArgumentException>(() => message.GetMetadata(""));
            Assert.Throws<ArgumentException>(() => message.GetMetadata("a\0b"));
            Assert.ThrowsAny<ArgumentException>(() => message.GetMetadata(null!));
        }

        [Fact]
        public void Recv_ReusedMessage_AllocatesNothing()
        {
            const int warmup = 2_000;
            const int count = 40_000; // per batch (SteadyAllocation)
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            using var message = new Message();

            // A socket makes its wake-up descriptor (one small object) on its first blocking wait; make that happen now, so
            // that the measured loop is the same whether or not the receiver ever overtakes the sender.
            pull.ReceiveTimeout = TimeSpan.FromMilliseconds(1);
            Assert.True(Assert.Throws<ZmqException>(() => pull.Recv(message)).IsTimeout);
            pull.ReceiveTimeout = TestTimeouts.Expected;

            BlockingCall sender = BlockingCall.Start(() =>
            {
                var payload = new byte[64];
                for (int i = 0; i < warmup + (SteadyAllocation.Batches * count); i++)
                {
                    payload[0] = (byte)i;
                    push.Send(payload);
                }
            });

            for (int i = 0; i < warmup; i++)
            {
                pull.Recv(message);
            }

            int checksum = 0;
            long allocated = SteadyAllocation.Least(
                () =>
                {
                    for (int i = 0; i < count; i++)
                    {
                        pull.Recv(message);
                        checksum += message.Data[0];
                    }
                },
                (batch, bytes) => _output.WriteLine($"Recv(Message) x {count}, batch {batch}: {bytes} bytes allocated"));

            Assert.True(sender.Join(TestTimeouts.Expected), "the sender did not finish");
            Assert.Null(sender.Exception);
            _output.WriteLine($"checksum {checksum}");
            Assert.Equal(64, message.Size);
            Assert.Equal(0, allocated);
        }

        [Fact]
        public void SendRecv_SpansAlternatingOnOneThread_AllocatesNothing()
        {
            const int warmup = 2_000;
            const int count = 40_000; // per batch (SteadyAllocation)
            using Context context = Zmq.NewContext();
            using Socket a = Zmq.NewSocket(context, SocketType.Pair);
            using Socket b = Zmq.NewSocket(context, SocketType.Pair);
            b.Connect(Transports.BindAnywhere(a, "inproc"));
            var outgoing = new byte[64];
            var incoming = new byte[64];

            void RoundTrip(int i)
            {
                outgoing[0] = (byte)i;
                a.Send(outgoing.AsSpan());
                RecvResult r = b.Recv(incoming.AsSpan());
                if (r.BytesWritten != 64 || incoming[0] != (byte)i)
                {
                    throw new InvalidOperationException("wrong frame");
                }

                b.Send(incoming.AsSpan(0, 32));
                r = a.Recv(incoming.AsSpan());
                if (r.MessageSize != 32)
                {
                    throw new InvalidOperationException("wrong frame");
                }
            }

            for (int i = 0; i < warmup; i++)
            {
                RoundTrip(i);
            }

            long allocated = SteadyAllocation.Least(
                () =>
                {
                    for (int i = 0; i < count; i++)
                    {
                        RoundTrip(i);
                    }
                },
                (batch, bytes) => _output.WriteLine($"Send(span)+Recv(span) both directions x {count}, batch {batch}: {bytes} bytes allocated"));

            Assert.Equal(0, allocated);
        }

        private static byte[] Pattern(int size)
        {
            var bytes = new byte[size];
            for (int i = 0; i < size; i++)
            {
                bytes[i] = (byte)(i * 7 + 3);
            }

            return bytes;
        }
    }
}
