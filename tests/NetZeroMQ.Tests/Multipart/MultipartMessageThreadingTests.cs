using System;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Multipart
{
    /// <summary>
    /// A multipart message is used from one thread at a time, and concurrent use is caught as for a socket or a message
    /// (<see cref="InvalidOperationException"/>, nothing changed), so that its frame list never ends up inconsistent.
    /// </summary>
    public class MultipartMessageThreadingTests
    {
        [Fact]
        public void Add_WhileAReceiveIntoItWaits_ThrowsConcurrentUseAndTheReceiveGetsTheWholeMessage()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            using var message = new MultipartMessage();

            BlockingCall receive = BlockingCall.Start(() => pull.RecvMultipart(message));
            Thread.Sleep(TestTimeouts.Absent); // the receive is inside, waiting for the first frame

            var e = Assert.Throws<InvalidOperationException>(() => message.Add("intruder"));
            Assert.Contains("another thread", e.Message);
            Assert.Throws<InvalidOperationException>(() => message.PopFront());
            Assert.Throws<InvalidOperationException>(() => message.Clear());

            push.SendMultipart("a", "b");
            Assert.True(receive.Join(TestTimeouts.Expected), "the receive did not end");
            Assert.Null(receive.Exception);
            Assert.Equal(new[] { "a"u8.ToArray(), "b"u8.ToArray() }, message.ToArrays());
        }

        [Fact]
        public void Dispose_WhileAReceiveIntoItWaits_DoesNotThrowAndTheMessageIsDisposedWhenTheReceiveLeaves()
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            var message = new MultipartMessage();

            BlockingCall receive = BlockingCall.Start(() => pull.RecvMultipart(message));
            Thread.Sleep(TestTimeouts.Absent);
            message.Dispose();
            Assert.False(message.IsDisposed); // deferred to the thread inside

            push.SendMultipart("a", "b");
            Assert.True(receive.Join(TestTimeouts.Expected), "the receive did not end");
            Assert.Null(receive.Exception);
            Assert.True(message.IsDisposed);
        }

        [Fact]
        public void AddAndPop_TwoThreadsAtOnce_EveryCallSucceedsOrIsRefusedAndTheCountsBalance()
        {
            using var message = new MultipartMessage();
            int[] added = new int[2];
            int[] popped = new int[2];
            int[] refused = new int[2];
            Exception? unexpected = null;
            using var start = new Barrier(2);
            void Loop(int side)
            {
                start.SignalAndWait();
                for (int i = 0; i < 20_000; i++)
                {
                    try
                    {
                        if (i % 2 == 0)
                        {
                            message.Add("frame"u8);
                            added[side]++;
                        }
                        else
                        {
                            message.PopBack().Dispose();
                            popped[side]++;
                        }
                    }
                    catch (InvalidOperationException e)
                    {
                        // "no frames": the other side popped the frame this side added; else the other side was inside
                        if (!e.Message.Contains("no frames", StringComparison.Ordinal))
                        {
                            refused[side]++;
                        }
                    }
                    catch (Exception e)
                    {
                        Interlocked.CompareExchange(ref unexpected, e, null);
                        return;
                    }
                }
            }

            var other = new Thread(() => Loop(1));
            other.Start();
            Loop(0);
            Assert.True(other.Join(TestTimeouts.Expected));

            Assert.Null(unexpected);
            Assert.Equal(added[0] + added[1] - popped[0] - popped[1], message.Count);
            Assert.Equal(message.Count, message.ToArrays().Length);
        }
    }
}
