#if NET
using System;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    /// <summary>
    /// Waits on the sockets' <c>ZMQ_FD</c> descriptors for the async API, on one background thread for the whole process: no
    /// thread, timer or sleep per pending operation. A registration is armed once per wait (one-shot, level-triggered), so a
    /// descriptor that became readable before it was armed still wakes the reactor.
    /// </summary>
    /// <remarks>
    /// The reactor never touches a libzmq socket's state on its own initiative: when a descriptor fires it asks the socket's
    /// <see cref="SocketAsyncState"/> to retry, and that takes the socket's guard like any other call. Linux uses epoll. The
    /// contract is small (register, arm, unregister) so that kqueue or, on Windows, where <c>ZMQ_FD</c> is a SOCKET, a
    /// WSAPoll/IOCP reactor can be added behind it.
    /// </remarks>
    internal abstract class Reactor
    {
        private static readonly Lazy<Reactor> s_shared = new Lazy<Reactor>(Create);

        /// <summary>The process-wide reactor, started on first use.</summary>
        internal static Reactor Shared => s_shared.Value;

        /// <summary>Adds a descriptor, disarmed; returns the token to arm and unregister it with.</summary>
        internal abstract int Register(nint fd, SocketAsyncState state);

        /// <summary>Asks for one wake-up when the descriptor is readable (immediately, if it already is).</summary>
        internal abstract void Arm(int token);

        /// <summary>Removes the descriptor; must run before libzmq closes it.</summary>
        internal abstract void Unregister(int token);

        private static Reactor Create()
        {
            if (RuntimeInformation.IsOSPlatform(OSPlatform.Linux))
            {
                return new EpollReactor();
            }

            throw new PlatformNotSupportedException(
                "NetZeroMQ's async API currently has a reactor for Linux (epoll) only; use the blocking API or a Poller on this platform.");
        }
    }
}
#endif
