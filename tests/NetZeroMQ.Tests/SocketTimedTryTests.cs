using System;
using System.Buffers;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// The <c>Try</c> forms with a timeout of their own, every shape of send and receive: they return true with the bytes when
    /// the peer is ready in time, false once the timeout passed (the socket's timeout option does not apply), end at once with
    /// <see cref="ObjectDisposedException"/> on a Dispose and with <see cref="OperationCanceledException"/> on a cancellation
    /// (nothing lost), behave like the non-blocking form for <see cref="TimeSpan.Zero"/>, and reject bad timeouts up front.
    /// </summary>
    public class SocketTimedTryTests
    {
        private static readonly TimeSpan Pause = TimeSpan.FromMilliseconds(100);

        /// <summary>How long "at once" may take on a loaded machine: far below every timeout that would otherwise end the call.</summary>
        private static readonly TimeSpan Promptly = TimeSpan.FromSeconds(2);

        private static readonly string[] OneFrame = { "hello" };
        private static readonly string[] TwoFrames = { "hello", "world" };

        private delegate bool TimedRecv(Socket socket, TimeSpan timeout, CancellationToken token, out string[]? frames);

        private delegate bool TimedSend(Socket socket, TimeSpan timeout, CancellationToken token);

        private static readonly Dictionary<string, (string[] Frames, TimedRecv Recv)> s_receives = new Dictionary<string, (string[], TimedRecv)>
        {
            ["TryRecv(Span)"] = (OneFrame, (Socket s, TimeSpan t, CancellationToken c, out string[]? f) =>
            {
                var buffer = new byte[64];
                bool ok = s.TryRecv(buffer, t, out RecvResult result, c);
                f = ok ? new[] { Encoding.UTF8.GetString(buffer, 0, result.BytesWritten) } : null;
                return ok;
            }),
            ["TryRecv(Message)"] = (OneFrame, (Socket s, TimeSpan t, CancellationToken c, out string[]? f) =>
            {
                using var message = new Message();
                bool ok = s.TryRecv(message, t, c);
                f = ok ? new[] { message.GetString() } : null;
                return ok;
            }),
            ["TryRecvBytes"] = (OneFrame, (Socket s, TimeSpan t, CancellationToken c, out string[]? f) =>
            {
                bool ok = s.TryRecvBytes(t, out byte[]? bytes, c);
                f = ok ? new[] { Encoding.UTF8.GetString(bytes!) } : null;
                return ok;
            }),
            ["TryRecvString"] = (OneFrame, (Socket s, TimeSpan t, CancellationToken c, out string[]? f) =>
            {
                bool ok = s.TryRecvString(t, out string? text, c);
                f = ok ? new[] { text! } : null;
                return ok;
            }),
            ["TryRecvPooled"] = (OneFrame, (Socket s, TimeSpan t, CancellationToken c, out string[]? f) =>
            {
                bool ok = s.TryRecvPooled(t, out PooledBuffer? buffer, c);
                f = ok ? new[] { Encoding.UTF8.GetString(buffer!.Span) } : null;
                buffer?.Dispose();
                return ok;
            }),
            ["TryRecv(IBufferWriter)"] = (OneFrame, (Socket s, TimeSpan t, CancellationToken c, out string[]? f) =>
            {
                var writer = new ArrayBufferWriter<byte>();
                bool ok = s.TryRecv(writer, t, out int size, c);
                Assert.Equal(writer.WrittenCount, size);
                f = ok ? new[] { Encoding.UTF8.GetString(writer.WrittenSpan) } : null;
                return ok;
            }),
            ["TryRecvMultipart(MultipartMessage)"] = (TwoFrames, (Socket s, TimeSpan t, CancellationToken c, out string[]? f) =>
            {
                using var message = new MultipartMessage();
                bool ok = s.TryRecvMultipart(message, t, c);
                f = ok ? message.Select(frame => frame.GetString()).ToArray() : null;
                return ok;
            }),
            ["TryRecvMultipart(out)"] = (TwoFrames, (Socket s, TimeSpan t, CancellationToken c, out string[]? f) =>
            {
                bool ok = s.TryRecvMultipart(t, out MultipartMessage? message, c);
                f = ok ? message!.Select(frame => frame.GetString()).ToArray() : null;
                message?.Dispose();
                return ok;
            }),
            ["TryRecvMultipartBytes"] = (TwoFrames, (Socket s, TimeSpan t, CancellationToken c, out string[]? f) =>
            {
                bool ok = s.TryRecvMultipartBytes(t, out byte[][]? frames, c);
                f = ok ? frames!.Select(frame => Encoding.UTF8.GetString(frame)).ToArray() : null;
                return ok;
            }),
        };

        private static readonly Dictionary<string, (string[] Frames, TimedSend Send)> s_sends = new Dictionary<string, (string[], TimedSend)>
        {
            ["TrySend(Span)"] = (OneFrame, (s, t, c) => s.TrySend("hello"u8, t, cancellationToken: c)),
            ["TrySend(Byte[])"] = (OneFrame, (s, t, c) => s.TrySend(Encoding.UTF8.GetBytes("hello"), t, cancellationToken: c)),
            ["TrySend(String)"] = (OneFrame, (s, t, c) => s.TrySend("hello", t, cancellationToken: c)),
            ["TrySend(Message)"] = (OneFrame, (s, t, c) =>
            {
                using var message = new Message(Encoding.UTF8.GetBytes("hello"));
                bool ok = s.TrySend(message, t, cancellationToken: c);
                Assert.Equal(ok ? 0 : 5, message.Size); // handed over when sent, kept when not
                return ok;
            }),
            ["TrySendZeroCopy(Memory)"] = (OneFrame, (s, t, c) => s.TrySendZeroCopy(Encoding.UTF8.GetBytes("hello").AsMemory(), t, cancellationToken: c)),
            ["TrySendZeroCopy(PooledArray)"] = (OneFrame, (s, t, c) =>
            {
                byte[] rented = ArrayPool<byte>.Shared.Rent(64);
                int length = Encoding.UTF8.GetBytes("hello", rented);
                return s.TrySendZeroCopy(rented, length, ArrayPool<byte>.Shared, t, cancellationToken: c);
            }),
            ["TrySendZeroCopy(Owner)"] = (OneFrame, (s, t, c) =>
            {
                IMemoryOwner<byte> owner = MemoryPool<byte>.Shared.Rent(64);
                int length = Encoding.UTF8.GetBytes("hello", owner.Memory.Span);
                return s.TrySendZeroCopy(owner, length, t, cancellationToken: c);
            }),
            ["TrySendZeroCopy(Native)"] = (OneFrame, (s, t, c) =>
            {
                byte[] bytes = Encoding.UTF8.GetBytes("hello");
                IntPtr native = Marshal.AllocHGlobal(bytes.Length);
                Marshal.Copy(bytes, 0, native, bytes.Length);
                return s.TrySendZeroCopy(native, bytes.Length, Marshal.FreeHGlobal, t, cancellationToken: c);
            }),
            ["TrySendMultipart(MultipartMessage)"] = (TwoFrames, (s, t, c) =>
            {
                using var message = new MultipartMessage();
                message.Add("hello");
                message.Add("world");
                bool ok = s.TrySendMultipart(message, t, c);
                Assert.Equal(ok ? 0 : 2, message.Count); // handed over when sent, kept when not
                return ok;
            }),
            ["TrySendMultipart(Byte[])"] = (TwoFrames, (s, t, c) =>
                s.TrySendMultipart(new[] { Encoding.UTF8.GetBytes("hello"), Encoding.UTF8.GetBytes("world") }, t, c)),
            ["TrySendMultipart(Memory)"] = (TwoFrames, (s, t, c) =>
                s.TrySendMultipart(new List<ReadOnlyMemory<byte>> { Encoding.UTF8.GetBytes("hello"), Encoding.UTF8.GetBytes("world") }, t, c)),
            ["TrySendMultipart(String)"] = (TwoFrames, (s, t, c) => s.TrySendMultipart(new[] { "hello", "world" }, t, c)),
        };

        public static TheoryData<string> Receives => Keys(s_receives);

        public static TheoryData<string> Sends => Keys(s_sends);

        [Theory]
        [MemberData(nameof(Receives))]
        public void TimedTryRecv_MessageArrivesWithinTimeout_ReturnsTrueWithTheBytes(string shape)
        {
            (string[] frames, TimedRecv recv) = s_receives[shape];
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            pull.ReceiveTimeout = TimeSpan.Zero; // the call's own timeout replaces the socket's

            bool ok = false;
            string[]? received = null;
            BlockingCall call = BlockingCall.Start(() => ok = recv(pull, TestTimeouts.Expected, default, out received));
            Thread.Sleep(Pause);
            Assert.False(call.HasEnded, "the call returned before anything was sent: " + call.Exception);

            push.SendMultipart(frames);

            Assert.True(call.Join(TestTimeouts.Expected), "the call did not return when the message arrived");
            Assert.Null(call.Exception);
            Assert.True(ok);
            Assert.Equal(frames, received);
        }

        [Theory]
        [MemberData(nameof(Receives))]
        public void TimedTryRecv_NothingArrives_ReturnsFalseAfterTheTimeout(string shape)
        {
            TimedRecv recv = s_receives[shape].Recv;
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull); // ReceiveTimeout is TestTimeouts.Expected: not used
            Transports.BindAnywhere(pull, "inproc");
            var clock = Stopwatch.StartNew();

            Assert.False(recv(pull, TestTimeouts.Absent, default, out string[]? frames));

            Assert.Null(frames);
            Assert.True(clock.Elapsed >= TestTimeouts.Absent, "returned after " + clock.Elapsed);
            Assert.True(clock.Elapsed < TestTimeouts.Absent + Promptly, "returned after " + clock.Elapsed);
        }

        [Theory]
        [MemberData(nameof(Receives))]
        public void TimedTryRecv_DisposedDuringWait_ThrowsObjectDisposedPromptly(string shape)
        {
            TimedRecv recv = s_receives[shape].Recv;
            using Context context = Zmq.NewContext();
            Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            Transports.BindAnywhere(pull, "inproc");
            Exception? e = EndedPromptlyBy(() => recv(pull, Timeout.InfiniteTimeSpan, default, out _), pull.Dispose, "Dispose");

            Assert.IsType<ObjectDisposedException>(e);
        }

        [Theory]
        [MemberData(nameof(Receives))]
        public void TimedTryRecv_ZeroTimeout_BehavesLikeTheNonBlockingForm(string shape)
        {
            (string[] frames, TimedRecv recv) = s_receives[shape];
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            var clock = Stopwatch.StartNew();

            Assert.False(recv(pull, TimeSpan.Zero, default, out _));
            Assert.True(clock.Elapsed < Promptly, "returned after " + clock.Elapsed);

            push.SendMultipart(frames);
            Assert.True(Eventually.True(() => pull.Events.HasFlag(PollEvents.In)));
            Assert.True(recv(pull, TimeSpan.Zero, default, out string[]? received));
            Assert.Equal(frames, received);
        }

        [Theory]
        [MemberData(nameof(Receives))]
        public void TimedTryRecv_InvalidTimeout_ThrowsArgumentOutOfRangeAndTakesNothing(string shape)
        {
            (string[] frames, TimedRecv recv) = s_receives[shape];
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            push.SendMultipart(frames);

            foreach (TimeSpan bad in new[] { TimeSpan.FromMilliseconds(-2), TimeSpan.FromTicks(-1), TimeSpan.FromDays(25) })
            {
                var e = Assert.Throws<ArgumentOutOfRangeException>(() => recv(pull, bad, default, out _));
                Assert.Equal("timeout", e.ParamName);
            }

            Assert.True(recv(pull, TestTimeouts.Expected, default, out string[]? received));
            Assert.Equal(frames, received);
        }

        [Theory]
        [MemberData(nameof(Receives))]
        public void TimedTryRecv_CancelledDuringWait_ThrowsOperationCanceledPromptlyAndLosesNothing(string shape)
        {
            (string[] frames, TimedRecv recv) = s_receives[shape];
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            using var cancellation = new CancellationTokenSource();
            Exception? ended = EndedPromptlyBy(() => recv(pull, Timeout.InfiniteTimeSpan, cancellation.Token, out _), cancellation.Cancel, "the cancellation");

            var e = Assert.IsType<OperationCanceledException>(ended);
            Assert.Equal(cancellation.Token, e.CancellationToken);

            // The cancellation's wake-up was taken back (a later wait would otherwise wake at once, again and again), and the
            // socket works on: the next message arrives whole.
            Assert.False(pull.IsWakerSignalled());
            push.SendMultipart(frames);
            Assert.True(recv(pull, TestTimeouts.Expected, default, out string[]? received));
            Assert.Equal(frames, received);
        }

        [Theory]
        [MemberData(nameof(Receives))]
        public void TimedTryRecv_AlreadyCancelled_ThrowsAndLeavesTheQueuedMessage(string shape)
        {
            (string[] frames, TimedRecv recv) = s_receives[shape];
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            push.SendMultipart(frames);
            Assert.True(Eventually.True(() => pull.Events.HasFlag(PollEvents.In)));

            Assert.Throws<OperationCanceledException>(() => recv(pull, TestTimeouts.Expected, new CancellationToken(true), out _));

            Assert.True(recv(pull, TimeSpan.Zero, default, out string[]? received));
            Assert.Equal(frames, received);
        }

        [Theory]
        [MemberData(nameof(Sends))]
        public void TimedTrySend_PeerArrivesWithinTimeout_ReturnsTrueAndTheBytesArrive(string shape)
        {
            (string[] frames, TimedSend send) = s_sends[shape];
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            string endpoint = Transports.BindAnywhere(push, "inproc"); // no peer yet: a PUSH cannot queue
            push.SendTimeout = TimeSpan.Zero; // the call's own timeout replaces the socket's

            bool ok = false;
            BlockingCall call = BlockingCall.Start(() => ok = send(push, TestTimeouts.Expected, default));
            Thread.Sleep(Pause);
            Assert.False(call.HasEnded, "the call returned before a peer was there: " + call.Exception);

            pull.Connect(endpoint);

            Assert.True(call.Join(TestTimeouts.Expected), "the call did not return when the peer arrived");
            Assert.Null(call.Exception);
            Assert.True(ok);
            Assert.Equal(frames, pull.RecvMultipart().Select(f => f.GetString()).ToArray());
            Assert.Equal(TimeSpan.Zero, push.SendTimeout); // the slices the wait set natively did not leak into the option
        }

        [Theory]
        [MemberData(nameof(Sends))]
        public void TimedTrySend_NoPeer_ReturnsFalseAfterTheTimeoutAndSendsNothing(string shape)
        {
            TimedSend send = s_sends[shape].Send;
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push); // SendTimeout is TestTimeouts.Expected: not used
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            string endpoint = Transports.BindAnywhere(push, "inproc");
            var clock = Stopwatch.StartNew();

            Assert.False(send(push, TestTimeouts.Absent, default));

            Assert.True(clock.Elapsed >= TestTimeouts.Absent, "returned after " + clock.Elapsed);
            Assert.True(clock.Elapsed < TestTimeouts.Absent + Promptly, "returned after " + clock.Elapsed);
            Assert.Equal(TestTimeouts.Expected, push.SendTimeout);
            pull.Connect(endpoint);
            Assert.False(pull.TryRecvMultipart(TestTimeouts.Absent, out MultipartMessage? _));
        }

        [Theory]
        [MemberData(nameof(Sends))]
        public void TimedTrySend_DisposedDuringWait_ThrowsObjectDisposedPromptly(string shape)
        {
            TimedSend send = s_sends[shape].Send;
            using Context context = Zmq.NewContext();
            Socket push = Zmq.NewSocket(context, SocketType.Push);
            Transports.BindAnywhere(push, "inproc");
            Exception? e = EndedPromptlyBy(() => send(push, Timeout.InfiniteTimeSpan, default), push.Dispose, "Dispose");

            Assert.IsType<ObjectDisposedException>(e);
        }

        [Theory]
        [MemberData(nameof(Sends))]
        public void TimedTrySend_ZeroTimeout_BehavesLikeTheNonBlockingForm(string shape)
        {
            (string[] frames, TimedSend send) = s_sends[shape];
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            string endpoint = Transports.BindAnywhere(push, "inproc");
            var clock = Stopwatch.StartNew();

            Assert.False(send(push, TimeSpan.Zero, default));
            Assert.True(clock.Elapsed < Promptly, "returned after " + clock.Elapsed);

            pull.Connect(endpoint);
            Assert.True(Eventually.True(() => push.Events.HasFlag(PollEvents.Out)), "the peer never became writable");
            Assert.True(send(push, TimeSpan.Zero, default));
            Assert.Equal(frames, pull.RecvMultipart().Select(f => f.GetString()).ToArray());
        }

        [Theory]
        [MemberData(nameof(Sends))]
        public void TimedTrySend_InvalidTimeout_ThrowsArgumentOutOfRangeAndSendsNothing(string shape)
        {
            (string[] frames, TimedSend send) = s_sends[shape];
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));

            foreach (TimeSpan bad in new[] { TimeSpan.FromMilliseconds(-2), TimeSpan.FromTicks(-1), TimeSpan.FromDays(25) })
            {
                var e = Assert.Throws<ArgumentOutOfRangeException>(() => send(push, bad, default));
                Assert.Equal("timeout", e.ParamName);
            }

            Assert.True(send(push, TestTimeouts.Expected, default));
            Assert.Equal(frames, pull.RecvMultipart().Select(f => f.GetString()).ToArray());
            Assert.False(pull.TryRecvMultipart(TimeSpan.Zero, out MultipartMessage? _)); // only the one good send arrived
        }

        [Theory]
        [MemberData(nameof(Sends))]
        public void TimedTrySend_CancelledDuringWait_ThrowsOperationCanceledPromptlyAndSendsNothing(string shape)
        {
            (string[] frames, TimedSend send) = s_sends[shape];
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            string endpoint = Transports.BindAnywhere(push, "inproc");
            using var cancellation = new CancellationTokenSource();
            Exception? ended = EndedPromptlyBy(() => send(push, Timeout.InfiniteTimeSpan, cancellation.Token), cancellation.Cancel, "the cancellation");

            var e = Assert.IsType<OperationCanceledException>(ended);
            Assert.Equal(cancellation.Token, e.CancellationToken);

            // Nothing was queued by the cancelled call, and the socket works on.
            pull.Connect(endpoint);
            Assert.False(pull.TryRecvMultipart(TestTimeouts.Absent, out MultipartMessage? _));
            Assert.True(send(push, TestTimeouts.Expected, default));
            Assert.Equal(frames, pull.RecvMultipart().Select(f => f.GetString()).ToArray());
        }

        [Fact]
        public void TimedTrySendZeroCopy_BadTimeoutCancelledOrTimedOut_ReleasesTheMemoryOnce()
        {
            var counter = new ZeroCopy.ReleaseCounter(4);
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push);

            Assert.Throws<ArgumentOutOfRangeException>(() => push.TrySendZeroCopy(counter.Allocate(0, 64), 64, counter.Release, TimeSpan.FromMilliseconds(-2)));
            Assert.Throws<OperationCanceledException>(() =>
                push.TrySendZeroCopy(counter.Allocate(1, 64), 64, counter.Release, TestTimeouts.Expected, cancellationToken: new CancellationToken(true)));
            Assert.False(push.TrySendZeroCopy(counter.Allocate(2, 64), 64, counter.Release, TestTimeouts.Absent));
            Assert.False(push.TrySendZeroCopy(counter.Allocate(3, 64), 64, counter.Release, TimeSpan.Zero));

            Assert.Equal(0, counter.CountNotExactlyOnce());
        }

        private static TheoryData<string> Keys<T>(Dictionary<string, T> table)
        {
            var data = new TheoryData<string>();
            foreach (string key in table.Keys)
            {
                data.Add(key);
            }

            return data;
        }

        /// <summary>
        /// Starts <paramref name="blockingCall"/> on a thread of its own, lets it reach its wait, runs <paramref name="end"/> and
        /// asserts that the call then ended within <see cref="Promptly"/>; returns what it threw.
        /// </summary>
        private static Exception? EndedPromptlyBy(Action blockingCall, Action end, string what)
        {
            BlockingCall call = BlockingCall.Start(blockingCall);
            Thread.Sleep(Pause);

            long endedAt = Stopwatch.GetTimestamp();
            end();

            Assert.True(call.Join(TestTimeouts.Expected), "the wait did not end on " + what);
            Assert.True(call.EndedAfter(endedAt) < Promptly, "ended " + call.EndedAfter(endedAt) + " after " + what);
            return call.Exception;
        }
    }
}
