using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Async
{
    public class AsyncLifetimeTests
    {
        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task RecvAsync_CancelledWhileWaiting_CompletesPromptlyAndSocketStillWorks()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "tcp"));
            var buffer = new byte[16];

            for (int round = 0; round < 50; round++)
            {
                using var cts = new CancellationTokenSource();
                ValueTask<RecvResult> pending = pull.RecvAsync(buffer, cts.Token);
                Assert.False(pending.IsCompleted);
                var clock = Stopwatch.StartNew();
                cts.Cancel();
                await Assert.ThrowsAnyAsync<OperationCanceledException>(async () => await pending);
                Assert.True(clock.ElapsedMilliseconds < 100, "cancellation took " + clock.ElapsedMilliseconds + " ms");
            }

            push.Send("still works");
            RecvResult result = await pull.RecvAsync(buffer).AsTask().WaitAsync(TestTimeouts.Expected);
            Assert.Equal(11, result.BytesWritten);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task RecvAsync_AlreadyCancelledToken_CompletesCancelledWithoutReceiving()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            push.Send("kept");
            using var cts = new CancellationTokenSource();
            cts.Cancel();
            await Assert.ThrowsAnyAsync<OperationCanceledException>(async () => await pull.RecvAsync(new byte[8], cts.Token));
            Assert.Equal("kept", pull.RecvString());
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task RecvAsync_SecondPendingReceive_ThrowsInvalidOperation()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            pull.Bind(Transports.BindEndpoint("inproc"));
            ValueTask<RecvResult> first = pull.RecvAsync(new byte[8]);
            Assert.Throws<InvalidOperationException>(() => { _ = pull.RecvAsync(new byte[8]); });
            pull.Dispose();
            await Assert.ThrowsAsync<ObjectDisposedException>(async () => await first);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Dispose_WhileAwaiting_CompletesWithObjectDisposed()
        {
            using Context context = Zmq.NewContext();
            for (int round = 0; round < 100; round++)
            {
                Socket pull = Zmq.NewSocket(context, SocketType.Pull);
                pull.Bind(Transports.BindEndpoint("inproc"));
                ValueTask<RecvResult> pending = pull.RecvAsync(new byte[8]);
                Task disposer = Task.Run(pull.Dispose);
                await Assert.ThrowsAsync<ObjectDisposedException>(async () => await pending.AsTask().WaitAsync(TestTimeouts.Expected));
                await disposer.WaitAsync(TestTimeouts.Expected);
                Assert.True(pull.IsDisposed);
            }
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task ContextShutdown_WhileAwaiting_CompletesWithContextTerminated()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            pull.Bind(Transports.BindEndpoint("tcp"));
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            ValueTask<RecvResult> receive = pull.RecvAsync(new byte[8]);
            push.SendHighWatermark = 1;
            push.Connect("tcp://127.0.0.1:1");
            ValueTask send = default;
            while (push.TrySend(new byte[1]))
            {
            }

            send = push.SendAsync(new byte[1]);
            Assert.False(send.IsCompleted);
            context.Shutdown();
            var e1 = await Assert.ThrowsAsync<ZmqException>(async () => await receive.AsTask().WaitAsync(TestTimeouts.Expected));
            Assert.Equal(ZmqError.ContextTerminated, e1.Error);
            var e2 = await Assert.ThrowsAsync<ZmqException>(async () => await send.AsTask().WaitAsync(TestTimeouts.Expected));
            Assert.Equal(ZmqError.ContextTerminated, e2.Error);
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task RecvAsync_BurstRightAfterWaitStarts_NeverLost()
        {
            // The edge-trigger race: a message that lands between the socket's "not ready" answer and the reactor's wait
            // must still complete the receive. Each round starts a wait and sends from another thread at once.
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            var buffer = new byte[8];
            using var go = new SemaphoreSlim(0);
            using var stop = new CancellationTokenSource();
            var sender = new Thread(() =>
            {
                while (true)
                {
                    go.Wait();
                    if (stop.IsCancellationRequested)
                    {
                        return;
                    }

                    push.Send(new byte[] { 1 });
                }
            });
            sender.Start();

            for (int round = 0; round < 10_000; round++)
            {
                ValueTask<RecvResult> pending = pull.RecvAsync(buffer);
                go.Release();
                RecvResult result = await pending.AsTask().WaitAsync(TestTimeouts.Expected);
                Assert.Equal(1, result.BytesWritten);
            }

            stop.Cancel();
            go.Release();
            Assert.True(sender.Join(TestTimeouts.Expected));
        }
    }
}
