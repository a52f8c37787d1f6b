using System;

namespace NetZeroMQ
{
    /// <summary>
    /// One way of a steerable proxy (frontend to backend, or back): moves whole messages from its source to its destination,
    /// frame by frame with libzmq's message path (<c>zmq_msg_recv</c> into a reused <see cref="Message"/>, <c>zmq_msg_send</c>
    /// of it: the content is handed over, never copied), copies each frame to the capture socket, and counts what it moved.
    /// Used only by the proxy's loop thread, which holds the sockets' leases; nothing is allocated per message.
    /// </summary>
    /// <remarks>
    /// 1. Nothing held: receive a message's first frame without waiting (none: the source is drained).
    /// 2. Copy it to the capture socket if that can take it now; a capture socket that cannot (its high-water mark, or no peer)
    ///    misses that message (from the frame it refused on) rather than stall the proxy.
    /// 3. Send it without waiting. If the destination cannot take it, the frame is held (the rest of the message stays in the
    ///    source, where libzmq keeps a multipart message whole) and the loop waits for the destination; nothing is sent twice.
    /// 4. Once the first frame is taken, the rest follow at once: libzmq delivers a multipart message whole and, once it took the
    ///    first frame, takes the others (a pipe counts whole messages against its high-water mark). Should the destination
    ///    still refuse one (its peer went away mid-message), the rest of that message is received and dropped, so the source
    ///    is never left in the middle of a message.
    /// Counts: a frame's bytes count as received when it is received and as sent when the destination took it; a message
    /// counts when its last frame did. Copies to the capture socket are not counted.
    /// </remarks>
    internal sealed unsafe class ProxyDirection : IDisposable
    {
        /// <summary>The socket messages come from (leased for the whole run).</summary>
        private readonly SocketLease _from;

        /// <summary>The socket messages go to (leased for the whole run).</summary>
        private readonly SocketLease _to;

        /// <summary>The capture socket (leased for the whole run), when <see cref="_capturing"/>.</summary>
        private readonly SocketLease _capture;

        /// <summary>Whether there is a capture socket.</summary>
        private readonly bool _capturing;

        /// <summary>The frame being forwarded, reused for every frame.</summary>
        private readonly Message _frame = new Message();

        /// <summary>The capture copy of <see cref="_frame"/> (content shared above 33 bytes: <c>zmq_msg_copy</c>), or null.</summary>
        private readonly Message? _copy;

        /// <summary>Whether <see cref="_frame"/> holds the first frame of a message its destination has not taken yet.</summary>
        private bool _holding;

        /// <summary>With <see cref="_holding"/>: whether more frames of the held message wait in the source.</summary>
        private bool _heldHasMore;

        /// <summary>Whether the capture socket refused a frame of the message under way (it then gets none of the rest).</summary>
        private bool _captureMisses;

        internal ProxyDirection(SocketLease from, SocketLease to, SocketLease capture, bool capturing)
        {
            _from = from;
            _to = to;
            _capture = capture;
            _capturing = capturing;
            if (capturing)
            {
                try
                {
                    _copy = new Message();
                }
                catch
                {
                    _frame.Dispose();
                    throw;
                }
            }
        }

        /// <summary>Whether a message's first frame waits for the destination (the loop then waits for it to be writable).</summary>
        internal bool IsHolding => _holding;

        /// <summary>Messages received from the source (a message counts when its last frame was received).</summary>
        internal ulong MessagesReceived { get; private set; }

        /// <summary>Bytes received from the source, all frames.</summary>
        internal ulong BytesReceived { get; private set; }

        /// <summary>Messages the destination took (a message counts when its last frame was taken).</summary>
        internal ulong MessagesSent { get; private set; }

        /// <summary>Bytes the destination took, all frames.</summary>
        internal ulong BytesSent { get; private set; }

