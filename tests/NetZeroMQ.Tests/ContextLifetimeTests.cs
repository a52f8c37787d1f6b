using System;
using System.Diagnostics;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>Shutdown and Dispose of a context with sockets still open, blocked or holding unsent messages.</summary>
    public class ContextLifetimeTests
    {
        /// <summary>Allowance on top of a linger for thread start, reconnect timers and a loaded machine.</summary>
        private static readonly TimeSpan Margin = TimeSpan.FromSeconds(2);

        [Fact]
        public void Shutdown_WithRecvBlockedOnSixThreads_EachEndsWithContextTerminated()
        {
            using Context context = Zmq.NewContext();
            const int threads = 6;
            var sockets = new Socket[threads];
            var calls = new BlockingCall[threads];
            for (int i = 0; i < threads; i++)
            {
                Socket socket = new Socket(context, i % 2 == 0 ? SocketType.Pull : SocketType.Sub);
                socket.ReceiveTimeout = Timeout.InfiniteTimeSpan;
                socket.Bind(Transports.BindEndpoint("inproc"));
                sockets[i] = socket;
                var buffer = new byte[8];
                calls[i] = BlockingCall.Start(() => socket.Recv(buffer));
            }

            Thread.Sleep(50);
            long shutdownAt = Stopwatch.GetTimestamp();
            context.Shutdown();

            foreach (BlockingCall call in calls)
            {
                Assert.True(call.Join(TimeSpan.FromSeconds(2)), "a receiver was not released by Shutdown");
                Assert.True(call.EndedAfter(shutdownAt) < TimeSpan.FromSeconds(2));
                var e = Assert.IsType<ZmqException>(call.Exception);
                Assert.Equal(ZmqError.ContextTerminated, e.Error);
            }

            // Shutdown frees nothing: the sockets are still open, but any use now says ContextTerminated.
            Assert.False(sockets[0].IsDisposed);
            Assert.Equal(ZmqError.ContextTerminated, Assert.Throws<ZmqException>(() => sockets[0].Recv(new byte[1])).Error);
            var create = Assert.Throws<ZmqException>(() => new Socket(context, SocketType.Pair));
            Assert.True(create.Error == ZmqError.ContextTerminated, create.ToString());
        }

        [Fact]
        public void IsShutdownAndIsDisposed_ShutdownThenDispose_EachTurnsTrueWithItsOwnCall()
        {
            Context context = Zmq.NewContext();
            Assert.False(context.IsShutdown);
            Assert.False(context.IsDisposed);

            context.Shutdown();

            // Shut down but not disposed: the context is still there (its members work), only its sockets are refused.
            Assert.True(context.IsShutdown);
            Assert.False(context.IsDisposed);
            Assert.Equal(TimeSpan.Zero, context.DefaultLinger);
            Assert.Equal(ZmqError.ContextTerminated, Assert.Throws<ZmqException>(() => new Socket(context, SocketType.Pair)).Error);

            context.Dispose();
            Assert.True(context.IsShutdown);
            Assert.True(context.IsDisposed);
            Assert.Throws<ObjectDisposedException>(() => context.Shutdown());

            using Context disposedOnly = Zmq.NewContext();
            disposedOnly.Dispose();
            Assert.True(disposedOnly.IsShutdown);
            Assert.True(disposedOnly.IsDisposed);
        }

        [Fact]
        public void Dispose_WithSocketsStillOpen_DisposesThemAndReturns()
        {
            Context context = Zmq.NewContext();
            var sockets = Enumerable.Range(0, 5).Select(_ => new Socket(context, SocketType.Dealer)).ToArray();
            string endpoint = Transports.BindAnywhere(sockets[0], "tcp");
            sockets[1].Connect(endpoint);
            sockets[1].Send("pending");

            BlockingCall dispose = BlockingCall.Start(context.Dispose);

            Assert.True(dispose.Join(TestTimeouts.Expected), "Context.Dispose did not return");
            Assert.Null(dispose.Exception);
            Assert.True(context.IsDisposed);
            Assert.All(sockets, s => Assert.True(s.IsDisposed));
            Assert.Throws<ObjectDisposedException>(() => sockets[2].Send("x"));
        }

        [Theory]
        [InlineData(-1)] // the default linger (Context.StandardLinger, one second)
        [InlineData(0)]
        public void Dispose_UnsentMessageToUnreachableTcpPeer_ReturnsWithinDefaultLinger(int lingerMs)
        {
            var context = new Context();
            if (lingerMs >= 0)
            {
                context.DefaultLinger = TimeSpan.FromMilliseconds(lingerMs);
            }

            TimeSpan linger = context.DefaultLinger;
            Assert.Equal(lingerMs >= 0 ? TimeSpan.FromMilliseconds(lingerMs) : Context.StandardLinger, linger);
            Socket push = new Socket(context, SocketType.Push);
            push.Connect("tcp://127.0.0.1:" + LoopbackPorts.Unused());
            Assert.True(push.TrySend("nobody will ever read this"));

            var elapsed = Stopwatch.StartNew();
            BlockingCall dispose = BlockingCall.Start(context.Dispose);
            Assert.True(dispose.Join(linger + Margin + Margin), "Context.Dispose did not return");
            elapsed.Stop();

            Assert.Null(dispose.Exception);
            Assert.True(elapsed.Elapsed < linger + Margin, $"Dispose took {elapsed.Elapsed} with linger {linger}");
            if (linger > TimeSpan.Zero)
            {
                // The queued message really was given its linger; Dispose did not just drop it.
                Assert.True(elapsed.Elapsed > linger - TimeSpan.FromMilliseconds(200), $"Dispose took only {elapsed.Elapsed}");
            }

            Assert.True(push.IsDisposed);
        }

        [Theory]
        [InlineData(true)]
        [InlineData(false)]
        public void Dispose_WhileRecvBlockedOnOtherThread_RecvEndsAndDisposeReturns(bool messageRecv)
        {
            for (int round = 0; round < 20; round++)
            {
                Context context = Zmq.NewContext();
                Socket socket = new Socket(context, SocketType.Pull);
                socket.ReceiveTimeout = Timeout.InfiniteTimeSpan;
                socket.Bind(Transports.BindEndpoint("tcp"));
                using var message = new Message();
                BlockingCall recv = BlockingCall.Start(() =>
                {
                    if (messageRecv)
                    {
                        socket.Recv(message);
                    }
                    else
                    {
                        socket.RecvString();
                    }
                });
                Thread.Sleep(round % 3 * 10);

                BlockingCall dispose = BlockingCall.Start(context.Dispose);

                Assert.True(dispose.Join(TestTimeouts.Expected), $"round {round}: Context.Dispose did not return");
                Assert.Null(dispose.Exception);
                Assert.True(recv.Join(TimeSpan.FromSeconds(2)), $"round {round}: the blocked receive did not end");
                Assert.True(
                    recv.Exception is ObjectDisposedException
                    || (recv.Exception is ZmqException z && z.Error == ZmqError.ContextTerminated),
                    $"round {round}: unexpected {recv.Exception}");
                Assert.True(socket.IsDisposed);
            }
        }

        /// <summary>
        /// A socket still inside a call on another thread when the context is disposed closes as that call leaves; Dispose
        /// waits for it and terminates the context itself, so when it returns libzmq has closed the socket's listener and its
        /// threads are gone: a process may exit right after. (Returning early left <c>zmq_ctx_term</c> running on the other
        /// thread, where a libzmq built with tweetnacl aborted at process exit.) "async" is a receive pending in the reactor,
        /// which the context's shutdown wakes: the reactor thread may be inside the socket when Dispose arrives.
        /// </summary>
        /// <remarks>
        /// The listener's end is checked by what only it could hold: for ipc, the socket file and the directory libzmq made for
        /// it (<c>ipc://*</c>), which libzmq removes as it closes the listener (4.2.3 to 4.3.1 remove only the directory, after
        /// NetZeroMQ unlinked the file just before the socket's close: <c>LibzmqVersions.LeavesWildcardIpcFile</c>); for tcp, whether a descriptor of this process still refers to that very listening socket, by its inode
        /// (<see cref="TcpListeners"/>). A connect probe to the port (this test's first check) cannot tell the listener from
        /// another socket that took the port since, and the kernel's table of listeners (its second) still lists the socket while
        /// a child process that a parallel test starts holds its copy between fork and exec: each failed a full-suite run, 1 ms
        /// after a Dispose. Where the kernel's table cannot be read, the probe remains,
        /// with the listener's port below the ephemeral range (<see cref="LoopbackPorts"/>), where no connect's source port or
        /// wildcard bind can take it.
        /// </remarks>
        [Theory]
        [InlineData("recv", "ipc")]
        [InlineData("poll", "ipc")]
        [InlineData("async", "ipc")]
        [InlineData("recv", "tcp")]
        [InlineData("poll", "tcp")]
        [InlineData("async", "tcp")]
        public void Dispose_WhileACallIsInsideASocketOnAnotherThread_TerminatesBeforeReturning(string call, string transport)
        {
            for (int round = 0; round < 10; round++)
            {
                Context context = Zmq.NewContext();
                Socket socket = new Socket(context, SocketType.Pull);
                socket.ReceiveTimeout = Timeout.InfiniteTimeSpan;
                string endpoint = transport == "tcp" ? LoopbackPorts.Bind(socket) : Transports.BindAnywhere(socket, transport);
                ulong? listener = transport == "tcp" && TcpListeners.Available ? TcpListeners.OnLoopbackPort(PortOf(endpoint)) : null;
                Assert.True(listener is not null || !TcpListeners.Available || transport != "tcp", $"no listening socket in the kernel's table for {endpoint}");
                Assert.True(ListenerStillOpen(endpoint, listener), $"{endpoint}: the check does not see the listener while it is open");
                using var poller = new Poller();
                poller.Add(socket, PollEvents.In);
                System.Threading.Tasks.Task<string>? pending = call == "async" ? socket.RecvStringAsync().AsTask() : null;
                BlockingCall? blocked = call switch
                {
                    "recv" => BlockingCall.Start(() => socket.RecvString()),
                    "poll" => BlockingCall.Start(() => poller.Poll(Timeout.InfiniteTimeSpan)),
                    _ => null,
                };
                Thread.Sleep(round % 3 * 10);

                var disposing = Stopwatch.StartNew();
                context.Dispose();
                long disposeMs = disposing.ElapsedMilliseconds;

                string where = $"round {round}, {call} over {endpoint}, Context.Dispose took {disposeMs} ms";
                Assert.False(ListenerStillOpen(endpoint, listener), where + ": the listener was still open when Dispose returned");
                Assert.True(socket.IsDisposed, where);
                if (blocked is not null)
                {
                    Assert.True(blocked.Join(TestTimeouts.Expected), $"{where}: the blocked {call} did not end");
                    Assert.True(EndedByDispose(blocked.Exception), $"{where}: unexpected {blocked.Exception}");
                }

                if (pending is not null)
                {
                    Exception? ended = Record.Exception(() => pending.Wait(TestTimeouts.Expected));
                    Assert.True(pending.IsCompleted, $"{where}: the pending async receive did not end");
                    Assert.True(EndedByDispose(ended?.InnerException), $"{where}: unexpected {ended}");
                }
            }
        }

        /// <summary>How a call ends when its socket or context is disposed under it.</summary>
        private static bool EndedByDispose(Exception? e) =>
            e is ObjectDisposedException || (e is ZmqException z && z.Error == ZmqError.ContextTerminated);

        /// <summary>
        /// Whether the listener of an endpoint that was bound once is still open: for ipc its socket file or its directory; for tcp whether this
        /// process still holds the listening socket of that inode when the kernel's tables are readable
        /// (<paramref name="tcpListener"/>), else whether anything answers a connect to the port.
        /// </summary>
        private static bool ListenerStillOpen(string endpoint, ulong? tcpListener)
        {
            if (endpoint.StartsWith("ipc://", StringComparison.Ordinal))
            {
                string path = endpoint.Substring("ipc://".Length);
                string? directory = Transports.WildcardIpcDirectory(path);
                return System.IO.File.Exists(path) || (directory is not null && System.IO.Directory.Exists(directory));
            }

            if (tcpListener is { } inode)
            {
                return TcpListeners.HeldByThisProcess(inode);
            }

            int port = PortOf(endpoint);
            using var probe = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
            try
            {
                probe.Connect(IPAddress.Loopback, port);
                return true;
            }
            catch (SocketException e) when (e.SocketErrorCode == SocketError.ConnectionRefused)
            {
                return false;
            }
        }

        private static int PortOf(string endpoint) =>
            int.Parse(endpoint.Substring(endpoint.LastIndexOf(':') + 1), System.Globalization.CultureInfo.InvariantCulture);
    }
}
