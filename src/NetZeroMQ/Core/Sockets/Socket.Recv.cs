using System;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ
{
    public sealed unsafe partial class Socket
    {
        /// <summary>Received frames larger than this are not kept in the socket's scratch message after being copied out.</summary>
        private const int ScratchKeepLimit = 64 * 1024;

        /// <summary>
        /// Receives one frame into <paramref name="buffer"/> (<c>zmq_recv</c>), waiting up to <see cref="ReceiveTimeout"/>. If the
        /// frame is larger than the buffer, the tail is dropped and the result says so (<see cref="RecvResult.IsTruncated"/>).
        /// Allocates nothing. <see cref="TryRecv(Span{byte}, out RecvResult)"/> is the form that never blocks, and
        /// <see cref="TryRecv(Span{byte}, TimeSpan, out RecvResult, CancellationToken)"/> the one with a timeout of its own.
        /// See <see href="http://api.zeromq.org/4-3:zmq-recv">zmq_recv</see>.
        /// </summary>
        /// <param name="buffer">Where the frame's bytes go.</param>
        /// <returns>Bytes written and the frame's real size.</returns>
        /// <exception cref="ObjectDisposedException">The socket was disposed, before or during the call.</exception>
        /// <exception cref="ZmqException">libzmq failed: <see cref="ZmqError.TryAgain"/> when <see cref="ReceiveTimeout"/> passed,
        /// <see cref="ZmqError.InvalidState"/> on a REQ/REP state error, <see cref="ZmqError.ContextTerminated"/> after shutdown,
        /// <see cref="ZmqError.NotSupported"/> on a send-only socket.</exception>
        // Inlined into the caller, as the span Send is: NativeAOT kept it a call of its own, whose frame (six registers saved
        // and restored, the locals cleared) did not fit the span path's instruction budget (benchmarks/instructions/budgets.txt).
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public RecvResult Recv(Span<byte> buffer)
        {
            Enter();
            int size;
            fixed (byte* p = &MemoryMarshal.GetReference(buffer))
            {
                // The first attempt without a try/finally (TryReceiveAtOnce); anything else goes the usual way.
                var op = new BufferRecv(p, buffer.Length);
                if (!TryReceiveAtOnce(ref op, TransferWait.Blocking, out size))
                {
                    return RecvAndExit(buffer);
                }
            }

            ExitAfterMove(isSend: false, size);
            return new RecvResult(Math.Min(size, buffer.Length), size);
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
                    int size = Transfer(ref op, 0, TransferWait.None);
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
        /// Receives one frame into <paramref name="buffer"/>, waiting up to <paramref name="timeout"/> for one to arrive; this
        /// call's timeout replaces the socket's <see cref="ReceiveTimeout"/>. A <see cref="Dispose"/> on another thread or a
        /// cancellation ends the wait at once (on Windows within 50 ms).
        /// </summary>
        /// <param name="buffer">Where the frame's bytes go.</param>
        /// <param name="timeout">How long to wait: <see cref="TimeSpan.Zero"/> not at all (as
        /// <see cref="TryRecv(Span{byte}, out RecvResult)"/>), <see cref="Timeout.InfiniteTimeSpan"/> without limit.</param>
        /// <param name="result">Bytes written and the frame's real size; default when false is returned.</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>; no frame is taken then.</param>
        /// <returns>True if a frame was received; false if the timeout passed first.</returns>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or longer
        /// than <see cref="int.MaxValue"/> milliseconds.</exception>
        /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled before a frame arrived.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed, before or during the wait.</exception>
        /// <exception cref="ZmqException">libzmq failed for a reason other than would-block.</exception>
        public bool TryRecv(Span<byte> buffer, TimeSpan timeout, out RecvResult result, CancellationToken cancellationToken = default)
        {
            TransferWait wait = TransferWait.Within(timeout, cancellationToken);
            Enter();
            try
            {
                fixed (byte* p = &MemoryMarshal.GetReference(buffer))
                {
                    var op = new BufferRecv(p, buffer.Length);
                    int size = Transfer(ref op, 0, wait);
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
        /// Receives one frame into <paramref name="message"/> (<c>zmq_msg_recv</c>), replacing its previous content; waits up to
        /// <see cref="ReceiveTimeout"/>. A receive that times out leaves the message empty (libzmq releases the previous content
        /// before it looks for a frame). Reusing one message for every receive allocates nothing, managed or native, beyond what
        /// libzmq allocates for the frame itself.
        /// See <see href="http://api.zeromq.org/4-3:zmq-msg-recv">zmq_msg_recv</see>.
        /// </summary>
        /// <param name="message">The message that receives the frame.</param>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
        /// <exception cref="ObjectDisposedException">The socket or message was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed, see <see cref="Recv(Span{byte})"/>.</exception>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Recv(Message message) => RecvMessage(message, TransferWait.Blocking);

        /// <summary>Receives one frame into <paramref name="message"/> if one is waiting; never blocks.</summary>
        /// <param name="message">The message that receives the frame.</param>
        /// <returns>True if a frame was received; false if none was waiting (the message is then empty: libzmq releases the
        /// previous content before it looks for a frame).</returns>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
        public bool TryRecv(Message message) => RecvMessage(message, TransferWait.None);

        /// <summary>Receives one frame into <paramref name="message"/>, waiting up to <paramref name="timeout"/>; see
        /// <see cref="TryRecv(Span{byte}, TimeSpan, out RecvResult, CancellationToken)"/>.</summary>
        /// <param name="message">The message that receives the frame.</param>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True if a frame was received; false if the timeout passed first (the message is then empty: libzmq releases
        /// the previous content before it looks for a frame).</returns>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
        public bool TryRecv(Message message, TimeSpan timeout, CancellationToken cancellationToken = default) =>
            RecvMessage(message, TransferWait.Within(timeout, cancellationToken));

        /// <summary>Receives one frame as a new byte array of exactly its size, waiting up to <see cref="ReceiveTimeout"/>.</summary>
        /// <returns>The frame's bytes.</returns>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed, see <see cref="Recv(Span{byte})"/>.</exception>
        public byte[] RecvBytes()
        {
            RecvScratch(TransferWait.Blocking, out byte[]? bytes, out _);
            return bytes!;
        }

        /// <summary>Receives one frame as a new byte array if one is waiting; never blocks.</summary>
        /// <param name="bytes">The frame's bytes, or null when false is returned.</param>
        /// <returns>True if a frame was received.</returns>
        public bool TryRecvBytes([NotNullWhen(true)] out byte[]? bytes) => RecvScratch(TransferWait.None, out bytes, out _);

        /// <summary>Receives one frame as a new byte array, waiting up to <paramref name="timeout"/>; see
        /// <see cref="TryRecv(Span{byte}, TimeSpan, out RecvResult, CancellationToken)"/>.</summary>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="bytes">The frame's bytes, or null when false is returned.</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True if a frame was received; false if the timeout passed first.</returns>
        public bool TryRecvBytes(TimeSpan timeout, [NotNullWhen(true)] out byte[]? bytes, CancellationToken cancellationToken = default) =>
            RecvScratch(TransferWait.Within(timeout, cancellationToken), out bytes, out _);

        /// <summary>Receives one frame and decodes it as UTF-8 (invalid bytes become U+FFFD), waiting up to <see cref="ReceiveTimeout"/>.</summary>
        /// <returns>The text.</returns>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq failed, see <see cref="Recv(Span{byte})"/>.</exception>
        public string RecvString()
        {
            RecvScratch(TransferWait.Blocking, out _, out string? text, asString: true);
            return text!;
        }

        /// <summary>Receives one UTF-8 frame if one is waiting; never blocks.</summary>
        /// <param name="text">The text, or null when false is returned.</param>
        /// <returns>True if a frame was received.</returns>
        public bool TryRecvString([NotNullWhen(true)] out string? text) =>
            RecvScratch(TransferWait.None, out _, out text, asString: true);

        /// <summary>Receives one UTF-8 frame, waiting up to <paramref name="timeout"/>; see
        /// <see cref="TryRecv(Span{byte}, TimeSpan, out RecvResult, CancellationToken)"/>.</summary>
        /// <param name="timeout">How long to wait (zero: not at all; infinite: without limit).</param>
        /// <param name="text">The text, or null when false is returned.</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True if a frame was received; false if the timeout passed first.</returns>
        public bool TryRecvString(TimeSpan timeout, [NotNullWhen(true)] out string? text, CancellationToken cancellationToken = default) =>
            RecvScratch(TransferWait.Within(timeout, cancellationToken), out _, out text, asString: true);

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private bool RecvMessage(Message message, TransferWait wait)
        {
            if (message is null)
            {
                throw new ArgumentNullException(nameof(message));
            }

            return TransferMessage(message, 0, wait, isSend: false);
        }

        private bool RecvScratch(TransferWait wait, out byte[]? bytes, out string? text, bool asString = false)
        {
            bytes = null;
            text = null;
            Enter();
            Message scratch = TakeScratch(ref _scratch);
            int size = -1;
            try
            {
                ReadOnlySpan<byte> frame = RecvIntoScratch(scratch, wait, out size);
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

                return true;
            }
            finally
            {
                ReturnScratch(ref _scratch, scratch, size);
                Exit();
            }
        }

        /// <summary>Receives into a scratch message (caller holds the guard). Size -1 means "would block" or "timed out".</summary>
        private ReadOnlySpan<byte> RecvIntoScratch(Message scratch, TransferWait wait, out int size)
        {
            var op = new MessageRecv(scratch);
            size = Transfer(ref op, 0, wait);
            return size < 0 ? default : scratch.UnguardedData;
        }

        /// <summary>
        /// The socket's scratch message in <paramref name="slot"/>, made on first use (the caller holds the guard). On a
        /// thread-safe socket several calls run at once, so each takes the message out of the slot (or makes one) and gives it
        /// back with <see cref="ReturnScratch"/>: two calls never share one.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private Message TakeScratch(ref Message? slot) =>
            !IsThreadSafe ? slot ??= new Message() : Interlocked.Exchange(ref slot, null) ?? new Message();

        /// <summary>
        /// Ends a use of a scratch message: lets go of a large frame once it was copied out (<paramref name="size"/> bytes),
        /// rather than holding it until the next receive; on a thread-safe socket puts the message back in the slot, or
        /// closes it when another call put its own back first.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private void ReturnScratch(ref Message? slot, Message scratch, int size)
        {
            if (size > ScratchKeepLimit)
            {
                scratch.ReleaseContentUnguarded();
            }

            if (IsThreadSafe && Interlocked.CompareExchange(ref slot, scratch, null) is not null)
            {
                scratch.ReleaseOwned();
            }
        }
    }
}
