using System;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;
using Xunit.Abstractions;

namespace NetZeroMQ.Tests
{
    public class PollerTests
    {
        private readonly ITestOutputHelper _output;

        public PollerTests(ITestOutputHelper output) => _output = output;

        [Fact]
        public void Poll_SeveralSockets_OnlyThoseWithMessagesAreReadable()
        {
            using Context context = Zmq.NewContext();
            Socket[] pulls = Enumerable.Range(0, 4).Select(_ => Zmq.NewSocket(context, SocketType.Pull)).ToArray();
            Socket[] pushes = pulls.Select(p =>
            {
                Socket push = Zmq.NewSocket(context, SocketType.Push);
                push.Connect(Transports.BindAnywhere(p, "inproc"));
                return push;
            }).ToArray();
            using var poller = new Poller();
            foreach (Socket pull in pulls)
            {
                poller.Add(pull, PollEvents.In);
            }

            pushes[1].Send("one");
            pushes[3].Send("three");

            Assert.Equal(2, poller.Poll(TestTimeouts.Expected));
            Assert.Equal(new[] { false, true, false, true }, Enumerable.Range(0, 4).Select(poller.IsReadable));
            Assert.Equal(PollEvents.In, poller.GetReturnedEvents(1));
            Assert.Equal(PollEvents.None, poller.GetReturnedEvents(0));
            Assert.True(pulls[1].TryRecvString(out string? one));
            Assert.Equal("one", one);
            Assert.True(pulls[3].TryRecvString(out string? three));
            Assert.Equal("three", three);

            // Drained: nothing is ready any more.
            Assert.Equal(0, poller.Poll(TimeSpan.Zero));
            Assert.All(Enumerable.Range(0, 4), i => Assert.False(poller.IsReadable(i)));
        }

        [Fact]
        public void Poll_PushWithAndWithoutPeer_OnlyConnectedOneIsWritable()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket connected = Zmq.NewSocket(context, SocketType.Push);
            using Socket lonely = Zmq.NewSocket(context, SocketType.Push);
            connected.Connect(Transports.BindAnywhere(pull, "inproc"));
            using var poller = new Poller();
            int a = poller.Add(connected, PollEvents.Out | PollEvents.In);
            int b = poller.Add(lonely, PollEvents.Out);

            Assert.Equal(1, poller.Poll(TestTimeouts.Expected));
            Assert.True(poller.IsWritable(a));
            Assert.False(poller.IsReadable(a));
            Assert.Equal(PollEvents.Out, poller.GetReturnedEvents(a));
            Assert.False(poller.IsWritable(b));
        }

        [Fact]
        public void Poll_TimeoutZeroNothingReady_ReturnsZeroImmediately()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using var poller = new Poller();
            poller.Add(pull, PollEvents.In);

