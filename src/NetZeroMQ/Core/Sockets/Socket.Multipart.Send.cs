using System;
using System.Collections.Generic;
using System.Threading;

namespace NetZeroMQ
{
    /// <remarks>
    /// <para><b>Why multipart sends live on <see cref="Socket"/>.</b> They are built like cppzmq's <c>zmq_addon.hpp</c>, from the
    /// same per-frame calls as <see cref="Send(Message, SendFlags)"/>, but hold the socket's guard for the whole message: another
    /// thread cannot slip a frame into the middle, and the socket cannot be closed between two frames.</para>
    /// <para><b>Failure policy.</b> Every frame is validated (nulls, disposed messages, an empty list) before the first is sent,
    /// so an argument error never leaves half a message in libzmq. libzmq checks the high-water mark only at a message's first
    /// frame and delivers messages atomically, so once the first frame is queued the rest are queued without waiting: a failure
    /// after frame <i>k</i> &gt; 0 means the context was shut down, the socket was disposed, a frame was disposed or used by another
    /// thread meanwhile, or a peer's pipe broke. libzmq cannot take back the frames already queued, and whatever this socket sent
    /// next would be glued onto them (pyzmq#669, cppzmq#117). So after such a failure the socket is marked: the exception says
    /// so, <see cref="IsMultipartSendBroken"/> turns true, and every later send on the socket (multipart or not) throws
    /// <see cref="InvalidOperationException"/>; receiving still works. Dispose the socket and make a new one. A failure at the
    /// first frame (timeout, would-block, <see cref="ZmqError.InvalidState"/>, ...) sends nothing and marks nothing.</para>
    /// </remarks>
    public sealed unsafe partial class Socket
    {
        /// <summary>
        /// Whether a multipart send on this socket failed after its first frame was queued; the socket then refuses every send
        /// (see the failure policy in <see cref="SendMultipart(MultipartMessage)"/>).
        /// </summary>
        public bool IsMultipartSendBroken => Volatile.Read(ref _brokenMultipartSend) is not null;

        /// <summary>
        /// Sends every frame of <paramref name="message"/> as one multipart message (<c>zmq_msg_send</c> with <c>ZMQ_SNDMORE</c> on
        /// all but the last). Blocks at the high-water mark for up to <see cref="SendTimeout"/>. On success the frames' content
        /// belongs to libzmq and <paramref name="message"/> is left empty, its frame objects kept for reuse.
        /// See <see href="http://api.zeromq.org/4-3:zmq-msg-send">zmq_msg_send</see>.
        /// </summary>
        /// <remarks>
        /// All frames are checked before the first is sent. If libzmq fails after the first frame, the socket is marked broken:
        /// see <see cref="IsMultipartSendBroken"/> and the failure policy on this class. On a failure at the first frame
        /// <paramref name="message"/> is unchanged.
        /// </remarks>
        /// <param name="message">The frames; at least one, none disposed.</param>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="message"/> is empty or holds a disposed frame.</exception>
        /// <exception cref="ObjectDisposedException">The socket or <paramref name="message"/> was disposed.</exception>
        /// <exception cref="InvalidOperationException">An earlier multipart send broke off on this socket; or a frame was disposed
        /// or used by another thread after the first frame was sent (the socket is then marked broken).</exception>
        /// <exception cref="ZmqException">libzmq failed; at the first frame nothing was sent, after it the message says so and the
        /// socket is marked broken.</exception>
        public void SendMultipart(MultipartMessage message) => SendMultipartMessage(message, TransferWait.Blocking);

        /// <summary>Sends a multipart message if its first frame can be queued without blocking (the rest never block).</summary>
        /// <param name="message">The frames; left empty on success, unchanged on false.</param>
        /// <returns>True if the message was queued; false if the socket would block (nothing was sent).</returns>
        /// <exception cref="ArgumentException"><paramref name="message"/> is empty or holds a disposed frame.</exception>
        /// <exception cref="ZmqException">libzmq failed for a reason other than would-block (see <see cref="SendMultipart(MultipartMessage)"/>).</exception>
        public bool TrySendMultipart(MultipartMessage message) => SendMultipartMessage(message, TransferWait.None);

