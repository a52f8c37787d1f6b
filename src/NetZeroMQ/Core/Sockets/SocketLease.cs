using System;

namespace NetZeroMQ
{
    /// <summary>
    /// The one internal way into a socket for code outside the core (features and the machinery they attach): a claim on the
    /// socket's usage guard for the duration of a <c>using</c> scope. While it is held the native socket cannot be closed and
    /// no other thread can use it; <see cref="Dispose"/> ends the claim exactly like the end of one of the socket's own calls
    /// (closing the socket if a <c>Dispose</c> arrived meanwhile, and letting attached machinery retry its pending work).
    /// </summary>
    /// <remarks>
    /// Obtained from <see cref="Socket.Lease"/> (throws when the socket is disposed or in use), <see cref="Socket.TryLease"/>
    /// (returns false instead) or <see cref="Socket.TryLeaseForMachinery"/> (the async reactor's claim, which a caller's call
    /// waits for instead of failing). A default lease holds nothing and its <see cref="Dispose"/> does nothing. The socket's
    /// members that a lease calls carry the suffix <c>Unguarded</c> (the caller holds the guard; see src/NetZeroMQ/README.md).
    /// </remarks>
    internal readonly struct SocketLease : IDisposable
    {
        private readonly Socket? _socket;

        internal SocketLease(Socket socket) => _socket = socket;

        /// <summary>The native socket, valid until <see cref="Dispose"/>.</summary>
        internal nint Native => _socket!.NativeUnguarded;

        /// <summary>The leased socket.</summary>
        internal Socket Socket => _socket!;

        /// <summary>Whether calls on the socket may overlap (libzmq's thread-safe types, which lock inside every call).</summary>
        internal bool IsThreadSafe => _socket!.IsThreadSafe;

        /// <summary>The socket type's name for messages: "SERVER", "PUB".</summary>
        internal string TypeName => _socket!.TypeName;

        /// <summary>
        /// Whether every socket slot of the socket's context is held by an open socket, so that waiting for libzmq's reaper
        /// could free none (see <see cref="SocketSlots"/>): for a feature whose native call creates a socket of libzmq's own in
        /// the context (<c>zmq_socket_monitor</c>'s PAIR), which waits for slots as a new socket does.
        /// </summary>
        internal bool AllContextSlotsHeld => _socket!.Context.AllSlotsHeldByOpenSockets();

        /// <summary><c>ZMQ_EVENTS</c>: what the socket can do right now (reading it also processes libzmq's pending commands).</summary>
        internal PollEvents Events => _socket!.EventsUnguarded;

        /// <summary><c>ZMQ_FD</c>: the descriptor that becomes readable when <see cref="Events"/> may have changed (edge-like: a
        /// call on the socket can consume its notification, so re-read <see cref="Events"/> before waiting on it).</summary>
        internal nint Fd => _socket!.FdUnguarded;

        /// <summary>What <see cref="TryTransfer"/> returns when the call would block (EAGAIN); also the value the async side's
        /// own attempts return for it.</summary>
        internal const int WouldBlock = Socket.WouldBlock;

        /// <summary>
        /// One non-blocking attempt at a send or receive (<paramref name="op"/> is a transfer struct made while holding what it
        /// moves), with the core's transfer step: returns libzmq's result or <see cref="WouldBlock"/>, throws what a
        /// blocking call would throw, and counts what moved in the socket's traffic.
        /// </summary>
        internal int TryTransfer<T>(ref T op, int flags)
            where T : struct, INativeTransfer => _socket!.TryTransferUnguarded(ref op, flags);

        /// <summary>
        /// One non-blocking attempt to send a multipart message that the caller already validated, with the core's multipart
        /// send (all frames under this claim, the message cleared on success, the socket marked broken if it fails after the
        /// first frame). False: would block, nothing was sent.
        /// </summary>
        internal bool TrySendMultipart(MultipartMessage message) => _socket!.SendMultipartUnguarded(message, dontWait: true);

        /// <summary>One non-blocking attempt to receive a whole multipart message, with the core's multipart receive. False:
        /// none was waiting.</summary>
        internal bool TryRecvMultipart(MultipartMessage message) => _socket!.RecvMultipartUnguarded(message, dontWait: true);

        /// <summary>The machinery attached to the socket, or null.</summary>
        internal SocketAttachment? Attachment => _socket!.AttachmentUnguarded;

        /// <summary>Attaches machinery to the socket for the rest of its life (once; the socket then always uses checked mode).</summary>
        internal void Attach(SocketAttachment attachment) => _socket!.AttachUnguarded(attachment);

        /// <summary>The socket's wake-up descriptor, made on first use (null where the platform has none).</summary>
        internal WakerHandle? GetOrCreateWaker() => _socket!.GetOrCreateWakerUnguarded();

        /// <summary>Ends the claim.</summary>
        public void Dispose() => _socket?.EndLease();
    }
}
