using System;
using System.Net.Sockets;
using System.Text;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;
using ZSocket = NetZeroMQ.Socket;
using ZSocketType = NetZeroMQ.SocketType;

namespace NetZeroMQ.Tests.Patterns
{
    /// <summary>A STREAM socket talking to a plain TCP client: no ZMTP on the wire, an id frame before every data frame.</summary>
    public class StreamTests
    {
        [Fact]
        public void Recv_RawClientConnectsAndSends_NotificationThenDataFramesWithItsId()
        {
            using Context context = Zmq.NewContext();
            using ZSocket stream = Zmq.NewSocket(context, ZSocketType.Stream);
            using TcpClient client = ConnectRawClient(stream);

            byte[] id = ExpectConnectNotification(stream);

            client.GetStream().Write(Encoding.ASCII.GetBytes("hello, stream"));
            Assert.Equal("hello, stream", RecvText(stream, id, "hello, stream".Length));
        }

        [Fact]
        public void Send_ReplyAddressedToClientId_RawClientReadsTheBytes()
        {
            using Context context = Zmq.NewContext();
            using ZSocket stream = Zmq.NewSocket(context, ZSocketType.Stream);
            using TcpClient client = ConnectRawClient(stream);
            byte[] id = ExpectConnectNotification(stream);
            client.GetStream().Write(Encoding.ASCII.GetBytes("ping"));
            Assert.Equal("ping", RecvText(stream, id, 4));

            stream.Send(id, SendFlags.SendMore);
            stream.Send("pong from zmq");

            Assert.Equal("pong from zmq", ReadExactly(client, "pong from zmq".Length));
        }

        [Fact]
        public void Send_EmptyFrameToClientId_ClosesTheRawConnection()
        {
            using Context context = Zmq.NewContext();
            using ZSocket stream = Zmq.NewSocket(context, ZSocketType.Stream);
            using TcpClient client = ConnectRawClient(stream);
            byte[] id = ExpectConnectNotification(stream);

            stream.Send(id, SendFlags.SendMore);
            stream.Send(Array.Empty<byte>());

            // libzmq finishes closing the pipe only while the application calls into the socket (commands are processed
            // inside send, receive and ZMQ_EVENTS), so keep touching it while waiting for the client to see end-of-stream.
            var clock = System.Diagnostics.Stopwatch.StartNew();
            bool closed = false;
            while (!closed && clock.Elapsed < TestTimeouts.Expected)
            {
                _ = stream.Events;
                if (client.Client.Poll(20_000, SelectMode.SelectRead))
                {
                    var buffer = new byte[16];
                    Assert.Equal(0, client.GetStream().Read(buffer, 0, buffer.Length)); // end of stream, no data
                    closed = true;
                }
            }

            Assert.True(closed, "the raw connection was not closed");
        }

        [Fact]
        public void Recv_RawClientDisconnects_EmptyFrameWithItsId()
        {
            using Context context = Zmq.NewContext();
            using ZSocket stream = Zmq.NewSocket(context, ZSocketType.Stream);
            TcpClient client = ConnectRawClient(stream);
            byte[] id = ExpectConnectNotification(stream);

            client.Dispose();

            Assert.Equal(id, stream.RecvBytes());
            Assert.True(stream.HasMore);
            Assert.Empty(stream.RecvBytes());
            Assert.False(stream.HasMore);
        }

        [Fact]
        public void Recv_TwoRawClients_DistinctIdsAndRepliesGoToTheRightOne()
        {
            using Context context = Zmq.NewContext();
            using ZSocket stream = Zmq.NewSocket(context, ZSocketType.Stream);
            using TcpClient first = ConnectRawClient(stream);
            byte[] firstId = ExpectConnectNotification(stream);
            using TcpClient second = ConnectRawClient(stream);
            byte[] secondId = ExpectConnectNotification(stream);
            Assert.NotEqual(firstId, secondId);

            stream.Send(secondId, SendFlags.SendMore);
            stream.Send("for second");
            stream.Send(firstId, SendFlags.SendMore);
            stream.Send("for first");

            Assert.Equal("for first", ReadExactly(first, "for first".Length));
            Assert.Equal("for second", ReadExactly(second, "for second".Length));
        }

        private static TcpClient ConnectRawClient(ZSocket stream)
        {
            if (string.IsNullOrEmpty(stream.LastEndpoint))
            {
                stream.Bind("tcp://127.0.0.1:*");
            }

            var uri = new Uri(stream.LastEndpoint);
            var client = new TcpClient { ReceiveTimeout = (int)TestTimeouts.Expected.TotalMilliseconds, NoDelay = true };
            client.Connect("127.0.0.1", uri.Port);
            return client;
        }

        private static byte[] ExpectConnectNotification(ZSocket stream)
        {
            byte[] id = stream.RecvBytes();
            Assert.NotEmpty(id);
            Assert.True(stream.HasMore);
            Assert.Empty(stream.RecvBytes());
            Assert.False(stream.HasMore);
            return id;
        }

        // TCP may split the bytes into several reads, each delivered as its own [id][data] message.
        private static string RecvText(ZSocket stream, byte[] expectedId, int length)
        {
            var text = new StringBuilder();
            while (text.Length < length)
            {
                Assert.Equal(expectedId, stream.RecvBytes());
                Assert.True(stream.HasMore);
                byte[] data = stream.RecvBytes();
                Assert.NotEmpty(data);
                Assert.False(stream.HasMore);
                text.Append(Encoding.ASCII.GetString(data));
            }

            return text.ToString();
        }

        private static string ReadExactly(TcpClient client, int length)
        {
            var buffer = new byte[length];
            int read = 0;
            while (read < length)
            {
                int n = client.GetStream().Read(buffer, read, length - read);
                Assert.True(n > 0, "the connection closed after " + read + " bytes");
                read += n;
            }

            return Encoding.ASCII.GetString(buffer);
        }
    }
}
