using System;
using System.Buffers;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using NetZeroMQ.Tests.ZeroCopy;
using Xunit;

namespace NetZeroMQ.Tests.Reliability
{
    /// <summary>
    /// Zero-copy buffers over every path (the socket's zero-copy send, a sent Message, a Message shared by a copy and never
    /// sent, a Message closed unsent, pooled arrays and memory owners) while a thread forces collections. Pass: every native
    /// buffer released exactly once (per-buffer counts), and the library's slot counters show as many releases as buffers
    /// handed over, with none outstanding. (Moved here from ZeroCopyReleaseTests and extended with the managed paths.)
    /// </summary>
    [Collection(IsolatedCollection.Name)]
    public class ZeroCopyStressTests : ZeroCopyMachineryTest
    {
        [Theory]
        [InlineData("inproc", 100_000)]
        [InlineData("tcp", 100_000)]
        public void EveryPath_UnderGcStress_ReleasesEqualMessagesNoDuplicates(string transport, int count) => Stress(transport, count);

        [Theory]
        [Trait(Tiers.Category, Tiers.Long)]
        [InlineData("inproc")]
        [InlineData("tcp")]
        [InlineData("ipc")]
        public void EveryPath_UnderGcStressMillionMessages_ReleasesEqualMessagesNoDuplicates(string transport) => Stress(transport, 1_000_000);

        private static void Stress(string transport, int count)
        {
            var counter = new ReleaseCounter(count);
            var owners = new CountingMemoryPool();
            ResourceSnapshot before = Counters.Settled();
            int nativeBuffers = 0, managedBuffers = 0;
            using var stop = new CancellationTokenSource();
            var collector = new Thread(() =>
            {
                while (!stop.IsCancellationRequested)
                {
                    GC.Collect();
                    Thread.Sleep(1);
                }
            });
            collector.Start();

            using (Context context = Zmq.NewContext())
            using (Socket pull = Zmq.NewSocket(context, SocketType.Pull))
            using (Socket push = Zmq.NewSocket(context, SocketType.Push))
            {
                push.Connect(Transports.BindAnywhere(pull, transport));
                using var received = new Message();
                using var copy = new Message();
                for (int id = 0; id < count; id++)
                {
                    switch (id % 6)
                    {
                        case 0: // the socket's zero-copy path
                            push.SendZeroCopy(counter.Allocate(id, 40), 40, counter.Release);
                            nativeBuffers++;
                            break;
                        case 1: // a Message, sent
                            using (var message = new Message(counter.Allocate(id, 40), 40, counter.Release))
                            {
                                push.Send(message);
                            }

                            nativeBuffers++;
                            break;
                        case 2: // a Message, shared with a copy, never sent
                            using (var message = new Message(counter.Allocate(id, 40), 40, counter.Release))
                            {
                                copy.CopyFrom(message);
                            }

                            copy.Rebuild();
                            nativeBuffers++;
                            continue;
                        case 3: // a Message, closed unsent
                            new Message(counter.Allocate(id, 40), 40, counter.Release).Dispose();
                            nativeBuffers++;
                            continue;
                        case 4: // an ArrayPool array, returned after release
                            byte[] array = ArrayPool<byte>.Shared.Rent(64);
                            BitConverter.TryWriteBytes(array, id);
                            push.SendZeroCopy(array, 64, ArrayPool<byte>.Shared);
                            managedBuffers++;
                            break;
                        default: // an IMemoryOwner, disposed after release
                            IMemoryOwner<byte> owner = owners.Rent(64);
                            BitConverter.TryWriteBytes(owner.Memory.Span, id);
                            push.SendZeroCopy(owner, 64);
                            managedBuffers++;
                            break;
                    }

                    pull.Recv(received);
                    Assert.Equal(id, BitConverter.ToInt32(received.Data));
                }
            }

            stop.Cancel();
            Assert.True(collector.Join(TestTimeouts.Expected));
            Assert.True(Eventually.True(() => counter.Total == nativeBuffers), $"native releases {counter.Total} of {nativeBuffers}");
            Assert.Equal(0, counter.CountAllocatedNotExactlyOnce());
            Assert.True(Eventually.True(() => owners.Disposed == owners.Rented), $"owners disposed {owners.Disposed} of {owners.Rented}");
            ResourceSnapshot after = ResourceCounters.Snapshot();
            long pins = after.ZeroCopyPins - before.ZeroCopyPins;
            long releases = after.ZeroCopyReleases - before.ZeroCopyReleases;
            Assert.Equal(nativeBuffers + managedBuffers, pins);
            Assert.Equal(pins, releases);
            Assert.Equal(0, after.PinnedZeroCopyBuffers - before.PinnedZeroCopyBuffers);
            Assert.Equal(before.ReleaseFailures, after.ReleaseFailures);
        }

        /// <summary>Memory owners that count their own disposal (twice would be a bug, so it throws and shows as a release failure).</summary>
        private sealed class CountingMemoryPool
        {
            public int Rented;
            public int Disposed;

            public IMemoryOwner<byte> Rent(int size)
            {
                Interlocked.Increment(ref Rented);
                return new Owner(this, new byte[size]);
            }

            private sealed class Owner : IMemoryOwner<byte>
            {
                private readonly CountingMemoryPool _pool;
                private int _disposed;

                public Owner(CountingMemoryPool pool, byte[] array)
                {
                    _pool = pool;
                    Memory = array;
                }

                public Memory<byte> Memory { get; }

                public void Dispose()
                {
                    if (Interlocked.Exchange(ref _disposed, 1) != 0)
                    {
                        throw new InvalidOperationException("memory owner disposed twice");
                    }

                    Interlocked.Increment(ref _pool.Disposed);
                }
            }
        }
    }
}
