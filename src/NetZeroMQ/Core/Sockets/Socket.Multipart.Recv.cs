using System;
using System.Diagnostics.CodeAnalysis;
using System.Threading;

namespace NetZeroMQ
{
    /// <remarks>
    /// <b>Receive policy.</b> libzmq delivers a multipart message atomically: when its first frame can be received, all of it
    /// can. So a multipart receive waits (up to <see cref="ReceiveTimeout"/>) only for the first frame, and a failure after it is
    /// only possible when the context is shut down or the socket disposed. Then no frame is lost silently: the frames received
    /// so far stay in the <see cref="MultipartMessage"/> (the exception says how many), and the rest stay queued in the socket.
    /// </remarks>
    public sealed unsafe partial class Socket
    {
        /// <summary>
        /// Receives one whole multipart message into <paramref name="message"/>, replacing its frames (<c>zmq_msg_recv</c> until
        /// <c>ZMQ_RCVMORE</c> is 0). Waits up to <see cref="ReceiveTimeout"/> for the first frame. Reusing one
        /// <see cref="MultipartMessage"/> reuses its <see cref="Message"/> objects: no allocation per frame.
        /// See <see href="http://api.zeromq.org/4-3:zmq-msg-recv">zmq_msg_recv</see>.
        /// </summary>
        /// <param name="message">Receives the frames; cleared first.</param>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
        /// <exception cref="ObjectDisposedException">The socket or <paramref name="message"/> was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed: <see cref="ZmqError.TryAgain"/> on timeout (nothing received); after the
        /// first frame (context shut down) the frames received so far stay in <paramref name="message"/> and the text says how many.</exception>
        public void RecvMultipart(MultipartMessage message) => RecvMultipartCore(message, TransferWait.Blocking);

        /// <summary>Receives one whole multipart message into <paramref name="message"/> if one is waiting; never blocks.</summary>
        /// <param name="message">Receives the frames; cleared first (also when false is returned).</param>
        /// <returns>True if a message was received; false if none was waiting.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
        /// <exception cref="ObjectDisposedException">The socket or <paramref name="message"/> was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed for a reason other than would-block.</exception>
        public bool TryRecvMultipart(MultipartMessage message) => RecvMultipartCore(message, TransferWait.None);

        /// <summary>
        /// Receives one whole multipart message into <paramref name="message"/>, waiting up to <paramref name="timeout"/> for its
        /// first frame (the rest are there with it); this call's timeout replaces the socket's <see cref="ReceiveTimeout"/>. See
        /// <see cref="TryRecv(Span{byte}, TimeSpan, out RecvResult, CancellationToken)"/> for how the wait ends.
        /// </summary>
        /// <param name="message">Receives the frames; cleared first (also when false is returned).</param>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>; no frame is taken then.</param>
        /// <returns>True if a message was received; false if the timeout passed first.</returns>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or too long.</exception>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
        /// <exception cref="ObjectDisposedException">The socket or <paramref name="message"/> was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed for a reason other than would-block.</exception>
        public bool TryRecvMultipart(MultipartMessage message, TimeSpan timeout, CancellationToken cancellationToken = default) =>
            RecvMultipartCore(message, TransferWait.Within(timeout, cancellationToken));

        /// <summary>Receives one whole multipart message into a new <see cref="MultipartMessage"/>, which the caller disposes.</summary>
        /// <returns>The message.</returns>
        /// <exception cref="ZmqException">libzmq failed (see <see cref="RecvMultipart(MultipartMessage)"/>); frames received before
        /// a failure after the first frame are disposed, and the text says how many.</exception>
        public MultipartMessage RecvMultipart()
        {
            RecvNewMultipart(TransferWait.Blocking, out MultipartMessage? message);
            return message!;
        }

        /// <summary>Receives one whole multipart message into a new <see cref="MultipartMessage"/> if one is waiting; never blocks.</summary>
        /// <param name="message">The message, which the caller disposes; null when false is returned.</param>
        /// <returns>True if a message was received; false if none was waiting.</returns>
        public bool TryRecvMultipart([NotNullWhen(true)] out MultipartMessage? message) => RecvNewMultipart(TransferWait.None, out message);

        /// <summary>Receives one whole multipart message into a new <see cref="MultipartMessage"/>, waiting up to
        /// <paramref name="timeout"/>; see <see cref="TryRecvMultipart(MultipartMessage, TimeSpan, CancellationToken)"/>.</summary>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="message">The message, which the caller disposes; null when false is returned.</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True if a message was received; false if the timeout passed first.</returns>
        public bool TryRecvMultipart(TimeSpan timeout, [NotNullWhen(true)] out MultipartMessage? message, CancellationToken cancellationToken = default) =>
            RecvNewMultipart(TransferWait.Within(timeout, cancellationToken), out message);

