using System;
using System.Diagnostics;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ.Draft;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Async
{
    /// <summary>
    /// Sockets whose async side was used and that were then abandoned (never disposed), with a receive pending: nothing of the
    /// async machinery may keep them reachable, so the finalizer closes them, their descriptors (a draft poller's included)
    /// are released, the reactor lets go of their registrations, and the pending receive ends with ObjectDisposedException
    /// instead of staying queued for ever. Alone in its collection, because it counts the process's descriptors and the
    /// reactor's registrations.
    /// </summary>
    [Collection(IsolatedCollection.Name)]
    public class AbandonedAsyncSocketTests
    {
        private const int Abandoned = 16;

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Finalizer_AbandonedSocketsWithPendingRecvAsync_ClosesThemAndEndsTheReceivesWithObjectDisposed()
        {
            using Context context = Zmq.NewContext();
            await AssertAbandonedSocketsAreReleased(context, () => new Socket(context, SocketType.Pull));
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Finalizer_AbandonedThreadSafeSocketsWithPendingRecvAsync_DestroysTheirPollersAndEndsTheReceives()
        {
            using Context context = Zmq.NewContext();
            using Socket? probe = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client);
            if (probe is null)
            {
                return;
            }

            // Each waiting CLIENT has a draft poller of its own, whose descriptor waits in the reactor.
            await AssertAbandonedSocketsAreReleased(context, () => DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Client)!);
        }

        /// <summary>
        /// Abandons <see cref="Abandoned"/> sockets made by <paramref name="newSocket"/>, half with a receive awaited by an
        /// async method that is abandoned too, half with a receive never awaited; then collects and checks that everything
        /// they held is back where it was.
        /// </summary>
        private static async Task AssertAbandonedSocketsAreReleased(Context context, Func<Socket> newSocket)
        {
            global::NetZeroMQ.Reactor reactor = global::NetZeroMQ.Reactor.Shared;
            WarmUp(newSocket);
            Collect();
            int registeredBefore = reactor.RegisteredCount;
            int descriptorsBefore = ResourceProbe.OpenDescriptors();
            long liveBefore = ResourceCounters.Snapshot().LiveSockets;

            var ended = new TaskCompletionSource<Exception?>[Abandoned / 2];
            for (int i = 0; i < ended.Length; i++)
            {
                ended[i] = new TaskCompletionSource<Exception?>(TaskCreationOptions.RunContinuationsAsynchronously);
                AbandonWithAwaitedReceive(newSocket, ended[i]);
                AbandonWithUnawaitedReceive(newSocket);
            }

            // Every socket waits now: one registration each (and its descriptors).
            Assert.Equal(registeredBefore + Abandoned, reactor.RegisteredCount);
            Assert.True(ResourceProbe.OpenDescriptors() >= descriptorsBefore + Abandoned, ResourceProbe.DescribeDescriptors());

            Collect();

            // The awaiting methods were abandoned with their sockets; the finalizer's close resumes them with the documented
            // exception (the one a Dispose gives, saying why).
            foreach (TaskCompletionSource<Exception?> end in ended)
            {
                Exception? error = await end.Task.WaitAsync(TestTimeouts.Expected);
                var disposed = Assert.IsType<ObjectDisposedException>(error);
                Assert.Contains("closed without Dispose", disposed.Message);
            }

            Assert.Equal(registeredBefore, reactor.RegisteredCount);
            Assert.Equal(liveBefore, ResourceCounters.Snapshot().LiveSockets);

            // libzmq's reaper closes a socket's own descriptors after zmq_close, on its thread: wait for it.
            var waited = Stopwatch.StartNew();
            while (ResourceProbe.OpenDescriptors() > descriptorsBefore && waited.Elapsed < TestTimeouts.Expected)
            {
                await Task.Delay(20);
            }

            Assert.True(
                ResourceProbe.OpenDescriptors() <= descriptorsBefore,
                $"{ResourceProbe.OpenDescriptors()} descriptors open, {descriptorsBefore} before: {ResourceProbe.DescribeDescriptors()}");
            GC.KeepAlive(context);
        }

        /// <summary>One socket made, waited on and disposed first, so the reactor and libzmq's threads exist before counting.</summary>
        private static void WarmUp(Func<Socket> newSocket)
        {
            using Socket socket = newSocket();
            ValueTask<RecvResult> pending = socket.RecvAsync(new byte[8]);
            Assert.False(pending.IsCompleted);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void AbandonWithAwaitedReceive(Func<Socket> newSocket, TaskCompletionSource<Exception?> ended) =>
            _ = AwaitReceive(newSocket(), ended);

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void AbandonWithUnawaitedReceive(Func<Socket> newSocket)
        {
            Socket socket = newSocket();
            _ = socket.RecvAsync(new byte[8]);
        }

        /// <summary>Awaits a receive nobody sends to; reports how it ended. Only the pending operation references this method.</summary>
        private static async Task AwaitReceive(Socket socket, TaskCompletionSource<Exception?> ended)
        {
            try
            {
                await socket.RecvAsync(new byte[8]);
                ended.SetResult(null);
            }
            catch (Exception e)
            {
                ended.SetResult(e);
            }
        }

        private static void Collect()
        {
            for (int i = 0; i < 3; i++)
            {
                GC.Collect();
                GC.WaitForPendingFinalizers();
            }
        }
    }
}
