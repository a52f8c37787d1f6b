using System;
using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;

namespace NetZeroMQ
{
    public sealed unsafe partial class Socket
    {
        /// <summary>
        /// Sends one frame, copied from <paramref name="data"/> (<c>zmq_send</c>). Blocks at the high-water mark for up to
        /// <see cref="SendTimeout"/>; <see cref="TrySend(ReadOnlySpan{byte}, SendFlags)"/> is the form that never blocks, and
        /// <see cref="TrySend(ReadOnlySpan{byte}, TimeSpan, SendFlags, CancellationToken)"/> the one with a timeout of its own.
        /// Allocates nothing. See <see href="http://api.zeromq.org/4-3:zmq-send">zmq_send</see>.
        /// </summary>
        /// <param name="data">The frame's bytes; may be empty.</param>
        /// <param name="flags"><see cref="SendFlags.SendMore"/> if more frames of this message follow.</param>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="flags"/> holds an unknown flag.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed, before or during the call.</exception>
        /// <exception cref="ZmqException">libzmq failed: <see cref="ZmqError.TryAgain"/> when <see cref="SendTimeout"/> passed,
        /// <see cref="ZmqError.InvalidState"/> on a REQ/REP state error, <see cref="ZmqError.HostUnreachable"/> for an unknown
        /// ROUTER_MANDATORY peer, <see cref="ZmqError.ContextTerminated"/> after shutdown, <see cref="ZmqError.NotSupported"/> on a
        /// receive-only socket.</exception>
        public void Send(ReadOnlySpan<byte> data, SendFlags flags = SendFlags.None)
        {
            ThrowIfInvalid(flags);
            Enter();
            if (!TrySendAtOnce(data, (int)flags))
            {
                SendAndExit(data, (int)flags, TransferWait.Blocking);
            }
        }

        /// <summary>Sends one frame copied from an array. See <see cref="Send(ReadOnlySpan{byte}, SendFlags)"/>.</summary>
        /// <param name="data">The frame's bytes.</param>
        /// <param name="flags">Send flags.</param>
        /// <exception cref="ArgumentNullException"><paramref name="data"/> is null.</exception>
        public void Send(byte[] data, SendFlags flags = SendFlags.None) => Send(new ReadOnlySpan<byte>(NotNull(data)), flags);

        /// <summary>
        /// Sends one frame holding <paramref name="text"/> as UTF-8 (unpaired surrogates become U+FFFD). Strings of up to 169
        /// characters (whose UTF-8 form always fits 512 bytes) are encoded on the stack, longer ones in a pooled buffer: no
        /// allocation per call.
        /// </summary>
        /// <param name="text">The text.</param>
        /// <param name="flags">Send flags.</param>
        /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
        public void Send(string text, SendFlags flags = SendFlags.None) => SendString(text, flags, TransferWait.Blocking);

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
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Send(Message message, SendFlags flags = SendFlags.None) => SendMessage(message, flags, TransferWait.Blocking);

        /// <summary>Sends one frame if that is possible without blocking (the socket's <see cref="SendTimeout"/> does not apply).</summary>
        /// <param name="data">The frame's bytes.</param>
        /// <param name="flags"><see cref="SendFlags.SendMore"/> if more frames of this message follow.</param>
        /// <returns>True if the frame was queued; false if the socket would block (high-water mark, no peer).</returns>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed for a reason other than would-block.</exception>
        public bool TrySend(ReadOnlySpan<byte> data, SendFlags flags = SendFlags.None)
        {
            ThrowIfInvalid(flags);
            Enter();
            return TrySendAtOnce(data, (int)flags) || SendAndExit(data, (int)flags, TransferWait.None);
        }

        /// <summary>Sends one frame copied from an array if that is possible without blocking.</summary>
        /// <param name="data">The frame's bytes.</param>
        /// <param name="flags">Send flags.</param>
        /// <returns>True if the frame was queued; false if the socket would block.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="data"/> is null.</exception>
        public bool TrySend(byte[] data, SendFlags flags = SendFlags.None) => TrySend(new ReadOnlySpan<byte>(NotNull(data)), flags);

        /// <summary>Sends a UTF-8 string frame if that is possible without blocking.</summary>
        /// <param name="text">The text.</param>
        /// <param name="flags">Send flags.</param>
        /// <returns>True if the frame was queued; false if the socket would block.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
        public bool TrySend(string text, SendFlags flags = SendFlags.None) => SendString(text, flags, TransferWait.None);

        /// <summary>Sends a <see cref="Message"/> if that is possible without blocking; on false the message keeps its content.</summary>
        /// <param name="message">The message to send.</param>
        /// <param name="flags">Send flags.</param>
        /// <returns>True if the message was queued (and is now empty); false if the socket would block.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
        public bool TrySend(Message message, SendFlags flags = SendFlags.None) => SendMessage(message, flags, TransferWait.None);