            var elapsed = Stopwatch.StartNew();
            Assert.Equal(0, poller.Poll(0));
            Assert.Equal(0, poller.Poll(TimeSpan.Zero));
            Assert.True(elapsed.Elapsed < TimeSpan.FromSeconds(1), $"took {elapsed.Elapsed}");
        }

        [Fact]
        public void Poll_FiniteTimeoutNothingReady_ReturnsZeroAfterAboutThatLong()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using var poller = new Poller();
            poller.Add(pull, PollEvents.In);

            var elapsed = Stopwatch.StartNew();
            Assert.Equal(0, poller.Poll(TimeSpan.FromMilliseconds(300)));
            elapsed.Stop();

            Assert.True(elapsed.Elapsed >= TimeSpan.FromMilliseconds(250), $"returned early, after {elapsed.Elapsed}");
            Assert.True(elapsed.Elapsed < TimeSpan.FromSeconds(3), $"took {elapsed.Elapsed}");
        }

        [Fact]
        public void Poll_Reused100000Times_AllocatesNothing()
        {
            const int count = 100_000;
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket idle = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            push.Send("ready"); // stays queued: every poll finds pull readable
            using var poller = new Poller();
            int ready = poller.Add(pull, PollEvents.In);
            int other = poller.Add(idle, PollEvents.In);
            for (int i = 0; i < 1_000; i++)
            {
                poller.Poll(TestTimeouts.Expected);
                _ = poller.IsReadable(ready);
            }

            long allocated = SteadyAllocation.Least(
                () =>
                {
                    int readable = 0;
                    for (int i = 0; i < count; i++)
                    {
                        readable += poller.Poll(-1);
                        if (!poller.IsReadable(ready) || poller.IsReadable(other))
                        {
                            throw new InvalidOperationException("wrong poll result");
                        }
                    }

                    if (readable != count)
                    {
                        throw new InvalidOperationException($"{readable} of {count} polls found the socket readable");
                    }
                },
                (batch, bytes) => _output.WriteLine($"Poll x {count}, batch {batch}: {bytes} bytes allocated"));

            Assert.Equal(0, allocated);
        }

        [Fact]
        public void UpdateAndRemove_ChangeWhatIsPolled()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket pair = Zmq.NewSocket(context, SocketType.Pair);
            using Socket peer = Zmq.NewSocket(context, SocketType.Pair);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            peer.Connect(Transports.BindAnywhere(pair, "inproc"));
            using var poller = new Poller();
            int first = poller.Add(pull, PollEvents.In);
            int second = poller.Add(pair, PollEvents.In);
            Assert.Equal(2, poller.Count);
            Assert.Same(pair, poller[second]);

            // Nothing to read, and writability is not asked for.
            Assert.Equal(0, poller.Poll(0));

            poller.Update(second, PollEvents.Out);
            Assert.Equal(1, poller.Poll(TestTimeouts.Expected));
            Assert.True(poller.IsWritable(second));

            Assert.True(poller.Remove(pull));
            Assert.False(poller.Remove(pull));
            Assert.Equal(1, poller.Count);
            Assert.Same(pair, poller[0]); // indexes after the removed socket moved down
            push.Send("not polled any more");
            Assert.Equal(1, poller.Poll(TestTimeouts.Expected));
            Assert.Equal(PollEvents.Out, poller.GetReturnedEvents(0));

            Assert.Throws<ArgumentException>(() => poller.Update(0, PollEvents.None));
            Assert.Equal(0, first);
        }

        [Fact]
        public void Add_SameSocketTwice_ThrowsArgumentException()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);
            using var poller = new Poller();
            poller.Add(socket, PollEvents.In);

            Assert.Throws<ArgumentException>(() => poller.Add(socket, PollEvents.Out));
            Assert.Equal(1, poller.Count);
            Assert.Throws<ArgumentNullException>(() => poller.Add(null!, PollEvents.In));
            Assert.Throws<ArgumentException>(() => poller.Add(Zmq.NewSocket(context, SocketType.Pull), PollEvents.None));
        }

        [Fact]
        public void GetReturnedEvents_IndexOfNoSocket_ThrowsArgumentOutOfRangeNamingIndex()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);
            using var poller = new Poller();
            poller.Add(socket, PollEvents.In);
            poller.Poll(0);

            Assert.Equal(PollEvents.None, poller.GetReturnedEvents(0));
            foreach (int index in new[] { -1, 1 })
            {
                Assert.Equal("index", Assert.Throws<ArgumentOutOfRangeException>(() => poller.GetReturnedEvents(index)).ParamName);
                Assert.Equal("index", Assert.Throws<ArgumentOutOfRangeException>(() => poller.IsReadable(index)).ParamName);
                Assert.Equal("index", Assert.Throws<ArgumentOutOfRangeException>(() => poller.IsWritable(index)).ParamName);
            }
        }

        [Fact]
        public void Dispose_PolledSocketFromOtherThread_EndsInfinitePollWithObjectDisposedPromptly()
        {
            using Context context = Zmq.NewContext();
            for (int round = 0; round < 50; round++)
            {
                string endpoint = Transports.BindEndpoint("inproc");
                using Socket idle = Zmq.NewSocket(context, SocketType.Pull);
                Socket victim = Zmq.NewSocket(context, SocketType.Pull);
                victim.Bind(endpoint);
                var poller = new Poller();
                poller.Add(idle, PollEvents.In);
                poller.Add(victim, PollEvents.In);
                BlockingCall poll = BlockingCall.Start(() => poller.Poll(Timeout.InfiniteTimeSpan));
                Thread.Sleep(round % 3 * 5);

                long disposedAt = Stopwatch.GetTimestamp();
                victim.Dispose();

                Assert.True(poll.Join(TimeSpan.FromSeconds(2)), $"round {round}: the poll did not end");
                Assert.True(poll.EndedAfter(disposedAt) < TimeSpan.FromSeconds(2));
                Assert.IsType<ObjectDisposedException>(poll.Exception);
                SocketLifetimeTests.AssertEndpointReleased(context, endpoint);

                // The poll released the other socket too: it is usable from this thread.
                Assert.False(idle.TryRecv(new byte[1], out _));
                poller.Dispose();
            }
        }

        [Fact]
        public void Shutdown_ContextWhilePolling_EndsPollWithContextTerminated()
        {
            using Context context = Zmq.NewContext();
            using Socket a = Zmq.NewSocket(context, SocketType.Pull);
            using Socket b = Zmq.NewSocket(context, SocketType.Sub);
            using var poller = new Poller();
            poller.Add(a, PollEvents.In);
            poller.Add(b, PollEvents.In);
            BlockingCall poll = BlockingCall.Start(() => poller.Poll(Timeout.InfiniteTimeSpan));
            Thread.Sleep(20);

            long shutdownAt = Stopwatch.GetTimestamp();
            context.Shutdown();

            Assert.True(poll.Join(TimeSpan.FromSeconds(2)), "the poll did not end");
            Assert.True(poll.EndedAfter(shutdownAt) < TimeSpan.FromSeconds(2));
            var e = Assert.IsType<ZmqException>(poll.Exception);
            Assert.Equal(ZmqError.ContextTerminated, e.Error);
        }
    }
}
