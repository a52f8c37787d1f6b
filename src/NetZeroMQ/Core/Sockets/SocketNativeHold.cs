using System;

namespace NetZeroMQ
{
    /// <summary>
    /// The one way into a socket's native object without its guard, for code outside the core: a reference on the socket's
    /// handle (<see cref="Socket.TryHoldNative"/>) that keeps <c>zmq_close</c> from running until <see cref="Dispose"/>. It does
    /// not claim the socket: another thread may be inside a call on it, so only what libzmq allows concurrently may be done
    /// with <see cref="Native"/> (a monitor stopped while the monitored socket's owner is inside a blocking call). A default
    /// hold holds nothing and its <see cref="Dispose"/> does nothing.
    /// </summary>
    internal readonly struct SocketNativeHold : IDisposable
    {
        private readonly SocketHandle? _handle;

        internal SocketNativeHold(SocketHandle handle, nint native)
        {
            _handle = handle;
            Native = native;
        }

        /// <summary>The native socket, open until <see cref="Dispose"/>.</summary>
        internal nint Native { get; }

        /// <summary>Ends the hold (closing the socket now if it was disposed meanwhile and this was the last reference).</summary>
        public void Dispose() => _handle?.DangerousRelease();
    }
}