        /// <summary>
        /// Sends one frame, waiting up to <paramref name="timeout"/> for room at the high-water mark; this call's timeout
        /// replaces the socket's <see cref="SendTimeout"/>. The wait runs in slices of at most 50 ms, between which a
        /// <see cref="Dispose"/> or a cancellation is noticed.
        /// </summary>
        /// <param name="data">The frame's bytes.</param>
        /// <param name="timeout">How long to wait: <see cref="TimeSpan.Zero"/> not at all (as
        /// <see cref="TrySend(ReadOnlySpan{byte}, SendFlags)"/>), <see cref="Timeout.InfiniteTimeSpan"/> without limit.</param>
        /// <param name="flags"><see cref="SendFlags.SendMore"/> if more frames of this message follow.</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>; nothing is sent then.</param>
        /// <returns>True if the frame was queued; false if the timeout passed first.</returns>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or longer
        /// than <see cref="int.MaxValue"/> milliseconds, or <paramref name="flags"/> holds an unknown flag.</exception>
        /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled before the frame was queued.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed, before or during the wait.</exception>
        /// <exception cref="ZmqException">libzmq failed for a reason other than would-block.</exception>
        public bool TrySend(ReadOnlySpan<byte> data, TimeSpan timeout, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default) =>
            SendSpan(data, flags, TransferWait.Within(timeout, cancellationToken));

        /// <summary>Sends one frame copied from an array, waiting up to <paramref name="timeout"/>; see
        /// <see cref="TrySend(ReadOnlySpan{byte}, TimeSpan, SendFlags, CancellationToken)"/>.</summary>
        /// <param name="data">The frame's bytes.</param>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="flags">Send flags.</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True if the frame was queued; false if the timeout passed first.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="data"/> is null.</exception>
        public bool TrySend(byte[] data, TimeSpan timeout, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default) =>
            SendSpan(new ReadOnlySpan<byte>(NotNull(data)), flags, TransferWait.Within(timeout, cancellationToken));

        /// <summary>Sends a UTF-8 string frame, waiting up to <paramref name="timeout"/>; see
        /// <see cref="TrySend(ReadOnlySpan{byte}, TimeSpan, SendFlags, CancellationToken)"/>.</summary>
        /// <param name="text">The text.</param>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="flags">Send flags.</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True if the frame was queued; false if the timeout passed first.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
        public bool TrySend(string text, TimeSpan timeout, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default) =>
            SendString(text, flags, TransferWait.Within(timeout, cancellationToken));

        /// <summary>Sends a <see cref="Message"/>, waiting up to <paramref name="timeout"/>; on false or cancellation the message
        /// keeps its content. See <see cref="TrySend(ReadOnlySpan{byte}, TimeSpan, SendFlags, CancellationToken)"/>.</summary>
        /// <param name="message">The message to send.</param>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="flags">Send flags.</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True if the message was queued (and is now empty); false if the timeout passed first.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
        public bool TrySend(Message message, TimeSpan timeout, SendFlags flags = SendFlags.None, CancellationToken cancellationToken = default) =>
            SendMessage(message, flags, TransferWait.Within(timeout, cancellationToken));

        /// <summary>Inlined (the throw is out of line): as a call of its own it would cost the array send more than its instruction budget allows (benchmarks/instructions/budgets.txt).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private static byte[] NotNull(byte[] data)
        {
            if (data is null)
            {
                ThrowNullData();
            }

            return data;
        }

        [DoesNotReturn]
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void ThrowNullData() => throw new ArgumentNullException("data");

        private bool SendSpan(ReadOnlySpan<byte> data, SendFlags flags, TransferWait wait)
        {
            ThrowIfInvalid(flags);
            Enter();
            return SendAndExit(data, (int)flags, wait);
        }

        private bool SendString(string text, SendFlags flags, TransferWait wait)
        {
            if (text is null)
            {
                throw new ArgumentNullException(nameof(text));
            }

            ThrowIfInvalid(flags);
            Enter();
            try
            {
                return SendTextUnguarded(text, (int)flags, wait);
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Sends one UTF-8 frame, encoded on the stack when short, else in a pooled buffer; the caller holds the guard.</summary>
        private bool SendTextUnguarded(string text, int flags, TransferWait wait)
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

                return SendBytesUnguarded(buffer.Slice(0, length), flags, wait);
            }
            finally
            {
                if (rented is not null)
                {
                    ArrayPool<byte>.Shared.Return(rented);
                }
            }
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private bool SendMessage(Message message, SendFlags flags, TransferWait wait)
        {
            if (message is null)
            {
                throw new ArgumentNullException(nameof(message));
            }

            ThrowIfInvalid(flags);
            return TransferMessage(message, (int)flags, wait, isSend: true);
        }

        private void ThrowIfInvalid(SendFlags flags)
        {
            ThrowIfUnknown(flags);
            if (Volatile.Read(ref _brokenMultipartSend) is string broken)
            {
                ThrowBrokenMultipart(broken);
            }
        }

        private void ThrowIfUnknown(SendFlags flags)
        {
            if ((flags & ~_sendFlagsAllowed) != 0)
            {
                ThrowRefusedFlags(flags);
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void ThrowRefusedFlags(SendFlags flags)
        {
            if ((flags & ~SendFlags.SendMore) != 0)
            {
                throw new ArgumentOutOfRangeException(nameof(flags), flags, "Unknown send flags.");
            }

            ThrowMultipartRefused();
        }

        /// <summary>libzmq refuses <c>ZMQ_SNDMORE</c> on its thread-safe sockets (EINVAL); say so, and why, before trying.</summary>
        private void ThrowMultipartRefused() =>
            throw new InvalidOperationException(
                "A " + TypeName + " socket sends single-frame messages only: libzmq's thread-safe socket types refuse SendMore " +
                "(a message's frames could interleave with another thread's). Send one frame, or use the stable socket types.");

        /// <summary>Refuses a multipart message of more than one frame on a thread-safe socket, before anything is sent.</summary>
        private void ThrowIfMultipartRefused(int frameCount)
        {
            if (frameCount > 1 && _sendFlagsAllowed == SendFlags.None)
            {
                ThrowMultipartRefused();
            }
        }
    }
}
