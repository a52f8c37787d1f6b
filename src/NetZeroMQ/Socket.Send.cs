using System;
using System.Buffers;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;

namespace NetZeroMQ
{
    public sealed unsafe partial class Socket
    {
        /// <summary>
        /// Sends one frame, copied from <paramref name="data"/> (<c>zmq_send</c>). Blocks at the high-water mark for up to
        /// <see cref="SendTimeout"/> unless <see cref="SendFlags.DontWait"/> is given. Allocates nothing.
        /// See <see href="http://api.zeromq.org/4-3:zmq-send">zmq_send</see>.
        /// </summary>
        /// <param name="data">The frame's bytes; may be empty.</param>
        /// <param name="flags"><see cref="SendFlags.SendMore"/> if more frames of this message follow; <see cref="SendFlags.DontWait"/>
        /// to fail instead of waiting.</param>
        /// <exception cref="ObjectDisposedException">The socket was disposed, before or during the call.</exception>
        /// <exception cref="ZmqException">libzmq failed: <see cref="ZmqError.TryAgain"/> on timeout or would-block,
        /// <see cref="ZmqError.InvalidState"/> on a REQ/REP state error, <see cref="ZmqError.HostUnreachable"/> for an unknown
        /// ROUTER_MANDATORY peer, <see cref="ZmqError.ContextTerminated"/> after shutdown, <see cref="ZmqError.NotSupported"/> on a
        /// receive-only socket.</exception>
        public void Send(ReadOnlySpan<byte> data, SendFlags flags = SendFlags.None)
        {
            ThrowIfInvalid(flags);
            Enter();
            try
            {
                SendBytesUnguarded(data, (int)flags, throwIfWouldBlock: true);
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Sends one frame copied from an array. See <see cref="Send(ReadOnlySpan{byte}, SendFlags)"/>.</summary>
        /// <param name="data">The frame's bytes.</param>
        /// <param name="flags">Send flags.</param>
        /// <exception cref="ArgumentNullException"><paramref name="data"/> is null.</exception>
        public void Send(byte[] data, SendFlags flags = SendFlags.None)
        {
            if (data is null)
            {
                throw new ArgumentNullException(nameof(data));
            }

            Send(new ReadOnlySpan<byte>(data), flags);
        }

        /// <summary>
        /// Sends one frame holding <paramref name="text"/> as UTF-8 (unpaired surrogates become U+FFFD). Strings of up to 169
        /// characters (whose UTF-8 form always fits 512 bytes) are encoded on the stack, longer ones in a pooled buffer: no
        /// allocation per call.
        /// </summary>
        /// <param name="text">The text.</param>
        /// <param name="flags">Send flags.</param>
        /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
        public void Send(string text, SendFlags flags = SendFlags.None) => SendString(text, flags, throwIfWouldBlock: true);

        /// <summary>
        /// Sends a <see cref="Message"/> (<c>zmq_msg_send</c>). On success the message's content is handed to libzmq and the
        /// message is left empty (reusable); on failure it keeps its content and stays the caller's.
        /// See <see href="http://api.zeromq.org/4-3:zmq-msg-send">zmq_msg_send</see>.
        /// </summary>
        /// <param name="message">The message to send.</param>
        /// <param name="flags">Send flags.</param>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
        /// <exception cref="ObjectDisposedException">The socket or the message was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed, see <see cref="Send(ReadOnlySpan{byte}, SendFlags)"/>.</exception>
        public void Send(Message message, SendFlags flags = SendFlags.None) => SendMessage(message, flags, throwIfWouldBlock: true);

        /// <summary>Sends one frame if that is possible without blocking.</summary>
        /// <param name="data">The frame's bytes.</param>
        /// <param name="flags">Send flags; <see cref="SendFlags.DontWait"/> is implied.</param>
        /// <returns>True if the frame was queued; false if the socket would block (high-water mark, no peer).</returns>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed for a reason other than would-block.</exception>
        public bool TrySend(ReadOnlySpan<byte> data, SendFlags flags = SendFlags.None)
        {
            ThrowIfInvalid(flags);
            Enter();
            try
            {
                return SendBytesUnguarded(data, (int)(flags | SendFlags.DontWait), throwIfWouldBlock: false);
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Sends a UTF-8 string frame if that is possible without blocking.</summary>
        /// <param name="text">The text.</param>
        /// <param name="flags">Send flags; <see cref="SendFlags.DontWait"/> is implied.</param>
        /// <returns>True if the frame was queued; false if the socket would block.</returns>
        public bool TrySend(string text, SendFlags flags = SendFlags.None) =>
            SendString(text, flags | SendFlags.DontWait, throwIfWouldBlock: false);

        /// <summary>Sends a <see cref="Message"/> if that is possible without blocking; on false the message keeps its content.</summary>
        /// <param name="message">The message to send.</param>
        /// <param name="flags">Send flags; <see cref="SendFlags.DontWait"/> is implied.</param>
        /// <returns>True if the message was queued (and is now empty); false if the socket would block.</returns>
        public bool TrySend(Message message, SendFlags flags = SendFlags.None) =>
            SendMessage(message, flags | SendFlags.DontWait, throwIfWouldBlock: false);

        private bool SendString(string text, SendFlags flags, bool throwIfWouldBlock)
        {
            if (text is null)
            {
                throw new ArgumentNullException(nameof(text));
            }

            ThrowIfInvalid(flags);
            Enter();
            try
            {
                return SendTextUnguarded(text, (int)flags, throwIfWouldBlock);
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Sends one frame; the caller holds the guard.</summary>
        private bool SendBytesUnguarded(ReadOnlySpan<byte> data, int flags, bool throwIfWouldBlock)
        {
            fixed (byte* p = &MemoryMarshal.GetReference(data))
            {
                var op = new BufferSend(p, data.Length);
                return Transfer(ref op, flags, throwIfWouldBlock) >= 0;
            }
        }

        /// <summary>Sends one UTF-8 frame, encoded on the stack when short, else in a pooled buffer; the caller holds the guard.</summary>
        private bool SendTextUnguarded(string text, int flags, bool throwIfWouldBlock)
        {
            byte[]? rented = null;
            Span<byte> buffer = Encoding.UTF8.GetMaxByteCount(text.Length) <= Utf8.StackLimit
                ? stackalloc byte[Utf8.StackLimit]
                : (rented = ArrayPool<byte>.Shared.Rent(Encoding.UTF8.GetByteCount(text)));
            try
            {
                int length;
                fixed (char* chars = text)
                fixed (byte* bytes = &MemoryMarshal.GetReference(buffer))
                {
                    length = Encoding.UTF8.GetBytes(chars, text.Length, bytes, buffer.Length);
                }

                return SendBytesUnguarded(buffer.Slice(0, length), flags, throwIfWouldBlock);
            }
            finally
            {
                if (rented is not null)
                {
                    ArrayPool<byte>.Shared.Return(rented);
                }
            }
        }

        private bool SendMessage(Message message, SendFlags flags, bool throwIfWouldBlock)
        {
            if (message is null)
            {
                throw new ArgumentNullException(nameof(message));
            }

            ThrowIfInvalid(flags);
            return TransferMessage(message, (int)flags, throwIfWouldBlock, isSend: true);
        }

        /// <summary>
        /// zmq_msg_send or zmq_msg_recv of <paramref name="message"/>, holding both guards; updates the message's cached size
        /// (empty after a send, the frame's size after a receive). False means "would block" when that is not to be thrown.
        /// </summary>
        private bool TransferMessage(Message message, int flags, bool throwIfWouldBlock, bool isSend)
        {
            Enter();
            try
            {
                void* msg = message.Enter();
                try
                {
                    int size;
                    if (isSend)
                    {
                        var op = new MessageSend(msg);
                        size = Transfer(ref op, flags, throwIfWouldBlock);
                    }
                    else
                    {
                        var op = new MessageRecv(msg);
                        size = Transfer(ref op, flags, throwIfWouldBlock);
                    }

                    if (size < 0)
                    {
                        return false;
                    }

                    if (isSend)
                    {
                        message.OnSent();
                    }
                    else
                    {
                        message.OnReceived(size);
                    }

                    return true;
                }
                finally
                {
                    message.Exit();
                }
            }
            finally
            {
                Exit();
            }
        }

        private void ThrowIfInvalid(SendFlags flags)
        {
            ThrowIfUnknown(flags);
            if (Volatile.Read(ref _brokenMultipartSend) is string broken)
            {
                ThrowBrokenMultipart(broken);
            }
        }

        private static void ThrowIfUnknown(SendFlags flags)
        {
            if ((flags & ~(SendFlags.DontWait | SendFlags.SendMore)) != 0)
            {
                throw new ArgumentOutOfRangeException(nameof(flags), flags, "Unknown send flags.");
            }
        }
    }
}
