using System;
using System.Diagnostics;
using System.Reflection;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// Dispose of a socket from another thread while a call is in flight, concurrent use, and Dispose storms. Each scenario is
    /// looped, because the races it guards against are timing-dependent.
    /// </summary>
    public class SocketLifetimeTests
    {
        /// <summary>"Promptly" for a receive woken by Dispose (it is woken through the waker, so in practice microseconds).</summary>
        private static readonly TimeSpan RecvWakeBound = TimeSpan.FromSeconds(2);

        /// <summary>A send blocked at the high-water mark notices Dispose within one 50 ms native slice; generous for a loaded machine.</summary>
        private static readonly TimeSpan SendWakeBound = TimeSpan.FromSeconds(1);

        public static TheoryData<string> RecvKinds => new TheoryData<string> { "span", "message", "string" };

        public static TheoryData<string> SendKinds => new TheoryData<string> { "span", "message", "string" };

        [Theory]
        [MemberData(nameof(RecvKinds))]
        public void Dispose_WhileRecvBlockedOnOtherThread_RecvThrowsObjectDisposedPromptly(string kind)
        {
            using Context context = Zmq.NewContext();
            for (int i = 0; i < 200; i++)
            {
                string endpoint = Transports.BindEndpoint("inproc");
                Socket socket = new Socket(context, SocketType.Pull);
                socket.ReceiveTimeout = Timeout.InfiniteTimeSpan;
                socket.Bind(endpoint);
                using var message = new Message();
                var buffer = new byte[16];
                BlockingCall call = BlockingCall.Start(() =>
                {
                    switch (kind)
                    {
                        case "span": socket.Recv(buffer); break;
                        case "message": socket.Recv(message); break;
                        default: socket.RecvString(); break;
                    }
                });

                // Vary the moment of Dispose: racing the call's start, and well inside its wait.
                SleepFor(i);
                long disposedAt = Stopwatch.GetTimestamp();
                socket.Dispose();

                Assert.True(call.Join(RecvWakeBound), $"round {i}: the blocked receive did not end within {RecvWakeBound}");
                Assert.True(call.EndedAfter(disposedAt) < RecvWakeBound);
                Assert.IsType<ObjectDisposedException>(call.Exception);
                Assert.True(socket.IsDisposed);
                AssertEndpointReleased(context, endpoint);
                Assert.False(message.IsDisposed);
            }
        }

        [Theory]
        [MemberData(nameof(SendKinds))]
        public void Dispose_WhileSendBlockedWithNoPeer_SendThrowsObjectDisposedWithinBound(string kind)
        {
            using Context context = Zmq.NewContext();
            for (int i = 0; i < 40; i++)
            {
                Socket push = new Socket(context, SocketType.Push);
                push.SendTimeout = Timeout.InfiniteTimeSpan;
                using var message = new Message(new byte[] { 1, 2, 3 });
                BlockingCall call = BlockingCall.Start(() => SendOnce(push, kind, message));

                SleepFor(i);
                long disposedAt = Stopwatch.GetTimestamp();
                push.Dispose();

                Assert.True(call.Join(SendWakeBound + SendWakeBound), $"round {i}: the blocked send did not end");
                Assert.True(call.EndedAfter(disposedAt) < SendWakeBound, $"round {i}: took {call.EndedAfter(disposedAt)}");
                Assert.IsType<ObjectDisposedException>(call.Exception);

                // The failed send left the message with the caller, content intact.
                Assert.Equal(new byte[] { 1, 2, 3 }, message.ToArray());
            }
        }

        [Fact]
        public void Dispose_WhileSendBlockedAtHighWatermark_SendThrowsObjectDisposedWithinBound()
        {
            using Context context = Zmq.NewContext();
            for (int i = 0; i < 20; i++)
            {
                using Socket pull = new Socket(context, SocketType.Pull);
                pull.ReceiveHighWatermark = 1;
                string endpoint = Transports.BindAnywhere(pull, "inproc");
                Socket push = new Socket(context, SocketType.Push);
                push.SendHighWatermark = 1;
                push.SendTimeout = Timeout.InfiniteTimeSpan;
                push.Connect(endpoint);
                int queued = 0;
                while (push.TrySend(new byte[] { 9 }))
                {
                    Assert.True(++queued < 10_000, "the high-water mark was never reached");
                }

                BlockingCall call = BlockingCall.Start(() => push.Send(new byte[] { 9 }));
                SleepFor(i);
                long disposedAt = Stopwatch.GetTimestamp();
                push.Dispose();

                Assert.True(call.Join(SendWakeBound + SendWakeBound), $"round {i}: the blocked send did not end");
                Assert.True(call.EndedAfter(disposedAt) < SendWakeBound, $"round {i}: took {call.EndedAfter(disposedAt)}");
                Assert.IsType<ObjectDisposedException>(call.Exception);
            }
        }

        [Fact]
        public void Send_WhileRecvBlockedOnOtherThread_ThrowsInvalidOperationAndRecvStillWorks()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Pair);
            using Socket peer = Zmq.NewSocket(context, SocketType.Pair);
            socket.ReceiveTimeout = Timeout.InfiniteTimeSpan;
            peer.Connect(Transports.BindAnywhere(socket, "inproc"));
            string? received = null;
            BlockingCall call = BlockingCall.Start(() =>
            {
                // WaitUntilBusy probes the socket from the test thread; a probe that lands first makes this call the
                // rejected one, so retry until this thread holds the socket.
                while (true)
                {
                    try
                    {
                        received = socket.RecvString();
                        return;
                    }
                    catch (InvalidOperationException)
                    {
                    }
                }
            });
            WaitUntilBusy(socket);

            var e = Assert.Throws<InvalidOperationException>(() => socket.Send("from the wrong thread"));
            Assert.Contains("Socket", e.Message);
            Assert.Throws<InvalidOperationException>(() => socket.TrySend("again"));
            Assert.Throws<InvalidOperationException>(() => _ = socket.Linger);

            // The rejected calls did not disturb the receive in flight: it still gets the peer's message.
            peer.Send("hello");
            Assert.True(call.Join(TestTimeouts.Expected));
            Assert.Null(call.Exception);
            Assert.Equal("hello", received);

            // And the socket is usable again from this thread.
            socket.Send("back");
            Assert.Equal("back", peer.RecvString());
        }

        [Fact]
        public void TryCalls_FromTwoThreadsAtOnce_EachEitherSucceedsOrThrowsInvalidOperation()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Pair);
            using Socket peer = Zmq.NewSocket(context, SocketType.Pair);
            peer.Connect(Transports.BindAnywhere(socket, "inproc"));
            int conflicts = 0;
            int sent = 0;
            using var go = new Barrier(2);

            void Hammer()
            {
                go.SignalAndWait(TestTimeouts.Expected);
                var buffer = new byte[8];
                for (int i = 0; i < 20_000; i++)
                {
                    try
                    {
                        if ((i & 1) == 0)
                        {
                            if (socket.TrySend(new byte[] { 1 }))
                            {
                                Interlocked.Increment(ref sent);
                            }
                        }
                        else
                        {
                            socket.TryRecv(buffer, out _);
                        }
                    }
                    catch (InvalidOperationException)
                    {
                        Interlocked.Increment(ref conflicts);
                    }
                }
            }

            BlockingCall a = BlockingCall.Start(Hammer);
            BlockingCall b = BlockingCall.Start(Hammer);
            Assert.True(a.Join(TestTimeouts.Expected) && b.Join(TestTimeouts.Expected));
            Assert.Null(a.Exception);
            Assert.Null(b.Exception);

            // Everything that was reported sent arrived: the conflicts corrupted nothing.
            var frame = new byte[8];
            int arrived = 0;
            while (peer.TryRecv(frame, out RecvResult r))
            {
                Assert.Equal(1, r.MessageSize);
                arrived++;
            }

            Assert.Equal(sent, arrived);
            Assert.True(sent > 0);
        }

        [Fact]
        public void Dispose_From64ThreadsAtOnce_NoExceptionAndSocketReleased()
        {
            using Context context = Zmq.NewContext();
            const int threads = 64;
            for (int round = 0; round < 30; round++)
            {
                string endpoint = Transports.BindEndpoint("inproc");
                Socket socket = new Socket(context, SocketType.Pair);
                socket.Bind(endpoint);
                using var go = new Barrier(threads);
                var calls = new BlockingCall[threads];
                for (int t = 0; t < threads; t++)
                {
                    calls[t] = BlockingCall.Start(() =>
                    {
                        go.SignalAndWait(TestTimeouts.Expected);
                        socket.Dispose();
                    });
                }

                foreach (BlockingCall call in calls)
                {
                    Assert.True(call.Join(TestTimeouts.Expected));
                    Assert.Null(call.Exception);
                }

                Assert.True(socket.IsDisposed);
                AssertEndpointReleased(context, endpoint);
            }
        }

        [Fact]
        public void Dispose_RacingCallsOnOtherThread_CallsEndWithObjectDisposedAndSocketReleased()
        {
            // A thread calls the socket in a tight loop while another disposes it: whichever instant Dispose lands on (before a
            // call, inside one, or between the guard's claim and its disposed check), the socket must end up closed.
            using Context context = Zmq.NewContext();
            for (int round = 0; round < 2_000; round++)
            {
                string endpoint = Transports.BindEndpoint("inproc");
                Socket socket = new Socket(context, SocketType.Pair);
                socket.Bind(endpoint);
                using var go = new Barrier(2);
                BlockingCall call = BlockingCall.Start(() =>
                {
                    var buffer = new byte[8];
                    go.SignalAndWait(TestTimeouts.Expected);
                    while (true)
                    {
                        socket.TryRecv(buffer, out _);
                    }
                });

                go.SignalAndWait(TestTimeouts.Expected);
                Thread.SpinWait(round % 200);
                socket.Dispose();

                Assert.True(call.Join(TestTimeouts.Expected), $"round {round}: the calling thread did not stop");
                Assert.IsType<ObjectDisposedException>(call.Exception);
                AssertEndpointReleased(context, endpoint);
            }
        }

        [Fact]
        public void Dispose_BetweenCallClaimAndDisposedCheck_CallingThreadClosesSocket()
        {
            // The interleaving the stress test above can only hit by luck, replayed step by step through the guard's fields:
            // (1) a call on thread A claims the socket (the guard's holder bits = 1); (2) Dispose on thread B sees the claim, leaves the close to A
            // and returns; (3) A checks for Dispose, finds it, and must now close the socket before throwing.
            using Context context = Zmq.NewContext();
            string endpoint = Transports.BindEndpoint("inproc");
            Socket socket = new Socket(context, SocketType.Pair);
            socket.Bind(endpoint);

            SetGuardBusy(socket, 1);            // (1) A's compare-exchange
            socket.Dispose();                   // (2) B: a call is in flight, so it does not close
            SetGuardBusy(socket, 0);            // rewind A to just before its claim, so the real Enter replays it
            Assert.Throws<ObjectDisposedException>(() => socket.TryRecv(new byte[1], out _)); // (3)

            AssertEndpointReleased(context, endpoint);
        }

        private static void SetGuardBusy(Socket socket, int value)
        {
            FieldInfo guardField = typeof(Socket).GetField("_guard", BindingFlags.NonPublic | BindingFlags.Instance)!;
            object guard = guardField.GetValue(socket)!;
            // The holder bits of the guard's state (the socket is still undecided: no mode bits set yet).
            guard.GetType().GetField("_state", BindingFlags.NonPublic | BindingFlags.Instance)!.SetValue(guard, value);
            guardField.SetValue(socket, guard);
        }

        private static void SendOnce(Socket socket, string kind, Message message)
        {
            switch (kind)
            {
                case "span": socket.Send(new byte[] { 1, 2, 3 }.AsSpan()); break;
                case "message": socket.Send(message); break;
                default: socket.Send("abc"); break;
            }
        }

        /// <summary>0 to 15 ms, cycling, so Dispose lands both before and well after the other thread enters its wait.</summary>
        private static void SleepFor(int round)
        {
            int ms = (round % 4) * 5;
            if (ms > 0)
            {
                Thread.Sleep(ms);
            }
        }

        /// <summary>Waits until a call on another thread holds the socket: another member then throws InvalidOperationException.</summary>
        private static void WaitUntilBusy(Socket socket)
        {
            var deadline = Stopwatch.StartNew();
            while (deadline.Elapsed < TestTimeouts.Expected)
            {
                try
                {
                    _ = socket.Events;
                }
                catch (InvalidOperationException)
                {
                    return;
                }

                Thread.Sleep(1);
            }

            Assert.Fail("the other thread never entered its call");
        }

        /// <summary>
        /// Proves zmq_close ran: libzmq frees a closed socket's inproc name (on its reaper thread, so shortly after zmq_close,
        /// not during it), after which the name can be bound again. A socket that was never closed keeps it for good.
        /// </summary>
        internal static void AssertEndpointReleased(Context context, string endpoint)
        {
            using Socket probe = new Socket(context, SocketType.Pair);
            var elapsed = Stopwatch.StartNew();
            while (true)
            {
                try
                {
                    probe.Bind(endpoint);
                    return;
                }
                catch (ZmqException e) when (e.Error == ZmqError.AddressInUse && elapsed.Elapsed < TestTimeouts.Expected)
                {
                    Thread.Sleep(1);
                }
            }
        }
    }
}