        /// <summary>
        /// Sends a multipart message, waiting up to <paramref name="timeout"/> for its first frame to be queued (the rest never
        /// block); this call's timeout replaces the socket's <see cref="SendTimeout"/>. See
        /// <see cref="TrySend(ReadOnlySpan{byte}, TimeSpan, SendFlags, CancellationToken)"/> for how the wait runs.
        /// </summary>
        /// <param name="message">The frames; left empty on success, unchanged on false or cancellation.</param>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>; nothing is sent then.</param>
        /// <returns>True if the message was queued; false if the timeout passed first (nothing was sent).</returns>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or too long.</exception>
        /// <exception cref="ArgumentException"><paramref name="message"/> is empty or holds a disposed frame.</exception>
        /// <exception cref="ZmqException">libzmq failed for a reason other than would-block (see <see cref="SendMultipart(MultipartMessage)"/>).</exception>
        public bool TrySendMultipart(MultipartMessage message, TimeSpan timeout, CancellationToken cancellationToken = default) =>
            SendMultipartMessage(message, TransferWait.Within(timeout, cancellationToken));

        /// <summary>Sends copies of <paramref name="frames"/> as one multipart message. Arrays and lists are read once into a
        /// pooled snapshot, validated, then sent; other sequences are enumerated once, before anything is sent.</summary>
        /// <param name="frames">The frames, in order; at least one, none null (empty arrays are fine).</param>
        /// <exception cref="ArgumentNullException"><paramref name="frames"/> or one of its frames is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="frames"/> is empty.</exception>
        /// <exception cref="ZmqException">libzmq failed (see <see cref="SendMultipart(MultipartMessage)"/>).</exception>
        public void SendMultipart(IEnumerable<byte[]> frames) => SendSnapshot(frames, TransferWait.Blocking);

        /// <summary>Sends copies of <paramref name="frames"/> if the first frame can be queued without blocking.</summary>
        /// <param name="frames">The frames, in order; at least one, none null.</param>
        /// <returns>True if the message was queued; false if the socket would block (nothing was sent).</returns>
        public bool TrySendMultipart(IEnumerable<byte[]> frames) => SendSnapshot(frames, TransferWait.None);

        /// <summary>Sends copies of <paramref name="frames"/>, waiting up to <paramref name="timeout"/> for the first frame; see
        /// <see cref="TrySendMultipart(MultipartMessage, TimeSpan, CancellationToken)"/>.</summary>
        /// <param name="frames">The frames, in order; at least one, none null.</param>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True if the message was queued; false if the timeout passed first (nothing was sent).</returns>
        public bool TrySendMultipart(IEnumerable<byte[]> frames, TimeSpan timeout, CancellationToken cancellationToken = default) =>
            SendSnapshot(frames, TransferWait.Within(timeout, cancellationToken));

        /// <summary>Sends copies of <paramref name="frames"/> as one multipart message.</summary>
        /// <param name="frames">The frames, in order; at least one.</param>
        /// <exception cref="ArgumentNullException"><paramref name="frames"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="frames"/> is empty.</exception>
        public void SendMultipart(IEnumerable<ReadOnlyMemory<byte>> frames) => SendSnapshot(frames, TransferWait.Blocking);

        /// <summary>Sends copies of <paramref name="frames"/> if the first frame can be queued without blocking.</summary>
        /// <param name="frames">The frames, in order; at least one.</param>
        /// <returns>True if the message was queued; false if the socket would block (nothing was sent).</returns>
        public bool TrySendMultipart(IEnumerable<ReadOnlyMemory<byte>> frames) => SendSnapshot(frames, TransferWait.None);

