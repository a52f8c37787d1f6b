using System;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Async
{
    /// <summary>
    /// Sockets whose readiness a send cannot use: a ROUTER with ROUTER_MANDATORY reports writable while any peer has room,
    /// and a PUB with XPUB_NODROP always, yet a send to a peer whose queue is full would block until that peer reads. An
    /// awaited send there used to ask and attempt again and again inside the call that started it, which never returned while
    /// the peer did not read (found by these tests: the call was still inside SendMultipartAsync after 2 s, spinning a core).
    /// It must return a pending task, complete once the peer reads, and send its message once, after the queued ones. Over
    /// inproc, where the queues are libzmq's alone and stay full while nobody reads (over tcp the kernel's buffers may still
    /// take more a moment later, so "full" cannot be held still).
    /// </summary>
    public class AsyncUnusableReadinessTests
    {
        /// <summary>What fills the queues.</summary>
        private static readonly byte[] Queued = new byte[1024];

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task SendMultipartAsync_RouterMandatoryToAFullPeerWhileAnotherHasRoom_PendsThenSendsOnceThePeerReads()
        {
            using Context context = Zmq.NewContext();
            using Socket router = Zmq.NewSocket(context, SocketType.Router);
            router.SetOption(SocketOptions.RouterMandatory, true);
            router.SendHighWatermark = 1;
            string endpoint = Transports.BindAnywhere(router, "inproc");
            using Socket full = Zmq.NewSocket(context, SocketType.Dealer);
            using Socket roomy = Zmq.NewSocket(context, SocketType.Dealer);
            full.RoutingId = new byte[] { (byte)'F' };
            roomy.RoutingId = new byte[] { (byte)'R' };
            full.ReceiveHighWatermark = 1;
            full.Connect(endpoint);
            roomy.Connect(endpoint);
            full.Send("hello");
            roomy.Send("hello");
            for (int i = 0; i < 2; i++)
            {
                using var hello = new MultipartMessage();
                router.RecvMultipart(hello);
            }

            int queued = FillUntilRefused(() =>
            {
                using var message = new MultipartMessage();
                message.Add("F");
                message.Add(Queued);
                return router.TrySendMultipart(message);
            });

            using var last = new MultipartMessage();
            last.Add("F");
            last.Add("last");
            Task send = await StartsPending(() => router.SendMultipartAsync(last).AsTask());

            Assert.Equal(queued + 1, ReceiveUntil(full, "last"));
            await send.WaitAsync(TestTimeouts.Expected);
            Assert.False(full.TryRecvString(out _), "a message beyond the sent ones arrived");
            Assert.False(roomy.TryRecvString(out _), "the other peer received a message sent to the full one");
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task SendAsync_PubWithNoDropToAFullSubscriber_PendsThenSendsOnceItReads()
        {
            using Context context = Zmq.NewContext();
            using Socket pub = Zmq.NewSocket(context, SocketType.XPub);
            pub.SetOption(SocketOptions.XPubNoDrop, true);
            pub.SendHighWatermark = 1;
            using Socket sub = Zmq.NewSocket(context, SocketType.Sub);
            sub.ReceiveHighWatermark = 1;
            sub.Connect(Transports.BindAnywhere(pub, "inproc"));
            sub.Subscribe(string.Empty);
            pub.ReceiveTimeout = TestTimeouts.Expected;
            Assert.Equal(new byte[] { 1 }, pub.RecvBytes()); // the subscription arrived

            int queued = FillUntilRefused(() => pub.TrySend(Queued));

            Task send = await StartsPending(() => pub.SendAsync("last").AsTask());

            Assert.Equal(queued + 1, ReceiveUntil(sub, "last"));
            await send.WaitAsync(TestTimeouts.Expected);
            Assert.False(sub.TryRecvString(out _), "a message beyond the sent ones arrived");
        }

        /// <summary>Sends until a send would block for <see cref="TestTimeouts.Absent"/>: every queue on the way is full.</summary>
        private static int FillUntilRefused(Func<bool> trySend)
        {
            int queued = 0;
            var quiet = System.Diagnostics.Stopwatch.StartNew();
            while (quiet.Elapsed < TestTimeouts.Absent)
            {
                if (trySend())
                {
                    queued++;
                    quiet.Restart();
                }
            }

            Assert.True(queued > 0, "nothing could be queued");
            return queued;
        }

        /// <summary>Starts the send on a thread of its own: the call must return, and its task stay pending while nobody reads.</summary>
        private static async Task<Task> StartsPending(Func<Task> start)
        {
            Task? send = null;
            BlockingCall call = BlockingCall.Start(() => send = start());
            Assert.True(call.Join(TestTimeouts.Expected), "the call that starts the send did not return while the peer was full");
            Assert.Null(call.Exception);
            await Task.Delay(TestTimeouts.Absent);
            Assert.False(send!.IsCompleted, "the send completed while the peer's queue was full");
            return send;
        }

        /// <summary>Receives until <paramref name="text"/> arrives; returns how many messages came, it included.</summary>
        private static int ReceiveUntil(Socket socket, string text)
        {
            socket.ReceiveTimeout = TestTimeouts.Expected;
            int received = 0;
            string got;
            do
            {
                got = socket.RecvString();
                received++;
            }
            while (got != text);
            return received;
        }
    }
}
