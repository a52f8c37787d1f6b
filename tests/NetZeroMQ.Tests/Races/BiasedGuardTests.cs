using System;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Races
{
    /// <summary>
    /// The usage guard's biased mode (UsageGuard.Bias.cs): an object one thread keeps using is claimed by that thread with
    /// plain stores, and every other thread must revoke the bias first. What must hold: the object becomes biased only after
    /// <see cref="UsageGuard.BiasAfterCalls"/> calls in a row by one thread; a second thread entering while the owner is
    /// inside is concurrent use (and the owner's call is unharmed); once the owner is out, another thread takes the object
    /// over and it stays checked for good; Dispose from another thread during an owner's call leaves the release to that
    /// call, exactly once. Tested on the guard itself and through sockets and messages.
    /// </summary>
    public class BiasedGuardTests
    {
        private static readonly object s_owner = new object();

        /// <summary>A guard in a class, so threads share it by reference (it is a mutable struct).</summary>
        private sealed class Guarded
        {
            public UsageGuard Guard;

            public void Call()
            {
                Assert.True(Guard.Enter(s_owner));
                Assert.False(Guard.Exit());
            }

            public void Calls(int count)
            {
                for (int i = 0; i < count; i++)
                {
                    Call();
                }
            }
        }

        /// <summary>A guard this thread has made <see cref="UsageGuard.BiasAfterCalls"/> calls on: biased to it.</summary>
        private static Guarded BiasedToThisThread()
        {
            var o = new Guarded();
            o.Calls(UsageGuard.BiasAfterCalls);
            Assert.True(o.Guard.IsBiased());
            return o;
        }

        private static void OnOtherThread(Action action)
        {
            BlockingCall call = BlockingCall.Start(action);
            Assert.True(call.Join(TestTimeouts.Expected), "the other thread did not finish");
            if (call.Exception is not null)
            {
                throw new Xunit.Sdk.XunitException("the other thread failed: " + call.Exception);
            }
        }

        [Fact]
        public void Enter_OneThreadMakesBiasAfterCallsInARow_BiasedToIt()
        {
            var o = new Guarded();
            o.Calls(UsageGuard.BiasAfterCalls - 1);
            Assert.False(o.Guard.IsBiased());
            o.Call();
            Assert.True(o.Guard.IsBiased());

            // The owner's own calls keep it biased.
            o.Calls(1000);
            Assert.True(o.Guard.IsBiased());
        }

        [Fact]
        public void Enter_TwoThreadsTakingTurns_NeverBiased()
        {
            var o = new Guarded();
            for (int i = 0; i < 10; i++)
            {
                o.Calls(UsageGuard.BiasAfterCalls - 1);
                OnOtherThread(() => o.Call());
            }

            Assert.False(o.Guard.IsBiased());
            Assert.False(o.Guard.IsCheckedForGood());
        }

        [Fact]
        public void Enter_AnotherThreadWhileTheOwnerIsInside_ConcurrentUseAndTheBiasStays()
        {
            Guarded o = BiasedToThisThread();
            Assert.True(o.Guard.Enter(s_owner));

            OnOtherThread(() =>
            {
                var e = Assert.Throws<InvalidOperationException>(() => o.Guard.Enter(s_owner));
                Assert.Contains("is being used by another thread", e.Message, StringComparison.Ordinal);
                Assert.False(o.Guard.TryEnter(out bool disposed));
                Assert.False(disposed);
                Assert.False(o.Guard.TryEnterFree());
            });

            Assert.True(o.Guard.IsBiased());
            Assert.True(o.Guard.IsBusy);
            Assert.False(o.Guard.Exit());
            Assert.False(o.Guard.IsBusy);
            o.Call();
        }

        [Fact]
        public void Enter_TheOwnerAgainWhileInside_ConcurrentUse()
        {
            Guarded o = BiasedToThisThread();
            Assert.True(o.Guard.Enter(s_owner));
            Assert.Throws<InvalidOperationException>(() => o.Guard.Enter(s_owner));
            Assert.False(o.Guard.TryEnterFree());
            Assert.False(o.Guard.Exit());
            o.Call();
        }

        [Fact]
        public void Enter_AnotherThreadOnceTheOwnerIsOut_TakesOverAndStaysChecked()
        {
            Guarded o = BiasedToThisThread();
            OnOtherThread(() =>
            {
                o.Call();
                Assert.True(o.Guard.IsCheckedForGood());

                // The other thread holds it now: the former owner is refused, and gets it once the call is over.
                Assert.True(o.Guard.Enter(s_owner));
                var former = BlockingCall.Start(() => o.Guard.Enter(s_owner));
                Assert.True(former.Join(TestTimeouts.Expected));
                Assert.IsType<InvalidOperationException>(former.Exception);
                Assert.False(o.Guard.Exit());
            });

            o.Calls(UsageGuard.BiasAfterCalls * 2);
            Assert.True(o.Guard.IsCheckedForGood());
            Assert.False(o.Guard.IsBiased());
        }

        [Fact]
        public void TryEnter_AnotherThreadOnceTheOwnerIsOut_RevokesWithoutThrowing()
        {
            Guarded o = BiasedToThisThread();
            OnOtherThread(() =>
            {
                Assert.True(o.Guard.TryEnter(out bool disposed));
                Assert.False(disposed);
                Assert.False(o.Guard.Exit());
            });

            Assert.True(o.Guard.IsCheckedForGood());
        }

        [Fact]
        public void RequestDispose_FromAnotherThreadWhileTheOwnerIsInside_TheOwnersExitReleasesOnce()
        {
            Guarded o = BiasedToThisThread();
            Assert.True(o.Guard.Enter(s_owner));

            bool disposerReleases = true;
            OnOtherThread(() => disposerReleases = o.Guard.RequestDispose());

            Assert.False(disposerReleases);
            Assert.True(o.Guard.IsDisposeRequested);
            Assert.True(o.Guard.Exit());
            Assert.False(o.Guard.RequestDispose());

            // Every later claim sees the Dispose and releases nothing more.
            Assert.False(o.Guard.Enter(s_owner));
            Assert.False(o.Guard.Exit());
        }

        [Fact]
        public void RequestDispose_FromAnotherThreadWhileTheOwnerIsOut_DisposerReleases()
        {
            Guarded o = BiasedToThisThread();
            bool disposerReleases = false;
            OnOtherThread(() => disposerReleases = o.Guard.RequestDispose());
            Assert.True(disposerReleases);
            Assert.False(o.Guard.Enter(s_owner));
            Assert.False(o.Guard.Exit());
        }

        [Fact]
        public void RequireChecks_WhileTheOwnerIsInside_MachineryWaitsForTheExit()
        {
            Guarded o = BiasedToThisThread();
            Assert.True(o.Guard.Enter(s_owner));
            o.Guard.RequireChecks();
            Assert.True(o.Guard.IsCheckedForGood());

            OnOtherThread(() => Assert.False(o.Guard.TryEnter()));
            Assert.False(o.Guard.ExitFenced());

            OnOtherThread(() =>
            {
                Assert.True(o.Guard.TryEnter());
                Assert.False(o.Guard.ExitFenced());
            });
            o.Call();
        }

        [Fact]
        public void Enter_ManyThreadsRacingAfterTheBias_EachCallAloneAndNoneLost()
        {
            Guarded o = BiasedToThisThread();
            int inside = 0;
            int overlaps = 0;
            int calls = 0;
            int refused = 0;

            // Every racer, the owner included, may be refused while another is inside: that is concurrent use, reported.
            void Race(int count)
            {
                for (int i = 0; i < count; i++)
                {
                    bool entered;
                    try
                    {
                        entered = o.Guard.Enter(s_owner);
                    }
                    catch (InvalidOperationException)
                    {
                        Interlocked.Increment(ref refused);
                        continue;
                    }

                    Assert.True(entered);
                    if (Interlocked.Increment(ref inside) != 1)
                    {
                        Interlocked.Increment(ref overlaps);
                    }

                    Interlocked.Increment(ref calls);
                    Interlocked.Decrement(ref inside);
                    Assert.False(o.Guard.Exit());
                }
            }

            using var start = new ManualResetEventSlim();
            var threads = new BlockingCall[4];
            for (int t = 0; t < threads.Length; t++)
            {
                threads[t] = BlockingCall.Start(() =>
                {
                    start.Wait();
                    Race(20_000);
                });
            }

            start.Set();
            Race(1000);
            foreach (BlockingCall thread in threads)
            {
                Assert.True(thread.Join(TestTimeouts.Expected));
                Assert.Null(thread.Exception);
            }

            Assert.Equal(0, overlaps);
            Assert.Equal(4 * 20_000 + 1000, calls + refused);
            Assert.False(o.Guard.IsBusy);
            Assert.True(o.Guard.IsCheckedForGood());
        }

        [Fact]
        public void Socket_SecondThreadWhileTheBiasedOwnerIsInABlockingReceive_ConcurrentUseThenDisposeEndsTheReceive()
        {
            using var context = new Context();
            using var pull = new Socket(context, SocketType.Pull) { ReceiveTimeout = Timeout.InfiniteTimeSpan };
            using var push = new Socket(context, SocketType.Push);
            string endpoint = Transports.BindAnywhere(pull, "inproc");
            push.Connect(endpoint);
            using var message = new Message();
            int calls = UsageGuard.BiasAfterCalls * 2;
            for (int i = 0; i < calls; i++)
            {
                push.Send(new byte[] { (byte)i });
            }

            // The receiving thread makes every call on the socket from here on, so it becomes the owner; then it blocks.
            bool biasedBeforeBlocking = false;
            BlockingCall receiver = BlockingCall.Start(() =>
            {
                for (int i = 0; i < calls; i++)
                {
                    pull.Recv(message);
                    Assert.Equal((byte)i, message.ToArray()[0]);
                }

                biasedBeforeBlocking = pull.GuardIsBiased();
                pull.Recv(message);
            });

            Assert.True(Eventually.True(() => receiver.HasEnded || (Volatile.Read(ref biasedBeforeBlocking) && pull.GuardIsBusy()), TestTimeouts.Expected));
            Assert.False(receiver.HasEnded, "the receiver ended early: " + receiver.Exception);
            var e = Assert.Throws<InvalidOperationException>(() => pull.TryRecv(new byte[8], out _));
            Assert.Contains("is being used by another thread", e.Message, StringComparison.Ordinal);
            Assert.True(pull.GuardIsBiased(), "a refused revocation gives the bias back");

            pull.Dispose();
            Assert.True(receiver.Join(TestTimeouts.Expected), "Dispose did not end the blocked receive");
            Assert.IsType<ObjectDisposedException>(receiver.Exception);
            Assert.True(pull.IsNativeClosed());
        }
    }
}
