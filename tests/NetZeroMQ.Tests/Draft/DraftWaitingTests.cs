using System;
using System.Threading.Tasks;
using NetZeroMQ.Draft;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Draft
{
    /// <summary>Waiting on thread-safe sockets: the Poller (libzmq's zmq_poll goes through its draft poller for them) and async.</summary>
    public class DraftWaitingTests
    {
        [Fact]
        public void Poller_ServerAndStableSocket_ReportsEachReadableOne()
        {
            using Context context = Zmq.NewContext();
            using Socket? server = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Server);
            if (server is null)
            {
                return;
            }

            using Socket client = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client)!;
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            client.Connect(Transports.BindAnywhere(server, "tcp"));
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            using var poller = new Poller();
            int serverIndex = poller.Add(server, PollEvents.In);
            int pullIndex = poller.Add(pull, PollEvents.In);
            Assert.Equal(0, poller.Poll(TimeSpan.Zero));

            client.Send("to server");
            Assert.Equal(1, poller.Poll(TestTimeouts.Expected));
            Assert.True(poller.IsReadable(serverIndex));
            Assert.False(poller.IsReadable(pullIndex));
            Assert.Equal("to server", server.RecvString());

            push.Send("to pull");
            Assert.Equal(1, poller.Poll(TestTimeouts.Expected));
            Assert.True(poller.IsReadable(pullIndex));
            Assert.False(poller.IsReadable(serverIndex));
            Assert.Equal("to pull", pull.RecvString());
        }

        [Fact]
        public async Task Async_OnThreadSafeSocket_CompletesWhenReadyAndRefusesToWaitClearly()
        {
            using Context context = Zmq.NewContext();
            using Socket? server = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Server);
            if (server is null)
            {
                return;
            }

            using Socket client = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client)!;
            client.Connect(Transports.BindAnywhere(server, "inproc"));

            // Ready at once: the first, non-blocking attempt completes it.
            await client.SendAsync("ready");
            Assert.True(server.TryRecvString(TestTimeouts.Expected, out string? text));
            Assert.Equal("ready", text);

            // Nothing to receive: waiting is not built yet on these sockets, and says so before anything is taken.
            var error = await Assert.ThrowsAsync<NotSupportedException>(async () => await server.RecvBytesAsync());
            Assert.StartsWith("An async send or receive that has to wait is not supported yet on a thread-safe SERVER socket", error.Message);
            await Assert.ThrowsAsync<NotSupportedException>(async () => await server.RecvAsync(new byte[8]));
            client.Send("after");
            Assert.Equal("after", server.RecvString());
        }
    }
}