        /// <summary>Receives one whole multipart message as byte arrays, one per frame.</summary>
        /// <returns>The frames' bytes, in order.</returns>
        /// <exception cref="ZmqException">libzmq failed (see <see cref="RecvMultipart()"/>).</exception>
        public byte[][] RecvMultipartBytes()
        {
            using MultipartMessage message = RecvMultipart();
            return message.ToArrays();
        }

        /// <summary>Receives one whole multipart message as byte arrays if one is waiting; never blocks.</summary>
        /// <param name="frames">The frames' bytes, in order; null when false is returned.</param>
        /// <returns>True if a message was received; false if none was waiting.</returns>
        public bool TryRecvMultipartBytes([NotNullWhen(true)] out byte[][]? frames) => RecvMultipartArrays(TransferWait.None, out frames);

        /// <summary>Receives one whole multipart message as byte arrays, waiting up to <paramref name="timeout"/>; see
        /// <see cref="TryRecvMultipart(MultipartMessage, TimeSpan, CancellationToken)"/>.</summary>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="frames">The frames' bytes, in order; null when false is returned.</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True if a message was received; false if the timeout passed first.</returns>
        public bool TryRecvMultipartBytes(TimeSpan timeout, [NotNullWhen(true)] out byte[][]? frames, CancellationToken cancellationToken = default) =>
            RecvMultipartArrays(TransferWait.Within(timeout, cancellationToken), out frames);

        private bool RecvNewMultipart(TransferWait wait, [NotNullWhen(true)] out MultipartMessage? received)
        {
            var message = new MultipartMessage();
            try
            {
                if (RecvMultipartCore(message, wait))
                {
                    received = message;
                    return true;
                }
            }
            catch
            {
                message.Dispose();
                throw;
            }

            message.Dispose();
            received = null;
            return false;
        }

        private bool RecvMultipartArrays(TransferWait wait, out byte[][]? frames)
        {
            frames = null;
            if (!RecvNewMultipart(wait, out MultipartMessage? message))
            {
                return false;
            }

            using (message)
            {
                frames = message.ToArrays();
                return true;
            }
        }

        private bool RecvMultipartCore(MultipartMessage message, TransferWait wait)
        {
            if (message is null)
            {
                throw new ArgumentNullException(nameof(message));
            }

            Enter();
            try
            {
                return RecvMultipartUnguarded(message, wait);
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Receives a whole multipart message into <paramref name="message"/> (the caller holds the guard), waiting for
        /// nothing when <paramref name="dontWait"/>: the step of the async machinery.</summary>
        internal bool RecvMultipartUnguarded(MultipartMessage message, bool dontWait) =>
            RecvMultipartUnguarded(message, dontWait ? TransferWait.None : TransferWait.Blocking);

        /// <summary>Receives a whole multipart message into <paramref name="message"/> (the caller holds the guard); only the first
        /// frame waits as <paramref name="wait"/> says, the rest arrived with it.</summary>
        private bool RecvMultipartUnguarded(MultipartMessage message, TransferWait wait)
        {
            bool claimed = message.Claim(); // another thread changing the frames meanwhile is concurrent use
            try
            {
                return RecvMultipartClaimed(message, wait);
            }
            finally
            {
                message.Release(claimed);
            }
        }

        private bool RecvMultipartClaimed(MultipartMessage message, TransferWait wait)
        {
            message.Clear();
            int received = 0;
            while (true)
            {
                Message frame = message.RentEmpty();
                bool appended = false;
                try
                {
                    void* msg = frame.Enter();
                    try
                    {
                        var op = new MessageRecv(frame);
                        if (Transfer(ref op, 0, received == 0 ? wait : TransferWait.Blocking) < 0)
                        {
                            return false;
                        }

                        message.AppendReceived(frame);
                        appended = true;
                        received++;
                        if (Interop.Zmq.zmq_msg_more(msg) == 0)
                        {
                            return true;
                        }
                    }
                    finally
                    {
                        frame.Exit();
                    }
                }
                catch (ZmqException e)
                {
                    // Decided here, not in a 'when' filter: src/NetZeroMQ/README.md, "Exception filters".
                    if (received == 0)
                    {
                        throw;
                    }

                    throw new ZmqException(
                        e.Error,
                        e.NativeErrorNumber,
                        "A multipart receive failed after " + received + " frames (" + e.Message + "); those frames were kept, " +
                        "the rest of the message is still queued in the socket.",
                        e.Endpoint,
                        e.Option,
                        innerException: e);
                }
                finally
                {
                    if (!appended)
                    {
                        message.ReturnUnused(frame);
                    }
                }
            }
        }
    }
}
