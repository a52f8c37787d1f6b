using System;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    public sealed unsafe partial class Socket
    {
        /// <summary>Received frames larger than this are not kept in the socket's scratch message after being copied out.</summary>
        private const int ScratchKeepLimit = 64 * 1024;

        /// <summary>Lazily made message that <see cref="RecvBytes"/> and <see cref="RecvString"/> receive into; owned by the socket.</summary>
        private Message? _scratch;

        /// <summary>
        /// Receives one frame into <paramref name="buffer"/> (<c>zmq_recv</c>). If the frame is larger than the buffer, the
        /// tail is dropped and the result says so (<see cref="RecvResult.IsTruncated"/>). Allocates nothing.
        /// See <see href="http://api.zeromq.org/4-3:zmq-recv">zmq_recv</see>.
        /// </summary>
        /// <param name="buffer">Where the frame's bytes go.</param>
        /// <param name="flags"><see cref="RecvFlags.DontWait"/> to fail instead of waiting.</param>
        /// <returns>Bytes written and the frame's real size.</returns>
        /// <exception cref="ObjectDisposedException">The socket was disposed, before or during the call.</exception>
        /// <exception cref="ZmqException">libzmq failed: <see cref="ZmqError.TryAgain"/> on timeout or would-block,
        /// <see cref="ZmqError.InvalidState"/> on a REQ/REP state error, <see cref="ZmqError.ContextTerminated"/> after shutdown,
        /// <see cref="ZmqError.NotSupported"/> on a send-only socket.</exception>
        public RecvResult Recv(Span<byte> buffer, RecvFlags flags = RecvFlags.None)
        {
            ThrowIfInvalid(flags);
            Enter();
            try
            {
                fixed (byte* p = &MemoryMarshal.GetReference(buffer))
                {
                    var op = new BufferRecv(p, buffer.Length);
                    int size = Transfer(ref op, (int)flags, throwIfWouldBlock: true);
                    return new RecvResult(Math.Min(size, buffer.Length), size);
                }
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Receives one frame into <paramref name="buffer"/> if one is waiting; never blocks.</summary>
        /// <param name="buffer">Where the frame's bytes go.</param>
        /// <param name="result">Bytes written and the frame's real size; default when false is returned.</param>
        /// <returns>True if a frame was received; false if none was waiting.</returns>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed for a reason other than would-block.</exception>
        public bool TryRecv(Span<byte> buffer, out RecvResult result)
        {
            Enter();
            try
            {
                fixed (byte* p = &MemoryMarshal.GetReference(buffer))
                {
                    var op = new BufferRecv(p, buffer.Length);
                    int size = Transfer(ref op, Interop.Zmq.ZMQ_DONTWAIT, throwIfWouldBlock: false);
                    result = size < 0 ? default : new RecvResult(Math.Min(size, buffer.Length), size);
                    return size >= 0;
                }
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>
        /// Receives one frame into <paramref name="message"/> (<c>zmq_msg_recv</c>), replacing its previous content. Reusing one
        /// message for every receive allocates nothing, managed or native, beyond what libzmq allocates for the frame itself.
        /// See <see href="http://api.zeromq.org/4-3:zmq-msg-recv">zmq_msg_recv</see>.
        /// </summary>
        /// <param name="message">The message that receives the frame.</param>
        /// <param name="flags"><see cref="RecvFlags.DontWait"/> to fail instead of waiting.</param>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
        /// <exception cref="ObjectDisposedException">The socket or message was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed, see <see cref="Recv(Span{byte}, RecvFlags)"/>.</exception>
        public void Recv(Message message, RecvFlags flags = RecvFlags.None) => RecvMessage(message, flags, throwIfWouldBlock: true);

        /// <summary>Receives one frame into <paramref name="message"/> if one is waiting; never blocks.</summary>
        /// <param name="message">The message that receives the frame.</param>
        /// <returns>True if a frame was received; false if none was waiting (the message is then unchanged).</returns>
        public bool TryRecv(Message message) => RecvMessage(message, RecvFlags.DontWait, throwIfWouldBlock: false);

        /// <summary>Receives one frame as a new byte array of exactly its size.</summary>
        /// <param name="flags"><see cref="RecvFlags.DontWait"/> to fail instead of waiting.</param>
        /// <returns>The frame's bytes.</returns>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed, see <see cref="Recv(Span{byte}, RecvFlags)"/>.</exception>
        public byte[] RecvBytes(RecvFlags flags = RecvFlags.None)
        {
            RecvScratch(flags, throwIfWouldBlock: true, out byte[]? bytes, out _);
            return bytes!;
        }

        /// <summary>Receives one frame as a new byte array if one is waiting; never blocks.</summary>
        /// <param name="bytes">The frame's bytes, or null when false is returned.</param>
        /// <returns>True if a frame was received.</returns>
        public bool TryRecvBytes([NotNullWhen(true)] out byte[]? bytes) =>
            RecvScratch(RecvFlags.DontWait, throwIfWouldBlock: false, out bytes, out _);

        /// <summary>Receives one frame and decodes it as UTF-8 (invalid bytes become U+FFFD).</summary>
        /// <param name="flags"><see cref="RecvFlags.DontWait"/> to fail instead of waiting.</param>
        /// <returns>The text.</returns>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed, see <see cref="Recv(Span{byte}, RecvFlags)"/>.</exception>
        public string RecvString(RecvFlags flags = RecvFlags.None)
        {
            RecvScratch(flags, throwIfWouldBlock: true, out _, out string? text, asString: true);
            return text!;
        }

        /// <summary>Receives one UTF-8 frame if one is waiting; never blocks.</summary>
        /// <param name="text">The text, or null when false is returned.</param>
        /// <returns>True if a frame was received.</returns>
        public bool TryRecvString([NotNullWhen(true)] out string? text) =>
            RecvScratch(RecvFlags.DontWait, throwIfWouldBlock: false, out _, out text, asString: true);

        private bool RecvMessage(Message message, RecvFlags flags, bool throwIfWouldBlock)
        {
            if (message is null)
            {
                throw new ArgumentNullException(nameof(message));
            }

            ThrowIfInvalid(flags);
            return TransferMessage(message, (int)flags, throwIfWouldBlock, isSend: false);
        }

        private bool RecvScratch(RecvFlags flags, bool throwIfWouldBlock, out byte[]? bytes, out string? text, bool asString = false)
        {
            ThrowIfInvalid(flags);
            bytes = null;
            text = null;
            Enter();
            try
            {
                ReadOnlySpan<byte> frame = RecvIntoScratch(flags, throwIfWouldBlock, out int size);
                if (size < 0)
                {
                    return false;
                }

                if (asString)
                {
                    text = Utf8.Decode(frame);
                }
                else
                {
                    bytes = frame.ToArray();
                }

                ReleaseLargeScratch(size);
                return true;
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Receives into the socket's scratch message (caller holds the guard). Size -1 means "would block".</summary>
        private ReadOnlySpan<byte> RecvIntoScratch(RecvFlags flags, bool throwIfWouldBlock, out int size)
        {
            Message scratch = _scratch ??= new Message();
            var op = new MessageRecv(scratch);
            size = Transfer(ref op, (int)flags, throwIfWouldBlock);
            return size < 0 ? default : scratch.UnguardedData;
        }

        /// <summary>Lets go of a large frame once it was copied out, rather than holding it until the next receive.</summary>
        private void ReleaseLargeScratch(int size)
        {
            if (size > ScratchKeepLimit)
            {
                _scratch!.ReleaseContentUnguarded();
            }
        }

        private static void ThrowIfInvalid(RecvFlags flags)
        {
            if ((flags & ~RecvFlags.DontWait) != 0)
            {
                throw new ArgumentOutOfRangeException(nameof(flags), flags, "Unknown receive flags.");
            }
        }
    }
}
