using System;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Draft
{
    /// <summary>
    /// Options from the draft section of libzmq's header that every libzmq 4.3 build has (with or without the draft API):
    /// they work, and behave, against both libraries.
    /// </summary>
    public class DraftSectionOptionTests
    {
        [Fact]
        public void XPubManualLastValue_SendAfterSubscription_ReachesOnlyTheLastSubscriber()
        {
            if (!LoadedLibzmq.Has(SocketOptions.XPubManualLastValue))
            {
                // An option newer than the loaded libzmq (docs/libzmq-versions.md): refused naming both versions.
                using Context refusingContext = Zmq.NewContext();
                using Socket refusing = new Socket(refusingContext, SocketType.XPub);
                LoadedLibzmq.AssertRefused(SocketOptions.XPubManualLastValue, () => refusing.SetOption(SocketOptions.XPubManualLastValue, true));
                return;
            }

            using Context context = Zmq.NewContext();
            using Socket xpub = new Socket(context, SocketType.XPub);
            using Socket first = new Socket(context, SocketType.Sub);
            using Socket second = new Socket(context, SocketType.Sub);
            foreach (Socket s in new[] { xpub, first, second })
            {
                s.ReceiveTimeout = TestTimeouts.Expected;
                s.SendTimeout = TestTimeouts.Expected;
            }

            xpub.SetOption(SocketOptions.XPubManualLastValue, true);
            string endpoint = Transports.BindAnywhere(xpub, "tcp");

            first.Connect(endpoint);
            first.SetOption(SocketOptions.Subscribe, Encoding.ASCII.GetBytes("t"));
            AcceptSubscription(xpub);
            xpub.Send("t-for-first");
            Assert.Equal("t-for-first", first.RecvString());

            second.Connect(endpoint);
            second.SetOption(SocketOptions.Subscribe, Encoding.ASCII.GetBytes("t"));
            AcceptSubscription(xpub);
            xpub.Send("t-cached-for-second"); // the last value: only the subscriber that just subscribed
            xpub.Send("t-for-all");

            Assert.Equal("t-cached-for-second", second.RecvString());
            Assert.Equal("t-for-all", second.RecvString());

            // One pipe delivers in order: had the cached value reached the first subscriber, it would come before this one.
            Assert.Equal("t-for-all", first.RecvString());
        }

        [Fact]
        public async Task SocksUsernameAndPassword_ConnectThroughProxy_ProxyReceivesThemInTheRfc1929Request()
        {
            if (!LoadedLibzmq.Has(SocketOptions.SocksUsername))
            {
                // Options newer than the loaded libzmq (4.3.2, docs/libzmq-versions.md): refused naming both versions.
                using Context refusingContext = Zmq.NewContext();
                using Socket refusing = new Socket(refusingContext, SocketType.Dealer);
                LoadedLibzmq.AssertRefused(SocketOptions.SocksUsername, () => refusing.SetOption(SocketOptions.SocksUsername, "user"));
                LoadedLibzmq.AssertRefused(SocketOptions.SocksPassword, () => refusing.SetOption(SocketOptions.SocksPassword, "secret"));
                return;
            }

            using var proxy = new TcpListener(IPAddress.Loopback, 0);
            proxy.Start();
            int port = ((IPEndPoint)proxy.LocalEndpoint).Port;

            using Context context = Zmq.NewContext();
            using Socket dealer = new Socket(context, SocketType.Dealer);
            dealer.Linger = TimeSpan.Zero;
            dealer.SetOption(SocketOptions.SocksProxy, "127.0.0.1:" + port);
            dealer.SetOption(SocketOptions.SocksUsername, "proxy-user");
            dealer.SetOption(SocketOptions.SocksPassword, "pässword");
            Assert.Equal("proxy-user", dealer.GetOption(SocketOptions.SocksUsername));
            Assert.Equal("pässword", dealer.GetOption(SocketOptions.SocksPassword));

            dealer.Connect("tcp://127.0.0.1:1");
            Task<TcpClient> accept = proxy.AcceptTcpClientAsync();
            Assert.Same(accept, await Task.WhenAny(accept, Task.Delay(TestTimeouts.Expected)));
            using TcpClient client = await accept;
            client.ReceiveTimeout = (int)TestTimeouts.Expected.TotalMilliseconds;
            NetworkStream stream = client.GetStream();

            // Greeting: version 5, one method, 2 (user name/password) because a user name is set.
            Assert.Equal(new byte[] { 5, 1, 2 }, ReadExactly(stream, 3));
            stream.Write(new byte[] { 5, 2 }, 0, 2);

            // RFC 1929: version 1, the user name and the password, each with a one-byte length.
            byte[] user = Encoding.UTF8.GetBytes("proxy-user");
            byte[] password = Encoding.UTF8.GetBytes("pässword");
            Assert.Equal(new byte[] { 1, (byte)user.Length }, ReadExactly(stream, 2));
            Assert.Equal(user, ReadExactly(stream, user.Length));
            Assert.Equal(new byte[] { (byte)password.Length }, ReadExactly(stream, 1));
            Assert.Equal(password, ReadExactly(stream, password.Length));

            // Closing the socket ends the connection to the proxy. (The proxy does not answer the request: when a SOCKS
            // step fails, libzmq 4.3.4's socks_connecter_t::error() removes the descriptor from its poller but keeps the
            // handle, and closing the socket before the reconnect then removes it again and aborts the process with
            // "Bad file descriptor (src/epoll.cpp:113)", measured here.)
            dealer.Dispose();
            Assert.Equal(0, stream.Read(new byte[1], 0, 1));
        }

        private static void AcceptSubscription(Socket xpub)
        {
            byte[][] subscription = xpub.RecvMultipartBytes();
            Assert.Equal(new byte[] { 1, (byte)'t' }, subscription[0]);
            xpub.SetOption(SocketOptions.Subscribe, Encoding.ASCII.GetBytes("t"));
        }

        private static byte[] ReadExactly(NetworkStream stream, int count)
        {
            byte[] buffer = new byte[count];
            int read = 0;
            while (read < count)
            {
                int n = stream.Read(buffer, read, count - read);
                Assert.True(n > 0, "the connection closed after " + read + " of " + count + " bytes");
                read += n;
            }

            return buffer;
        }
    }
}
