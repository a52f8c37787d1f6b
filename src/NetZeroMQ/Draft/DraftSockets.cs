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
        /// <remarks>NetZeroMQ's blocking receive waits with <c>zmq_poll</c>, which libzmq refuses for thread-safe sockets; with
        /// those use the non-blocking <c>Try</c> methods.</remarks>
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

            return Socket.CreateOfNativeType(context, (int)type);
        }

        /// <summary>The name of a socket's type, draft types included ("PEER" rather than the number 19).</summary>
        internal static string NameOf(SocketType type) =>
            type >= (SocketType)DraftSocketType.Server && type <= (SocketType)DraftSocketType.Channel
                ? ((DraftSocketType)type).ToString().ToUpperInvariant()
                : type.ToString().ToUpperInvariant();
    }
}