        /// <summary>
        /// Forwards up to <paramref name="budget"/> messages: the held one first, then what waits in the source. Returns when
        /// the source is drained, the destination cannot take more (<see cref="IsHolding"/>), or the budget is spent; true if
        /// the destination took at least one frame. Throws <see cref="ZmqException"/> for a failed transfer (ETERM included:
        /// the context is shutting down).
        /// </summary>
        internal bool Forward(int budget)
        {
            bool moved = false;
            for (int i = 0; i < budget; i++)
            {
                if (!_holding)
                {
                    if (!TryRecvFrame(out bool more))
                    {
                        return moved; // drained
                    }

                    _heldHasMore = more;
                    _holding = true;
                }

                if (!TrySendFrame(_heldHasMore))
                {
                    return moved; // the destination is full: hold the frame until it can take it
                }

                moved = true;
                _holding = false;
                if (_heldHasMore)
                {
                    ForwardRest();
                }
                else
                {
                    MessagesSent++;
                }
            }

            return moved;
        }

        /// <summary>
        /// Drops a held message: its first frame, and the rest of it from the source (which would otherwise hand the next reader
        /// a message without its first frame). For a proxy that terminates while its destination was full.
        /// </summary>
        internal void DropHeld()
        {
            if (!_holding)
            {
                return;
            }

            _holding = false;
            bool more = _heldHasMore;
            while (more)
            {
                if (!TryRecvFrame(out more))
                {
                    ThrowMessageCutShort();
                }
            }

            _frame.Rebuild(); // releases the held frame's content
        }

        /// <summary>Releases the reused messages.</summary>
        public void Dispose()
        {
            _frame.Dispose();
            _copy?.Dispose();
        }

        /// <summary>The first frame was taken: the rest of the message follows (see the type's remarks, step 4).</summary>
        private void ForwardRest()
        {
            bool more = true;
            while (more)
            {
                if (!TryRecvFrame(out more))
                {
                    ThrowMessageCutShort();
                }

                if (!TrySendFrame(more))
                {
                    // The destination refused a frame after taking the first one: its peer went away mid-message, and libzmq
                    // dropped what it had taken. Drop the rest from the source too.
                    while (more)
                    {
                        if (!TryRecvFrame(out more))
                        {
                            ThrowMessageCutShort();
                        }
                    }

                    return;
                }
            }

            MessagesSent++;
        }

        /// <summary>One frame from the source into <see cref="_frame"/>, counted, and copied to the capture socket.</summary>
        private bool TryRecvFrame(out bool more)
        {
            int size;
            using (MessageLease held = _frame.Lease())
            {
                var recv = new MessageRecv(_frame);
                size = _from.TryTransfer(ref recv, 0);
                if (size == SocketLease.WouldBlock)
                {
                    more = false;
                    return false;
                }

                more = Interop.Zmq.zmq_msg_more(held.Native) != 0;
            }

            BytesReceived += (ulong)size;
            if (!more)
            {
                MessagesReceived++;
            }

            if (_capturing)
            {
                Capture(more);
            }

            return true;
        }

        /// <summary><see cref="_frame"/> to the destination; false if it cannot take it now (the frame is kept).</summary>
        private bool TrySendFrame(bool more)
        {
            int size;
            using (_frame.Lease())
            {
                var send = new MessageSend(_frame);
                size = _to.TryTransfer(ref send, more ? Interop.Zmq.ZMQ_SNDMORE : 0);
            }

            if (size == SocketLease.WouldBlock)
            {
                return false;
            }

            BytesSent += (ulong)size;
            return true;
        }

        /// <summary>A copy of the frame just received to the capture socket, unless it refused a frame of this message.</summary>
        private void Capture(bool more)
        {
            if (!_captureMisses)
            {
                _copy!.CopyFrom(_frame);
                using (_copy.Lease())
                {
                    var send = new MessageSend(_copy);
                    _captureMisses = _capture.TryTransfer(ref send, more ? Interop.Zmq.ZMQ_SNDMORE : 0) == SocketLease.WouldBlock;
                }
            }

            // A capture socket that refused a frame gets none of the rest of that message (it would take them as a message of
            // their own); from the next message on it gets copies again.
            if (!more)
            {
                _captureMisses = false;
            }
        }

        private static void ThrowMessageCutShort() =>
            throw new InvalidOperationException(
                "The proxy's source socket ended a multipart message early: libzmq delivers a multipart message whole, so this " +
                "is a libzmq defect; the proxy stopped rather than forward a broken message.");
    }
}