        /// <summary>Sends copies of <paramref name="frames"/>, waiting up to <paramref name="timeout"/> for the first frame; see
        /// <see cref="TrySendMultipart(MultipartMessage, TimeSpan, CancellationToken)"/>.</summary>
        /// <param name="frames">The frames, in order; at least one.</param>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True if the message was queued; false if the timeout passed first (nothing was sent).</returns>
        public bool TrySendMultipart(IEnumerable<ReadOnlyMemory<byte>> frames, TimeSpan timeout, CancellationToken cancellationToken = default) =>
            SendSnapshot(frames, TransferWait.Within(timeout, cancellationToken));

        /// <summary>Sends <paramref name="frames"/> as UTF-8 frames of one multipart message.</summary>
        /// <param name="frames">The frames, in order; at least one, none null.</param>
        /// <exception cref="ArgumentNullException"><paramref name="frames"/> or one of its frames is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="frames"/> is empty.</exception>
        public void SendMultipart(IEnumerable<string> frames) => SendSnapshot(frames, TransferWait.Blocking);

        /// <summary>Sends <paramref name="frames"/> as UTF-8 frames if the first frame can be queued without blocking.</summary>
        /// <param name="frames">The frames, in order; at least one, none null.</param>
        /// <returns>True if the message was queued; false if the socket would block (nothing was sent).</returns>
        public bool TrySendMultipart(IEnumerable<string> frames) => SendSnapshot(frames, TransferWait.None);

        /// <summary>Sends <paramref name="frames"/> as UTF-8 frames, waiting up to <paramref name="timeout"/> for the first frame
        /// (also the form for a string array with a timeout); see <see cref="TrySendMultipart(MultipartMessage, TimeSpan, CancellationToken)"/>.</summary>
        /// <param name="frames">The frames, in order; at least one, none null.</param>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True if the message was queued; false if the timeout passed first (nothing was sent).</returns>
        public bool TrySendMultipart(IEnumerable<string> frames, TimeSpan timeout, CancellationToken cancellationToken = default) =>
            SendSnapshot(frames, TransferWait.Within(timeout, cancellationToken));

        /// <summary>Sends <paramref name="frames"/> as UTF-8 frames of one multipart message: <c>socket.SendMultipart("a", "b")</c>.</summary>
        /// <param name="frames">The frames, in order; at least one, none null.</param>
        /// <exception cref="ArgumentNullException"><paramref name="frames"/> or one of its frames is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="frames"/> is empty.</exception>
        public void SendMultipart(params string[] frames) => SendSnapshot((IEnumerable<string>)frames, TransferWait.Blocking);

        /// <summary>Sends <paramref name="frames"/> as UTF-8 frames if the first frame can be queued without blocking:
        /// <c>socket.TrySendMultipart("a", "b")</c>.</summary>
        /// <param name="frames">The frames, in order; at least one, none null.</param>
        /// <returns>True if the message was queued; false if the socket would block (nothing was sent).</returns>
        public bool TrySendMultipart(params string[] frames) => SendSnapshot((IEnumerable<string>)frames, TransferWait.None);

