using System;

namespace NetZeroMQ.Draft
{
    /// <summary>
    /// The draft socket options that have a type of their own: <see cref="SocketOptions.RouterNotify"/> as
    /// <see cref="RouterNotifications"/> flags. The other draft options are plain keys of <see cref="SocketOptions"/>.
    /// See <see href="http://api.zeromq.org/master:zmq-setsockopt">zmq_setsockopt (draft options)</see>.
    /// </summary>
    public static class DraftSocketOptions
    {
        /// <summary>The draft options of <see cref="Socket"/> as properties (C# 14 and later); compilers before C# 14 see the
        /// same as the extension methods <see cref="GetRouterNotify"/> and <see cref="SetRouterNotify"/>.</summary>
        /// <param name="socket">The socket.</param>
        extension(Socket socket)
        {
            /// <summary>
            /// When a ROUTER delivers an empty message carrying a peer's routing id: on connect, disconnect, or both
            /// (<see cref="SocketOptions.RouterNotify"/>). Set it before Bind/Connect.
            /// </summary>
            /// <exception cref="ArgumentOutOfRangeException">Set to flags other than <see cref="RouterNotifications"/>'s.</exception>
            /// <exception cref="NotSupportedException">The loaded libzmq lacks the draft API.</exception>
            /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
            /// <exception cref="ZmqException">The socket is not a ROUTER (<see cref="ZmqError.InvalidArgument"/>, on set).</exception>
            public RouterNotifications RouterNotify
            {
                get => GetRouterNotify(socket);
                set => SetRouterNotify(socket, value);
            }
        }

        /// <summary>Reads <see cref="SocketOptions.RouterNotify"/> as flags.</summary>
        /// <param name="socket">The socket.</param>
        /// <returns>The flags.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq lacks the draft API.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        public static RouterNotifications GetRouterNotify(this Socket socket) =>
            (RouterNotifications)NotNull(socket).GetOption(SocketOptions.RouterNotify);

        /// <summary>Sets <see cref="SocketOptions.RouterNotify"/> from flags.</summary>
        /// <param name="socket">A ROUTER socket.</param>
        /// <param name="value">The flags.</param>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="value"/> has flags other than
        /// <see cref="RouterNotifications"/>'s; the message names the option.</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq lacks the draft API.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">The socket is not a ROUTER (<see cref="ZmqError.InvalidArgument"/>).</exception>
        public static void SetRouterNotify(this Socket socket, RouterNotifications value) =>
            NotNull(socket).SetOption(SocketOptions.RouterNotify, (int)value);

        private static Socket NotNull(Socket socket) => socket ?? throw new ArgumentNullException(nameof(socket));
    }
}
