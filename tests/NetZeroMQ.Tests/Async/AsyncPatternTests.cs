using System;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Async
{
    public class AsyncPatternTests
    {
        [Theory(Timeout = TestTimeouts.TestMilliseconds)]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public async Task ReqRep_AsyncOnly_RoundTrips(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket rep = Zmq.NewSocket(context, SocketType.Rep);
            using Socket req = Zmq.NewSocket(context, SocketType.Req);
            req.Connect(Transports.BindAnywhere(rep, transport));

            Task server = Task.Run(async () =>
            {
                var buffer = new byte[64];
                for (int i = 0; i < 200; i++)
                {
                    RecvResult request = await rep.RecvAsync(buffer);
                    await rep.SendAsync(buffer.AsMemory(0, request.BytesWritten));
                }
            });

            var reply = new byte[64];
            for (int i = 0; i < 200; i++)
            {
                byte[] request = Encoding.UTF8.GetBytes("request " + i);
                await req.SendAsync(request);
                RecvResult result = await req.RecvAsync(reply);
                Assert.Equal("request " + i, Encoding.UTF8.GetString(reply, 0, result.BytesWritten));
            }

            await server.WaitAsync(TestTimeouts.Expected);
        }

        [Theory(Timeout = TestTimeouts.TestMilliseconds)]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public async Task PushPull_AsyncOnlyWithBackPressure_EveryMessageInOrder(string transport)
        {
            const int Count = 20_000;
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.SendHighWatermark = 10;
            pull.ReceiveHighWatermark = 10;
            push.Connect(Transports.BindAnywhere(pull, transport));

            Task sender = Task.Run(async () =>
            {
                var payload = new byte[4];
                for (int i = 0; i < Count; i++)
                {
                    BitConverter.TryWriteBytes(payload, i);
                    await push.SendAsync(payload);
                }
            });

            using var message = new Message();
            for (int i = 0; i < Count; i++)
            {
                await pull.RecvAsync(message);
                Assert.Equal(i, BitConverter.ToInt32(message.Data));
            }

            await sender.WaitAsync(TestTimeouts.Expected);
        }

        [Theory(Timeout = TestTimeouts.TestMilliseconds)]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public async Task PubSub_AsyncStream_ReceivesOnlyTheTopic(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket pub = Zmq.NewSocket(context, SocketType.Pub);
            using Socket sub = Zmq.NewSocket(context, SocketType.Sub);
            sub.Subscribe("news");
            sub.Connect(Transports.BindAnywhere(pub, transport));
            using var cts = new CancellationTokenSource(TestTimeouts.Expected);

            Task publisher = Task.Run(async () =>
            {
                while (!cts.IsCancellationRequested)
                {
                    await pub.SendAsync(Encoding.UTF8.GetBytes("weather rain"));
                    await pub.SendAsync(Encoding.UTF8.GetBytes("news item"));
                    await Task.Delay(1);
                }
            });

            int received = 0;
            await foreach (Message message in sub.RecvAllAsync(cts.Token))
            {
                Assert.Equal("news item", message.GetString());
                if (++received == 20)
                {
                    break;
                }
            }

            cts.Cancel();
            await publisher.WaitAsync(TestTimeouts.Expected);
            Assert.Equal(20, received);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task RecvAllAsync_MessageKeptAfterTheLoop_ThrowsObjectDisposedSayingItIsReusedAndHowToKeepIt()
        {
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            pull.Bind("inproc://recv-all-kept");
            push.Connect("inproc://recv-all-kept");
            push.Send("first");
            push.Send("second");

            Message? kept = null;
            var copies = new System.Collections.Generic.List<string>();
            await foreach (Message message in pull.RecvAllAsync())
            {
                kept ??= message;
                Assert.Same(kept, message); // one message, reused
                copies.Add(message.GetString());
                if (copies.Count == 2)
                {
                    break;
                }
            }

            Assert.Equal(new[] { "first", "second" }, copies);
            Assert.True(kept!.IsDisposed);
            ObjectDisposedException e = Assert.Throws<ObjectDisposedException>(() => kept.GetString());
            Assert.Contains("RecvAllAsync", e.Message);
            Assert.Contains("reuses one Message", e.Message);
            Assert.Contains("ToArray()", e.Message);
            Assert.Equal("Message(disposed)", kept.ToString());
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task DealerRouter_SendAndRecvPendingTogether_BothComplete()
        {
            using Context context = Zmq.NewContext();
            using Socket router = Zmq.NewSocket(context, SocketType.Router);
            using Socket dealer = Zmq.NewSocket(context, SocketType.Dealer);
            dealer.Connect(Transports.BindAnywhere(router, "tcp"));

            // The receive waits while sends go out on the same socket: the sends' own libzmq calls may consume the
            // descriptor's notification, and the pending receive must still wake (the rule pyzmq#199 was about).
            ValueTask<byte[]> reply = dealer.RecvBytesAsync();
            await dealer.SendAsync(Encoding.UTF8.GetBytes("hello"));
            byte[] identity = await router.RecvBytesAsync();
            Assert.Equal("hello", await router.RecvStringAsync());
            router.Send(identity, SendFlags.SendMore);
            router.Send("world");
            Assert.Equal("world", Encoding.UTF8.GetString(await reply.AsTask().WaitAsync(TestTimeouts.Expected)));
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task RecvPooledAsync_ReturnsExactFrame()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            ValueTask<PooledBuffer> pending = pull.RecvPooledAsync();
            push.Send(new byte[] { 9, 8, 7 });
            using PooledBuffer buffer = await pending;
            Assert.Equal(new byte[] { 9, 8, 7 }, buffer.Span.ToArray());
        }
    }
}
