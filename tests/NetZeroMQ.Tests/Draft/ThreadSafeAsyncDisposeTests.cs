using System;
using System.Linq;
using System.Threading.Tasks;
using NetZeroMQ.Draft;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Draft
{
    /// <summary>
    /// Dispose of a thread-safe socket with async operations pending: they end with ObjectDisposedException, and its draft
    /// poller leaves the reactor and is destroyed (its descriptor closed) exactly once. Alone in its collection, because it
    /// counts the reactor's registrations and the process's descriptors.
    /// </summary>
    [Collection(IsolatedCollection.Name)]
    public class ThreadSafeAsyncDisposeTests
    {
        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Dispose_WithPendingReceivesAndSends_EndsThemWithObjectDisposedAndFreesThePollers()
        {
            using Context context = Zmq.NewContext();
            using Socket? scatter = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Scatter);
            if (scatter is null)
            {
                return;
            }

            Socket gather = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Gather)!;
            gather.Bind("inproc://thread-safe-async-dispose");
            Reactor reactor = Reactor.Shared;
            int registeredBefore = reactor.RegisteredCount;
            int descriptorsBefore = ResourceProbe.OpenDescriptors();

            ValueTask<RecvResult>[] receives = Enumerable.Range(0, 8).Select(_ => gather.RecvAsync(new byte[8])).ToArray();

            // A SCATTER with no peer has nowhere to send: its sends wait too.
            ValueTask[] sends = Enumerable.Range(0, 3).Select(_ => scatter.SendAsync(new byte[] { 1 })).ToArray();
            await Task.Delay(TestTimeouts.Absent);
            Assert.All(receives, pending => Assert.False(pending.IsCompleted));
            Assert.All(sends, pending => Assert.False(pending.IsCompleted));

            // One poller per socket, whatever the number of operations: one registration and one descriptor each.
            Assert.Equal(registeredBefore + 2, reactor.RegisteredCount);
            Assert.Equal(descriptorsBefore + 2, ResourceProbe.OpenDescriptors());

            // Disposed from several threads at once: the operations end, the poller is destroyed once.
            Task[] disposers = Enumerable.Range(0, 4).Select(_ => Task.Run(gather.Dispose)).ToArray();
            foreach (ValueTask<RecvResult> pending in receives)
            {
                await Assert.ThrowsAsync<ObjectDisposedException>(async () => await pending.AsTask().WaitAsync(TestTimeouts.Expected));
            }

            await Task.WhenAll(disposers).WaitAsync(TestTimeouts.Expected);
            scatter.Dispose();
            foreach (ValueTask pending in sends)
            {
                await Assert.ThrowsAsync<ObjectDisposedException>(async () => await pending.AsTask().WaitAsync(TestTimeouts.Expected));
            }

            Assert.Equal(registeredBefore, reactor.RegisteredCount);
            Assert.True(ResourceProbe.OpenDescriptors() <= descriptorsBefore, ResourceProbe.DescribeDescriptors());
            Assert.Throws<ObjectDisposedException>(() => gather.RecvAsync(new byte[8]));
        }
    }
}
