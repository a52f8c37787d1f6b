using System;

namespace NetZeroMQ.Draft
{
    /// <summary>
    /// Creates sockets of the draft types (<see cref="DraftSocketType"/>), only when the loaded libzmq has the draft API.
    /// See <see href="http://api.zeromq.org/master:zmq-socket">zmq_socket (draft)</see>.
    /// </summary>
    public static class DraftSockets
    {
        /// <summary>
        /// Creates a socket of a draft type. The result is an ordinary <see cref="Socket"/> whose <see cref="Socket.Type"/> holds
        /// the draft number; most draft types are thread-safe in libzmq and reject multipart sends.
        /// </summary>
        /// <param name="context">The context.</param>
        /// <param name="type">The draft type.</param>
        /// <returns>The new socket.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="context"/> is null.</exception>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="type"/> is not a defined <see cref="DraftSocketType"/>.</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq lacks the draft API (<see cref="DraftApi.IsAvailable"/> is
        /// false), as distribution builds such as Debian's do.</exception>
        /// <remarks>
        /// <para>Every draft type but <see cref="DraftSocketType.Dgram"/> is thread-safe in libzmq, and so is the
        /// <see cref="Socket"/>: any number of threads may send, receive, set options and wait on it at once (the concurrent-use
        /// check, which stays on for the stable types, lets them in), and <see cref="Socket.Dispose"/> from any thread ends every
        /// call in progress with <see cref="ObjectDisposedException"/> (receives at once, sends within 50 ms).</para>
        /// <para>These types carry single-frame messages: <see cref="SendFlags.SendMore"/> and multipart messages of more than
        /// one frame are refused with <see cref="InvalidOperationException"/> before libzmq is called (libzmq refuses them
        /// with EINVAL, since another thread's frames could interleave). Address SERVER and PEER peers with a message's
        /// <c>RoutingId</c>, RADIO groups with its <c>Group</c> (<see cref="DraftExtensions"/>).</para>
        /// </remarks>
        public static Socket Create(Context context, DraftSocketType type)
        {
            if (context is null)
            {
                throw new ArgumentNullException(nameof(context));
            }

            if (type < DraftSocketType.Server || type > DraftSocketType.Channel)
            {
                throw new ArgumentOutOfRangeException(nameof(type), type, "Not a draft socket type.");
            }

            if (!DraftApi.IsAvailable)
            {
                DraftApi.ThrowUnavailable("Socket type " + type);
            }

            // Every draft type but DGRAM is thread-safe in libzmq (socket_base_t made with thread_safe = true; PEER through SERVER).
            return Socket.CreateOfNativeType(context, (int)type, threadSafe: type != DraftSocketType.Dgram, NameOf((SocketType)type));
        }

        /// <summary>The name of a socket's type, draft types included ("PEER" rather than the number 19).</summary>
        internal static string NameOf(SocketType type) =>
            type >= (SocketType)DraftSocketType.Server && type <= (SocketType)DraftSocketType.Channel
                ? ((DraftSocketType)type).ToString().ToUpperInvariant()
                : type.ToString().ToUpperInvariant();
    }
}