        private bool SendMultipartMessage(MultipartMessage message, TransferWait wait)
        {
            ValidateMultipartForSend(message);
            ThrowIfMultipartRefused(message.Frames.Count);
            ThrowIfInvalid(SendFlags.None);
            Enter();
            try
            {
                return SendMultipartUnguarded(message, wait);
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Checks every frame before anything is sent, so an argument error never leaves half a message on the wire.</summary>
        private static void ValidateMultipartForSend(MultipartMessage message)
        {
            if (message is null)
            {
                throw new ArgumentNullException(nameof(message));
            }

            message.ThrowIfDisposed();
            List<Message> list = message.Frames;
            if (list.Count == 0)
            {
                throw new ArgumentException("A multipart message needs at least one frame.", nameof(message));
            }

            for (int i = 0; i < list.Count; i++)
            {
                if (list[i].IsDisposed)
                {
                    throw new ArgumentException("Frame " + i + " of the multipart message is disposed.", nameof(message));
                }
            }
        }

        /// <summary>Sends a validated multipart message (the caller holds the guard), waiting for nothing when
        /// <paramref name="dontWait"/>: the step of the async machinery.</summary>
        internal bool SendMultipartUnguarded(MultipartMessage message, bool dontWait) =>
            SendMultipartUnguarded(message, dontWait ? TransferWait.None : TransferWait.Blocking);

        /// <summary>Sends a validated multipart message (the caller holds the guard); clears it once every frame is queued.</summary>
        private bool SendMultipartUnguarded(MultipartMessage message, TransferWait wait)
        {
            bool claimed = message.Claim(); // another thread changing the frames meanwhile is concurrent use
            try
            {
                var frames = new MessageFrames(message.Frames);
                if (!SendFramesUnguarded(ref frames, wait))
                {
                    return false;
                }

                message.Clear();
                return true;
            }
            finally
            {
                message.Release(claimed);
            }
        }

        private bool SendSnapshot<T>(IEnumerable<T> frames, TransferWait wait)
        {
            FrameSnapshot<T> snapshot = FrameSnapshot<T>.Take(frames, nameof(frames));
            try
            {
                var source = new SnapshotFrames<T>(snapshot);
                return SendFrames(ref source, wait);
            }
            finally
            {
                snapshot.Return();
            }
        }

        /// <summary>Sends validated frames under one guard; see the failure policy on this class.</summary>
        private bool SendFrames<TFrames>(ref TFrames frames, TransferWait wait)
            where TFrames : struct, IMultipartFrames
        {
            ThrowIfMultipartRefused(frames.Count);
            ThrowIfInvalid(SendFlags.None);
            Enter();
            try
            {
                return SendFramesUnguarded(ref frames, wait);
            }
            finally
            {
                Exit();
            }
        }

        private bool SendFramesUnguarded<TFrames>(ref TFrames frames, TransferWait wait)
            where TFrames : struct, IMultipartFrames
        {
            int count = frames.Count;
            for (int i = 0; i < count; i++)
            {
                int flags = i < count - 1 ? Interop.Zmq.ZMQ_SNDMORE : 0;
                if (i == 0)
                {
                    if (!frames.Send(this, 0, flags, wait))
                    {
                        return false;
                    }

                    continue;
                }

                try
                {
                    // Later frames never wait in libzmq (the high-water mark is checked at the first frame only), so they
                    // are sent blocking even by TrySendMultipart: a would-block here must not abandon a half-sent message.
                    frames.Send(this, i, flags, TransferWait.Blocking);
                }
                catch (Exception e)
                {
                    // Decided here, not in a 'when' filter: src/NetZeroMQ/README.md, "Exception filters".
                    if (e is ObjectDisposedException && _guard.IsDisposeRequested)
                    {
                        throw;
                    }

                    throw BreakMultipartSend(i, count, e);
                }
            }

            return true;
        }

        private Exception BreakMultipartSend(int sent, int count, Exception cause)
        {
            string text = "A multipart send failed after " + sent + " of " + count + " frames were queued (" + cause.Message + "). " +
                "libzmq cannot take back queued frames and would glue the next message onto them, so this socket refuses every " +
                "further send: dispose it and create a new one (receiving still works).";
            Volatile.Write(ref _brokenMultipartSend, text);
            return cause is ZmqException z
                ? new ZmqException(z.Error, z.NativeErrorNumber, text, z.Endpoint, z.Option, innerException: z)
                : new InvalidOperationException(text, cause);
        }

        private static void ThrowBrokenMultipart(string broken) =>
            throw new InvalidOperationException("This socket can no longer send. " + broken);
    }
}
