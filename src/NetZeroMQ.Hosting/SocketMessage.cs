using System.Diagnostics;

namespace NetZeroMQ.Hosting
{
    /// <summary>
    /// One message received by a socket worker: its frames (a ROUTER's routing id first, a trace frame already removed), the
    /// socket it came from, to reply on, and the trace context the sender carried.
    /// </summary>
    /// <remarks>
    /// Valid only during <see cref="ISocketHandler.HandleAsync"/>: the worker reuses the frames for the next message. Copy what
    /// must outlive the call (<see cref="MultipartMessage.ToArrays"/>). The socket may be used by the handler (a reply) but not
    /// kept: it belongs to the worker, which disposes it when the host stops.
    /// </remarks>
    public sealed class SocketMessage
    {
        internal SocketMessage(string socketName, Socket socket, MultipartMessage frames)
        {
            SocketName = socketName;
            Socket = socket;
            Frames = frames;
        }

        /// <summary>The socket's name in configuration.</summary>
        public string SocketName { get; }

        /// <summary>The worker's socket, to reply on (a ROUTER reply starts with the routing id of <see cref="Frames"/>).</summary>
        public Socket Socket { get; }

        /// <summary>The message's frames.</summary>
        public MultipartMessage Frames { get; }

        /// <summary>The span context the sender carried in a trace frame, or the default when there was none (or it was malformed).</summary>
        public ActivityContext ParentContext { get; internal set; }
    }
}
