#if NET
using System;
using System.Runtime.InteropServices;
using System.Threading;

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
        private static readonly object s_startLock = new object();
        private static Reactor? s_shared;

        /// <summary>
        /// The process-wide reactor, started by the first async operation that has to wait, on that operation's thread: if it
        /// cannot start (no descriptor for its epoll set, no thread), that operation throws and the next one tries again.
        /// </summary>
        /// <exception cref="ZmqException">No descriptor could be had (<see cref="ZmqError.TooManyOpenFiles"/>), or epoll failed.</exception>
        /// <exception cref="PlatformNotSupportedException">No reactor for this platform.</exception>
        internal static Reactor Shared => Volatile.Read(ref s_shared) ?? Start();

        /// <summary>Adds a descriptor, disarmed; returns the token to arm and unregister it with.</summary>
        /// <exception cref="ZmqException">The descriptor could not be added (the reactor is unchanged).</exception>
        internal abstract int Register(nint fd, SocketAsyncState state);

        /// <summary>
        /// Asks for one wake-up when the descriptor is readable (immediately, if it already is). Never throws (it runs on the
        /// reactor thread too): returns 0, or the errno of a failure, which the caller turns into its operations' exception.
        /// </summary>
        internal abstract int Arm(int token);

        /// <summary>Removes the descriptor; must run before libzmq closes it.</summary>
        internal abstract void Unregister(int token);

        private static Reactor Start()
        {
            lock (s_startLock)
            {
                if (s_shared is null)
                {
                    if (!RuntimeInformation.IsOSPlatform(OSPlatform.Linux))
                    {
                        throw new PlatformNotSupportedException(
                            "NetZeroMQ's async API currently has a reactor for Linux (epoll) only; use the blocking API or a Poller on this platform.");
                    }

                    Volatile.Write(ref s_shared, EpollReactor.Start());
                }

                return s_shared;
            }
        }
    }
}
#endif
