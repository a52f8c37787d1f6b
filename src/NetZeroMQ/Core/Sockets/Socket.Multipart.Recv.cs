using System;

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
        public void RecvMultipart(MultipartMessage message) => RecvMultipartCore(message, dontWait: false);

        /// <summary>Receives one whole multipart message into <paramref name="message"/> if one is waiting; never blocks.</summary>
        /// <param name="message">Receives the frames; cleared first (also when false is returned).</param>
        /// <returns>True if a message was received; false if none was waiting.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
        /// <exception cref="ObjectDisposedException">The socket or <paramref name="message"/> was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed for a reason other than would-block.</exception>
        public bool TryRecvMultipart(MultipartMessage message) => RecvMultipartCore(message, dontWait: true);

        /// <summary>Receives one whole multipart message into a new <see cref="MultipartMessage"/>, which the caller disposes.</summary>
        /// <returns>The message.</returns>
        /// <exception cref="ZmqException">libzmq failed (see <see cref="RecvMultipart(MultipartMessage)"/>); frames received before
        /// a failure after the first frame are disposed, and the text says how many.</exception>
        public MultipartMessage RecvMultipart()
        {
            var message = new MultipartMessage();
            try
            {
                RecvMultipartCore(message, dontWait: false);
                return message;
            }
            catch
            {
                message.Dispose();
                throw;
            }
        }

        /// <summary>Receives one whole multipart message as byte arrays, one per frame.</summary>
        /// <returns>The frames' bytes, in order.</returns>
        /// <exception cref="ZmqException">libzmq failed (see <see cref="RecvMultipart()"/>).</exception>
        public byte[][] RecvMultipartBytes()
        {
            using MultipartMessage message = RecvMultipart();
            return message.ToArrays();
        }

        private bool RecvMultipartCore(MultipartMessage message, bool dontWait)
        {
            if (message is null)
            {
                throw new ArgumentNullException(nameof(message));
            }

            Enter();
            try
            {
                return RecvMultipartUnguarded(message, dontWait);
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Receives a whole multipart message into <paramref name="message"/> (the caller holds the guard).</summary>
        internal bool RecvMultipartUnguarded(MultipartMessage message, bool dontWait)
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
                        var op = new MessageRecv(msg);
                        bool first = received == 0;
                        int size = Transfer(ref op, first && dontWait ? Interop.Zmq.ZMQ_DONTWAIT : 0, throwIfWouldBlock: !(first && dontWait));
                        if (size < 0)
                        {
                            return false;
                        }

                        frame.OnReceived(size);
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
                catch (ZmqException e) when (received > 0)
                {
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
