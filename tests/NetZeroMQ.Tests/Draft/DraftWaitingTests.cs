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

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Async_OnThreadSafeSocket_CompletesWhenReadyAndWaitsWhenNot()
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

            // Nothing to receive: the receives wait (through the draft poller) and complete when messages come.
            ValueTask<byte[]> bytes = server.RecvBytesAsync();
            byte[] buffer = new byte[8];
            ValueTask<RecvResult> buffered = server.RecvAsync(buffer);
            Assert.False(bytes.IsCompleted);
            Assert.False(buffered.IsCompleted);
            client.Send("after");
            client.Send("later");
            RecvResult result = await buffered.AsTask().WaitAsync(TestTimeouts.Expected);
            byte[] frame = await bytes.AsTask().WaitAsync(TestTimeouts.Expected);
            Assert.Equal(5, result.BytesWritten);

            // Each receive got one of the two, and not the same one.
            string[] got = { System.Text.Encoding.ASCII.GetString(frame), System.Text.Encoding.ASCII.GetString(buffer, 0, 5) };
            Array.Sort(got, StringComparer.Ordinal);
            Assert.Equal(new[] { "after", "later" }, got);
        }
    }
}
