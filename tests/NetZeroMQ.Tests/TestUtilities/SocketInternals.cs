using System.Runtime.CompilerServices;
using Xunit;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// What the tests read inside a <see cref="Socket"/> that the product has no member for. Reached through
    /// <see cref="UnsafeAccessorAttribute"/> so that the library carries no test-only member; a renamed field fails here with
    /// <see cref="System.MissingFieldException"/>, not silently.
    /// </summary>
    internal static class SocketInternals
    {
        /// <summary>Whether zmq_close has run for <paramref name="socket"/> (it was disposed and no call was in flight any more).</summary>
        internal static bool IsNativeClosed(this Socket socket) => HandleOf(socket).IsClosed;

        /// <summary>Whether the socket's waker (the descriptor a Dispose or a cancellation signals) is readable right now.</summary>
        internal static unsafe bool IsWakerSignalled(this Socket socket)
        {
            WakerHandle? waker = HandleOf(socket).Waker;
            if (waker is null)
            {
                return false;
            }

            Interop.Zmq.PollItemPosix item = default;
            item.Fd = waker.ReadFd;
            item.Events = Interop.Zmq.ZMQ_POLLIN;
            return Interop.Zmq.zmq_poll(&item, 1, 0) > 0;
        }

        /// <summary>Whether the socket's usage guard is biased to one thread now (UsageGuard.Bias.cs).</summary>
        internal static bool GuardIsBiased(this Socket socket) => GuardOf(socket).IsBiased();

        /// <summary>Whether a call holds the socket now, read without claiming it.</summary>
        internal static bool GuardIsBusy(this Socket socket) => GuardOf(socket).IsBusy;

        /// <summary>An int option as libzmq holds it (<c>zmq_getsockopt</c> on the native socket), not as the socket's option
        /// calls report it: a thread-safe socket's native timeouts hold slices, the caller's values live in shadows.</summary>
        internal static unsafe int NativeInt32Option(this Socket socket, int option)
        {
            int value;
            nuint size = sizeof(int);
            Assert.Equal(0, Interop.Zmq.zmq_getsockopt(NativeOf(socket), option, &value, &size));
            return value;
        }

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_socket")]
        private static extern ref nint NativeOf(Socket socket);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_guard")]
        private static extern ref UsageGuard GuardOf(Socket socket);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_handle")]
        private static extern ref SocketHandle HandleOf(Socket socket);
    }
}
