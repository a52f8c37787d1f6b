using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ.Draft;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Draft
{
    /// <summary>
    /// Async sends and receives that wait on libzmq's thread-safe socket types (through a draft poller's descriptor in the
    /// reactor): many pending at once, from any threads, each message taken exactly once, cancellation and Dispose. build.sh
    /// runs this class again against the portable reactor (its name has "Async" in it). Without the draft API each test asserts
    /// the NotSupportedException of creating the socket (DraftSocketsFixture).
    /// </summary>
    public class ThreadSafeAsyncTests
    {
        [Theory(Timeout = TestTimeouts.TestMilliseconds)]
        [InlineData("inproc")]
        [InlineData("tcp")]
        public async Task ServerClient_AsyncEcho_EveryReplyReachesTheClient(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket? server = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Server);
            if (server is null)
            {
                return;
            }

            using Socket client = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client)!;
            client.Connect(Transports.BindAnywhere(server, transport));

            Task echo = Task.Run(async () =>
            {
                using var request = new Message();
                for (int i = 0; i < 200; i++)
                {
                    // Mostly waits: the client sends only after its previous reply arrived.
                    await server.RecvAsync(request).AsTask().WaitAsync(TestTimeouts.Expected);
                    uint from = request.RoutingId;
                    using var reply = new Message(Encoding.ASCII.GetBytes("echo " + Encoding.ASCII.GetString(request.Data)));
                    reply.RoutingId = from;
                    await server.SendAsync(reply).AsTask().WaitAsync(TestTimeouts.Expected);
                }
            });

            for (int i = 0; i < 200; i++)
            {
                // The receive starts before the request leaves, so it has to wait.
                ValueTask<string> reply = client.RecvStringAsync();
                Assert.False(reply.IsCompleted);
                await client.SendAsync("m" + i).AsTask().WaitAsync(TestTimeouts.Expected);
                Assert.Equal("echo m" + i, await reply.AsTask().WaitAsync(TestTimeouts.Expected));
            }

            await echo.WaitAsync(TestTimeouts.Expected);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Client_EightPendingReceivesOneSender_EveryMessageReceivedExactlyOnce()
        {
            const int Messages = 4_000;
            using Context context = Zmq.NewContext();
            using Socket? server = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Server);
            if (server is null)
            {
                return;
            }

            using Socket client = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client)!;
            client.Connect(Transports.BindAnywhere(server, "tcp"));
            uint clientId = DraftSocketsFixture.IntroduceClient(client, server);

            // Eight receives pending at once, started on eight threads, before anything is sent.
            var seen = new ConcurrentDictionary<int, int>();
            int stopAfter = Messages;
            using var started = new CountdownEvent(8);
            Task[] receivers = Enumerable.Range(0, 8).Select(_ => Task.Run(async () =>
            {
                byte[] buffer = new byte[16];
                started.Signal();
                while (Volatile.Read(ref stopAfter) > 0)
                {
                    RecvResult result = await client.RecvAsync(buffer).AsTask().WaitAsync(TestTimeouts.Expected);
                    int value = BitConverter.ToInt32(buffer, 0);
                    seen.AddOrUpdate(value, 1, (_, count) => count + 1);
                    Assert.Equal(4, result.BytesWritten);
                    if (Interlocked.Decrement(ref stopAfter) <= 0)
                    {
                        break;
                    }
                }
            })).ToArray();
            Assert.True(started.Wait(TestTimeouts.Expected));

            // One sender; the last eight messages end the receivers still waiting (values >= Messages).
            byte[] payload = new byte[4];
            for (int i = 0; i < Messages + 8; i++)
            {
                BitConverter.TryWriteBytes(payload, i);
                using var message = new Message(payload);
                message.RoutingId = clientId;
                await server.SendAsync(message).AsTask().WaitAsync(TestTimeouts.Expected);
            }

            await Task.WhenAll(receivers).WaitAsync(TestTimeouts.Expected);
            Assert.All(seen, pair => Assert.Equal(1, pair.Value));
            int received = seen.Count;
            int queued = 0;
            while (client.TryRecv(payload, out _))
            {
                Assert.True(seen.TryAdd(BitConverter.ToInt32(payload, 0), 1), "a message came twice");
                queued++;
            }

            // Every message sent is either received once or still queued.
            Assert.Equal(Messages + 8, received + queued);
            Assert.True(received >= Messages);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Client_EightReceivesPendingBeforeEightMessages_EachGetsADifferentOne()
        {
            using Context context = Zmq.NewContext();
            using Socket? server = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Server);
            if (server is null)
            {
                return;
            }

            using Socket client = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client)!;
            client.Connect(Transports.BindAnywhere(server, "inproc"));
            uint clientId = DraftSocketsFixture.IntroduceClient(client, server);

            // Started on eight threads at once.
            Task<Task<byte[]>>[] starts = Enumerable.Range(0, 8)
                .Select(_ => Task.Factory.StartNew(() => client.RecvBytesAsync().AsTask(), CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Default))
                .ToArray();
            Task<byte[]>[] pending = await Task.WhenAll(starts).WaitAsync(TestTimeouts.Expected);
            await Task.Delay(TestTimeouts.Absent);
            Assert.All(pending, task => Assert.False(task.IsCompleted));

            for (int i = 0; i < 8; i++)
            {
                using var message = new Message(new[] { (byte)i });
                message.RoutingId = clientId;
                server.Send(message);
            }

            byte[][] frames = await Task.WhenAll(pending).WaitAsync(TestTimeouts.Expected);
            Assert.Equal(Enumerable.Range(0, 8), frames.Select(frame => (int)Assert.Single(frame)).OrderBy(value => value));
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Client_CancellationStorm_ReceivedPlusQueuedEqualsSent()
        {
            const int Rounds = 40;
            const int PerRound = 32;
            using Context context = Zmq.NewContext();
            using Socket? server = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Server);
            if (server is null)
            {
                return;
            }

            using Socket client = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client)!;
            client.Connect(Transports.BindAnywhere(server, "tcp"));
            uint clientId = DraftSocketsFixture.IntroduceClient(client, server);

            var random = new Random(16);
            var senderRandom = new Random(61);
            var received = new ConcurrentDictionary<int, int>();
            int sent = 0, cancelled = 0;
            for (int round = 0; round < Rounds; round++)
            {
                // Receives from many threads, half with a token cancelled at a random moment, while messages arrive.
                var sources = new CancellationTokenSource?[PerRound];
                Task[] receives = new Task[PerRound];
                for (int i = 0; i < PerRound; i++)
                {
                    CancellationTokenSource? source = i % 2 == 0 ? new CancellationTokenSource() : null;
                    sources[i] = source;
                    CancellationToken token = source?.Token ?? CancellationToken.None;
                    receives[i] = Task.Run(async () =>
                    {
                        try
                        {
                            byte[] frame = await client.RecvBytesAsync(token);
                            Assert.True(received.TryAdd(BitConverter.ToInt32(frame, 0), 1), "a message was received twice");
                        }
                        catch (OperationCanceledException)
                        {
                            Interlocked.Increment(ref cancelled);
                        }
                    });
                }

                Task sender = Task.Run(async () =>
                {
                    for (int i = 0; i < PerRound / 2; i++)
                    {
                        using var message = new Message(BitConverter.GetBytes(Interlocked.Increment(ref sent) - 1));
                        message.RoutingId = clientId;
                        await server.SendAsync(message);
                        if (senderRandom.Next(4) == 0)
                        {
                            await Task.Yield();
                        }
                    }
                });

                for (int i = 0; i < PerRound; i += 2)
                {
                    if (random.Next(3) == 0)
                    {
                        await Task.Delay(random.Next(2));
                    }

                    sources[i]!.Cancel();
                }

                await sender.WaitAsync(TestTimeouts.Expected);

                // The uncancelled half (16 receives) may outnumber the messages of this round left after the cancelled
                // ones took theirs: send until every receive has ended.
                Task allReceived = Task.WhenAll(receives);
                while (await Task.WhenAny(allReceived, Task.Delay(20)) != allReceived)
                {
                    using var extra = new Message(BitConverter.GetBytes(Interlocked.Increment(ref sent) - 1));
                    extra.RoutingId = clientId;
                    server.Send(extra);
                }

                await Task.WhenAll(receives).WaitAsync(TestTimeouts.Expected);
                foreach (CancellationTokenSource? source in sources)
                {
                    source?.Dispose();
                }
            }

            // Whatever no receive took is still queued, exactly once.
            int queued = 0;
            Thread.Sleep(50);
            while (client.TryRecvBytes(out byte[]? rest))
            {
                Assert.True(received.TryAdd(BitConverter.ToInt32(rest, 0), 1), "a queued message was also received");
                queued++;
            }

            Assert.Equal(sent, received.Count);
            Assert.Equal(Enumerable.Range(0, sent), received.Keys.OrderBy(key => key));
            Assert.True(cancelled > 0, "no receive was cancelled: the storm did not test cancellation");
            Assert.True(sent - queued >= Rounds * PerRound / 2, "the uncancelled receives did not all get a message");
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task ContextShutdown_WithPendingReceives_EndsThemWithContextTerminated()
        {
            using Context context = Zmq.NewContext();
            using Socket? client = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client);
            if (client is null)
            {
                return;
            }

            ValueTask<byte[]>[] pending = Enumerable.Range(0, 4).Select(_ => client.RecvBytesAsync()).ToArray();
            Assert.All(pending, receive => Assert.False(receive.IsCompleted));

            context.Shutdown();
            foreach (ValueTask<byte[]> receive in pending)
            {
                var error = await Assert.ThrowsAsync<ZmqException>(async () => await receive.AsTask().WaitAsync(TestTimeouts.Expected));
                Assert.Equal(ZmqError.ContextTerminated, error.Error);
            }
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task ScatterGather_SendWaitsForAPeer_ThenArrives()
        {
            using Context context = Zmq.NewContext();
            using Socket? scatter = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Scatter);
            if (scatter is null)
            {
                return;
            }

            using Socket gather = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Gather)!;
            string endpoint = Transports.BindAnywhere(scatter, "tcp");
            ValueTask send = scatter.SendAsync(Encoding.ASCII.GetBytes("queued"));
            await Task.Delay(TestTimeouts.Absent);
            Assert.False(send.IsCompleted);

            gather.Connect(endpoint);
            await send.AsTask().WaitAsync(TestTimeouts.Expected);
            Assert.Equal("queued", await gather.RecvStringAsync().AsTask().WaitAsync(TestTimeouts.Expected));
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Server_SendToFullPeer_WaitsUntilTheClientReads()
        {
            using Context context = Zmq.NewContext();
            using Socket? server = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Server);
            if (server is null)
            {
                return;
            }

            using Socket client = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client)!;
            server.SendHighWatermark = 1;
            client.ReceiveHighWatermark = 1;
            client.Connect(Transports.BindAnywhere(server, "inproc"));
            uint clientId = DraftSocketsFixture.IntroduceClient(client, server);

            // Fill the pipe until a send has to wait (SERVER reports writable all the while: the wait must not spin on it).
            ValueTask pending;
            int sent = 0;
            using var message = new Message();
            while (true)
            {
                message.Rebuild(BitConverter.GetBytes(sent));
                message.RoutingId = clientId;
                pending = server.SendAsync(message);
                if (!pending.IsCompleted)
                {
                    break;
                }

                await pending;
                sent++;
                Assert.True(sent < 10_000, "the pipe never filled");
            }

            await Task.Delay(TestTimeouts.Absent);
            Assert.False(pending.IsCompleted);
            for (int i = 0; i <= sent; i++)
            {
                byte[] frame = await client.RecvBytesAsync().AsTask().WaitAsync(TestTimeouts.Expected);
                Assert.Equal(i, BitConverter.ToInt32(frame, 0));
            }

            await pending.AsTask().WaitAsync(TestTimeouts.Expected);
        }

        [Theory(Timeout = TestTimeouts.TestMilliseconds)]
        [InlineData(DraftSocketType.Dish)]
        [InlineData(DraftSocketType.Peer)]
        [InlineData(DraftSocketType.Channel)]
        public async Task OtherThreadSafeTypes_ReceiveWaitsThenGetsTheMessage(DraftSocketType receiverType)
        {
            using Context context = Zmq.NewContext();
            using Socket? receiver = DraftSocketsFixture.NewOrAssertUnsupported(context, receiverType);
            if (receiver is null)
            {
                return;
            }

            DraftSocketType senderType = receiverType == DraftSocketType.Dish ? DraftSocketType.Radio : receiverType;
            using Socket sender = DraftSocketsFixture.NewOrAssertUnsupported(context, senderType)!;
            string endpoint = Transports.BindAnywhere(receiver, "tcp");
            using var message = new Message(Encoding.ASCII.GetBytes("to " + receiverType));
            ValueTask<string> pending = receiver.RecvStringAsync();
            switch (receiverType)
            {
                case DraftSocketType.Dish:
                    receiver.Join("g");
                    sender.Connect(endpoint);
                    message.Group = "g";
                    break;
                case DraftSocketType.Peer:
                    message.RoutingId = sender.ConnectPeer(endpoint);
                    break;
                default:
                    sender.Connect(endpoint);
                    break;
            }

            await Task.Delay(TestTimeouts.Absent);
            Assert.False(pending.IsCompleted);

            // RADIO drops what it sends before the DISH's join reached it: send until the receive completes.
            Task<string> received = pending.AsTask();
            var deadline = DateTime.UtcNow + TestTimeouts.Expected;
            while (!received.IsCompleted && DateTime.UtcNow < deadline)
            {
                using var copy = new Message(message.Data.ToArray());
                if (receiverType == DraftSocketType.Dish)
                {
                    copy.Group = "g";
                }
                else if (receiverType == DraftSocketType.Peer)
                {
                    copy.RoutingId = message.RoutingId;
                }

                await sender.SendAsync(copy).AsTask().WaitAsync(TestTimeouts.Expected);
                if (receiverType != DraftSocketType.Dish)
                {
                    break;
                }

                await Task.WhenAny(received, Task.Delay(20));
            }

            Assert.Equal("to " + receiverType, await received.WaitAsync(TestTimeouts.Expected));
        }
    }
}
