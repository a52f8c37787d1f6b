using System;
using System.Reflection;
using System.Runtime.CompilerServices;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// What the tests read or break inside the library's machinery (reactors, the send buffer pool) that the product has no
    /// member for, like <see cref="SocketInternals"/>: through <see cref="UnsafeAccessorAttribute"/> where the owner is an
    /// instance, through reflection where it is a static class (an accessor names its target by a parameter of the target's
    /// type, which a static class cannot have on net8.0). A renamed member fails here with a Missing*Exception, not silently.
    /// </summary>
    internal static unsafe class LibraryInternals
    {
        private static readonly PropertyInfo s_poolOutstanding =
            typeof(SendBufferPool).GetProperty("Outstanding", BindingFlags.NonPublic | BindingFlags.Static)
            ?? throw new MissingMemberException(nameof(SendBufferPool), "Outstanding");

        /// <summary>The send buffer pool's buffers rented and not returned yet (sent, in flight, or held in a received message).</summary>
        internal static long PoolOutstanding => (long)s_poolOutstanding.GetValue(null)!;

        /// <summary>The epoll set's descriptor, for the tests that break it on purpose (closing it is how a real fault looks).</summary>
        internal static int EpollDescriptor(this EpollReactor reactor) => EpollOf(reactor);

        /// <summary>
        /// Breaks the portable reactor's wait for the tests of a persistent wait failure, which nothing outside can cause:
        /// points the wake-up item at memory that is no libzmq socket, so every further <c>zmq_poll</c> fails (ENOTSOCK), and
        /// wakes the reactor to meet it. The memory is left for the stopped reactor.
        /// </summary>
        internal static void BreakWait(this PollReactor reactor)
        {
            lock (LockOf(reactor))
            {
                nint notASocket = (nint)System.Runtime.InteropServices.NativeMemory.AllocZeroed(64 * 1024);
                byte* items = ItemsOf(reactor);
                if (OperatingSystem.IsWindows())
                {
                    ((Interop.Zmq.PollItemWindows*)items)[0].Socket = notASocket;
                }
                else
                {
                    ((Interop.Zmq.PollItemPosix*)items)[0].Socket = notASocket;
                }

                _ = Wake(reactor);
            }
        }

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_epoll")]
        private static extern ref int EpollOf(EpollReactor reactor);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_lock")]
        private static extern ref object LockOf(NetZeroMQ.Reactor reactor);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_items")]
        private static extern ref byte* ItemsOf(PollReactor reactor);

        [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "Wake")]
        private static extern Exception? Wake(PollReactor reactor);
    }
}
