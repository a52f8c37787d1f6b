using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using System.Threading;
using NetZeroMQ.Draft;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Draft
{
    /// <summary>libzmq's thread-safe socket types are usable by many threads at once, and Dispose still ends every call.</summary>
    public class DraftThreadSafetyTests
    {
        private const int Threads = 8;
        private const int PerThread = 2_000;

        [Theory]
        [InlineData("inproc")]
        [InlineData("tcp")]
        public void ServerClient_EightSendersEightReceiversEachWay_EveryMessageAccountedFor(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket? server = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Server);
            if (server is null)
            {
                return;
            }

            using Socket client = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client)!;
            client.Connect(Transports.BindAnywhere(server, transport));

            // The server learns the client's routing id from a first message.
            uint clientId = DraftSocketsFixture.IntroduceClient(client, server);

            // Client to server: eight threads send on the one CLIENT, eight receive on the one SERVER.
            AssertEveryMessageOnce(
                (thread, i) => client.Send(Encoding.ASCII.GetBytes(thread + ":" + i)),
                buffer => server.TryRecv(buffer, TimeSpan.FromMilliseconds(100), out RecvResult r) ? r.BytesWritten : -1);

            // Server to client: eight threads send by routing id, eight receive.
            AssertEveryMessageOnce(
                (thread, i) =>
                {
                    using var message = new Message(Encoding.ASCII.GetBytes(thread + ":" + i));
                    message.RoutingId = clientId;
                    server.Send(message);
                },
                buffer =>
                {
                    // The byte[] form: each call needs a scratch message of its own, never one shared with another thread.
                    if (!client.TryRecvBytes(TimeSpan.FromMilliseconds(100), out byte[]? bytes))
                    {
                        return -1;
                    }

                    bytes.CopyTo(buffer, 0);
                    return bytes.Length;
                });
        }

        [Fact]
        public void RadioDish_EightSendersEightReceivers_EveryMessageAccountedFor()
        {
            using Context context = Zmq.NewContext();
            using Socket? dish = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Dish);
            if (dish is null)
            {
                return;
            }

            using Socket radio = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Radio)!;

            // RADIO drops at the high-water mark; without one (0) inproc loses nothing, so every message must arrive.
            radio.SendHighWatermark = 0;
            dish.ReceiveHighWatermark = 0;
            string endpoint = "inproc://radio-threads-" + Guid.NewGuid().ToString("N");
            dish.Bind(endpoint);
            dish.Join("all");
            radio.Connect(endpoint);

            // The join reaches the RADIO in the background, and until it does the RADIO drops what it sends: wait for it.
            using (var probe = new Message())
            {
                var deadline = DateTime.UtcNow + TestTimeouts.Expected;
                do
                {
                    using var warmUp = new Message(Encoding.ASCII.GetBytes("warm-up"));
                    warmUp.Group = "all";
                    radio.Send(warmUp);
                    Assert.True(DateTime.UtcNow < deadline, "the join never reached the RADIO");
                }
                while (!dish.TryRecv(probe, TimeSpan.FromMilliseconds(10)));

                while (dish.TryRecv(probe, TestTimeouts.Absent))
                {
                    Assert.Equal("warm-up", Encoding.ASCII.GetString(probe.Data));
                }
            }

            AssertEveryMessageOnce(
                (thread, i) =>
                {
                    using var message = new Message(Encoding.ASCII.GetBytes(thread + ":" + i));
                    message.Group = "all";
                    radio.Send(message);
                },
                buffer => dish.TryRecv(buffer, TimeSpan.FromMilliseconds(100), out RecvResult r) ? r.BytesWritten : -1);
        }

        [Fact]
        public void DisposeStorm_ManyThreadsBlockedOnServerClientAndRadioDish_AllEndPromptlyWithObjectDisposed()
        {
            for (int round = 0; round < 10; round++)
            {
                using Context context = Zmq.NewContext();
                Socket? server = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Server);
                if (server is null)
                {
                    return;
                }

                Socket client = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client)!;
                Socket radio = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Radio)!;
                Socket dish = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Dish)!;
                dish.Join("g");
                var sockets = new[] { server, client, radio, dish };
                var calls = new List<BlockingCall>();
                for (int t = 0; t < 4; t++)
                {
                    // Receives with nothing to receive; a CLIENT with no peer blocks its sends; a RADIO never blocks, so its
                    // senders loop until the Dispose stops them.
                    calls.Add(BlockingCall.Start(() => server.Recv(new byte[8])));
                    calls.Add(BlockingCall.Start(() => dish.Recv(new byte[8])));
                    calls.Add(BlockingCall.Start(() => client.Send(new byte[] { 1 })));
                    calls.Add(BlockingCall.Start(() =>
                    {
                        while (true)
                        {
                            using var message = new Message(new byte[] { 2 });
                            message.Group = "g";
                            radio.Send(message);
                        }
                    }));
                }

                Thread.Sleep(20);
                var disposers = Enumerable.Range(0, 8)
                    .Select(i => BlockingCall.Start(() => sockets[i % sockets.Length].Dispose()))
                    .ToList();
                foreach (BlockingCall call in calls.Concat(disposers))
                {
                    Assert.True(call.Join(TimeSpan.FromSeconds(2)), "a call did not end within 2 s of the Dispose");
                }

                foreach (BlockingCall call in calls)
                {
                    // The radio's Message may be what reports the disposal first; either way, the socket's disposal ended it.
                    Assert.IsType<ObjectDisposedException>(call.Exception);
                }

                Assert.All(disposers, d => Assert.Null(d.Exception));
                Assert.All(sockets, s => Assert.True(s.IsDisposed));
            }
        }

        [Fact]
        public void Multipart_OnThreadSafeSocket_RefusedBeforeLibzmqWithClearMessage()
        {
            using Context context = Zmq.NewContext();
            using Socket? client = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client);
            if (client is null)
            {
                return;
            }

            using Socket server = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Server)!;
            client.Connect(Transports.BindAnywhere(server, "inproc"));
            var error = Assert.Throws<InvalidOperationException>(() => client.Send(new byte[] { 1 }, SendFlags.SendMore));
            Assert.Equal(
                "A CLIENT socket sends single-frame messages only: libzmq's thread-safe socket types refuse SendMore (a message's " +
                "frames could interleave with another thread's). Send one frame, or use the stable socket types.",
                error.Message);
            Assert.Throws<InvalidOperationException>(() => client.SendMultipart("a", "b"));
            using (var two = new MultipartMessage())
            {
                two.Add(new byte[] { 1 });
                two.Add(new byte[] { 2 });
                Assert.Throws<InvalidOperationException>(() => client.SendMultipart(two));
                Assert.Equal(2, two.Count);
            }

            // Nothing went out; a one-frame multipart message is an ordinary message.
            Assert.False(server.TryRecvBytes(TestTimeouts.Absent, out _));
            client.SendMultipart("only");
            Assert.Equal("only", server.RecvString());
        }

        /// <summary>
        /// Runs <see cref="Threads"/> senders of <see cref="PerThread"/> messages ("thread:index") and as many receivers at
        /// once, then checks that every message arrived exactly once.
        /// </summary>
        private static void AssertEveryMessageOnce(Action<int, int> send, Func<byte[], int> tryRecv)
        {
            int expected = Threads * PerThread;
            int received = 0;
            var seen = new ConcurrentDictionary<string, int>();
            var failures = new ConcurrentQueue<Exception>();
            var deadline = DateTime.UtcNow + TestTimeouts.Expected * 3;
            var threads = new List<Thread>();
            for (int t = 0; t < Threads; t++)
            {
                int thread = t;
                threads.Add(new Thread(() =>
                {
                    try
                    {
                        for (int i = 0; i < PerThread; i++)
                        {
                            send(thread, i);
                        }
                    }
                    catch (Exception e)
                    {
                        failures.Enqueue(e);
                    }
                }));
                threads.Add(new Thread(() =>
                {
                    try
                    {
                        var buffer = new byte[32];
                        while (Volatile.Read(ref received) < expected && DateTime.UtcNow < deadline)
                        {
                            int size = tryRecv(buffer);
                            if (size >= 0)
                            {
                                seen.AddOrUpdate(Encoding.ASCII.GetString(buffer, 0, size), 1, (_, n) => n + 1);
                                Interlocked.Increment(ref received);
                            }
                        }
                    }
                    catch (Exception e)
                    {
                        failures.Enqueue(e);
                    }
                }));
            }

            threads.ForEach(t => t.Start());
            foreach (Thread thread in threads)
            {
                Assert.True(thread.Join(TestTimeouts.Expected * 4), "a sender or receiver did not finish");
            }

            Assert.Empty(failures);
            Assert.Equal(expected, received);
            Assert.Equal(expected, seen.Count);
            Assert.All(seen.Values, n => Assert.Equal(1, n));
            for (int t = 0; t < Threads; t++)
            {
                for (int i = 0; i < PerThread; i += 997)
                {
                    Assert.True(seen.ContainsKey(t + ":" + i), "missing " + t + ":" + i);
                }
            }
        }
    }
}
