using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    public class PollerDisposeTests
    {
        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async Task Dispose_WhileAnotherThreadPollsWithoutLimit_PollEndsWithObjectDisposed()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            pull.Bind(Transports.BindEndpoint("inproc"));
            for (int round = 0; round < 100; round++)
            {
                var poller = new Poller();
                poller.Add(pull, PollEvents.In);
                using var started = new ManualResetEventSlim();
                Task<Exception?> polling = Task.Factory.StartNew(
                    () =>
                    {
                        started.Set();
                        try
                        {
                            poller.Poll(Timeout.InfiniteTimeSpan);
                            return null;
                        }
                        catch (Exception e)
                        {
                            return e;
                        }
                    },
                    TaskCreationOptions.LongRunning);
                Assert.True(started.Wait(TestTimeouts.Expected));
                Thread.Sleep(1);
                var clock = Stopwatch.StartNew();
                poller.Dispose();
                Exception? error = await polling.WaitAsync(TestTimeouts.Expected);
                Assert.True(clock.Elapsed < TimeSpan.FromSeconds(2), "poll ended after " + clock.Elapsed);
                Assert.IsType<ObjectDisposedException>(error);
                Assert.Throws<ObjectDisposedException>(() => poller.Poll(0));
            }

            // The socket was only borrowed by the pollers: it still works.
            Assert.False(pull.TryRecv(new byte[4], out _));
        }

        [Fact]
        public void Poll_EmptyPoller_ReturnsZero()
        {
            using var poller = new Poller();
            Assert.Equal(0, poller.Poll(0));
        }
    }
}
