using System;
using System.Collections.Generic;
using System.Linq;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Async
{
    [Collection(IsolatedCollection.Name)]
    public class AsyncScaleTests
    {
        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task RecvAsync_ThousandSocketsWaiting_ThreadCountStaysBounded()
        {
            const int Sockets = 1000;
            using var context = new Context(1, 4000) { DefaultLinger = TimeSpan.Zero };
            var pulls = new Socket[Sockets];
            var pushes = new Socket[Sockets];
            var pending = new Task<RecvResult>[Sockets];
            int threadsBefore = Process.GetCurrentProcess().Threads.Count;
            try
            {
                for (int i = 0; i < Sockets; i++)
                {
                    pulls[i] = new Socket(context, SocketType.Pull);
                    string endpoint = Transports.BindAnywhere(pulls[i], "inproc");
                    pushes[i] = new Socket(context, SocketType.Push);
                    pushes[i].Connect(endpoint);
                    pending[i] = pulls[i].RecvAsync(new byte[8]).AsTask();
                }

                await Task.Delay(200);
                int threadsWaiting = Process.GetCurrentProcess().Threads.Count;
                Assert.All(pending, t => Assert.False(t.IsCompleted));
                Assert.True(threadsWaiting - threadsBefore < 20, $"threads grew from {threadsBefore} to {threadsWaiting} with {Sockets} pending receives");

                for (int i = 0; i < Sockets; i++)
                {
                    pushes[i].Send(BitConverter.GetBytes(i));
                }

                RecvResult[] results = await Task.WhenAll(pending).WaitAsync(TestTimeouts.Expected);
                Assert.All(results, r => Assert.Equal(4, r.BytesWritten));
            }
            finally
            {
                foreach (Socket s in pulls)
                {
                    s?.Dispose();
                }

                foreach (Socket s in pushes)
                {
                    s?.Dispose();
                }
            }
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task AsyncRecvLoop_SteadyState_AllocatesNothingPerMessage()
        {
            const int Count = 100_000;
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            // Warm up until the thread pool has settled its worker count: a new pool thread allocates its own bookkeeping,
            // which is a one-time cost, not a per-message one (under load the pool takes a few batches to settle).
            for (int i = 0; i < 3; i++)
            {
                await ReceiveLoop(pull, push, Count);
            }

            // Process-wide, so the test's own bookkeeping (one thread, one task, the loop's state machine) is included, and so
            // is whatever the runtime does once meanwhile (under load: a pool thread injected late, a method re-jitted). A cost
            // per message shows in every batch, a one-time cost in one: the least of three batches is the per-message cost.
            var batches = new List<long>();
            for (int batch = 0; batch < 3; batch++)
            {
                long before = GC.GetTotalAllocatedBytes(precise: true);
                await ReceiveLoop(pull, push, Count);
                batches.Add(GC.GetTotalAllocatedBytes(precise: true) - before);
            }

            // Allow the fixed cost, but not a byte per message.
            Assert.True(batches.Min() < Count / 10, $"{string.Join(" / ", batches)} bytes allocated in three batches of {Count} messages");
        }

        private static async Task ReceiveLoop(Socket pull, Socket push, int count)
        {
            Exception? failure = null;
            var sender = new Thread(() =>
            {
                try
                {
                    var payload = new byte[64];
                    for (int i = 0; i < count; i++)
                    {
                        push.Send(payload);
                    }
                }
                catch (Exception e)
                {
                    failure = e;
                }
            });
            sender.Start();
            var buffer = new byte[128];
            for (int i = 0; i < count; i++)
            {
                RecvResult result = await pull.RecvAsync(buffer);
                if (result.BytesWritten != 64)
                {
                    throw new InvalidOperationException("wrong size " + result.BytesWritten);
                }
            }

            if (!sender.Join(TestTimeouts.Expected) || failure is not null)
            {
                throw new InvalidOperationException("sender failed", failure);
            }
        }
    }
}
