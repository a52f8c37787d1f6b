#if NET
using System;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    /// <summary>How a frame received by <see cref="SocketAsyncExtensions.RecvBytesAsync"/> and its siblings is handed out.</summary>
    internal enum FrameForm : byte
    {
        Bytes,
        String,
        Pooled,
    }

    /// <summary>
    /// What one async operation moves — a buffer, a <see cref="Message"/>, a whole <see cref="MultipartMessage"/>, or a frame
    /// copied out as a new object — and its two kinds of attempt: <see cref="TryNow"/>, the first, is the socket's own
    /// non-blocking call; <see cref="TryOnce"/>, every retry of a pending operation, is made by whoever holds the socket at
    /// that moment. Both come down to the same step the blocking calls make first (the socket's transfer step with the same
    /// transfer structs, or the core's multipart step), so sync and async paths cannot disagree about a result or an error,
    /// and a frame moved by either is counted the same way in the socket's traffic.
    /// </summary>
    internal readonly unsafe struct AsyncTransfer
    {
        private readonly Kind _kind;
        private readonly FrameForm _form;
        private readonly int _flags;
        private readonly Memory<byte> _buffer;

        /// <summary>The <see cref="Message"/> or the <see cref="MultipartMessage"/>.</summary>
        private readonly object? _target;

        private AsyncTransfer(Kind kind, Memory<byte> buffer, object? target, int flags, FrameForm form = default)
        {
            _kind = kind;
            _buffer = buffer;
            _target = target;
            _flags = flags;
            _form = form;
        }

        private enum Kind : byte
        {
            SendBuffer,
            RecvBuffer,
            SendMessage,
            RecvMessage,
            RecvFrame,
            SendMultipart,
            RecvMultipart,
        }

        internal bool IsSend => _kind is Kind.SendBuffer or Kind.SendMessage or Kind.SendMultipart;

        /// <summary>The receive buffer's length (a <see cref="RecvResult"/> reports what fitted).</summary>
        internal int BufferLength => _buffer.Length;

        internal static AsyncTransfer Send(ReadOnlyMemory<byte> data, SendFlags flags) =>
            new AsyncTransfer(Kind.SendBuffer, MemoryMarshal.AsMemory(data), null, (int)flags);

        internal static AsyncTransfer Recv(Memory<byte> buffer) => new AsyncTransfer(Kind.RecvBuffer, buffer, null, 0);

        internal static AsyncTransfer Send(Message message, SendFlags flags) => new AsyncTransfer(Kind.SendMessage, default, message, (int)flags);

        internal static AsyncTransfer Recv(Message message) => new AsyncTransfer(Kind.RecvMessage, default, message, 0);

        internal static AsyncTransfer RecvFrame(FrameForm form) => new AsyncTransfer(Kind.RecvFrame, default, null, 0, form);

        internal static AsyncTransfer SendMultipart(MultipartMessage message) => new AsyncTransfer(Kind.SendMultipart, default, message, 0);

        internal static AsyncTransfer RecvMultipart(MultipartMessage message) => new AsyncTransfer(Kind.RecvMultipart, default, message, 0);

        /// <summary>
        /// The first attempt, before anything waits: the socket's own non-blocking call (<c>TrySend</c>, <c>TryRecv</c>,
        /// <c>TryRecvBytes</c>, <c>TrySendMultipart</c>, ...), which checks its arguments and the socket as the blocking call
        /// does. Returns the bytes received (0 for anything else that completed) or <see cref="SocketLease.WouldBlock"/>; a
        /// frame receive's copy comes back in <paramref name="frame"/>.
        /// </summary>
        internal int TryNow(Socket socket, out object? frame)
        {
            frame = null;
            bool done;
            switch (_kind)
            {
                case Kind.SendBuffer:
                    done = socket.TrySend(_buffer.Span, (SendFlags)_flags);
                    break;
                case Kind.RecvBuffer:
                    return socket.TryRecv(_buffer.Span, out RecvResult result) ? result.MessageSize : SocketLease.WouldBlock;
                case Kind.SendMessage:
                    done = socket.TrySend((Message)_target!, (SendFlags)_flags);
                    break;
                case Kind.RecvMessage:
                    done = socket.TryRecv((Message)_target!);
                    break;
                case Kind.SendMultipart:
                    done = socket.TrySendMultipart((MultipartMessage)_target!);
                    break;
                case Kind.RecvMultipart:
                    done = socket.TryRecvMultipart((MultipartMessage)_target!);
                    break;
                default:
                    frame = _form switch
                    {
                        FrameForm.Bytes => socket.TryRecvBytes(out byte[]? bytes) ? bytes : null,
                        FrameForm.String => socket.TryRecvString(out string? text) ? text : null,
                        _ => socket.TryRecvPooled(out PooledBuffer? buffer) ? buffer : null,
                    };
                    done = frame is not null;
                    break;
            }

            return done ? 0 : SocketLease.WouldBlock;
        }

        /// <summary>
        /// A retry: one non-blocking attempt, by the holder of <paramref name="lease"/> (a call on the socket as it ends, or the
        /// reactor). Returns the bytes moved (0 for a multipart message) or <see cref="SocketLease.WouldBlock"/>; throws what
        /// the blocking call would throw. A frame receive's copy comes back in <paramref name="frame"/>.
        /// </summary>
        internal int TryOnce(SocketLease lease, out object? frame)
        {
            frame = null;
            switch (_kind)
            {
                case Kind.SendBuffer:
                    fixed (byte* p = _buffer.Span)
                    {
                        var op = new BufferSend(p, _buffer.Length);
                        return lease.TryTransfer(ref op, _flags);
                    }

                case Kind.RecvBuffer:
                    fixed (byte* p = _buffer.Span)
                    {
                        var op = new BufferRecv(p, _buffer.Length);
                        return lease.TryTransfer(ref op, 0);
                    }

                case Kind.SendMultipart:
                    return lease.TrySendMultipart((MultipartMessage)_target!) ? 0 : SocketLease.WouldBlock;

                case Kind.RecvMultipart:
                    return lease.TryRecvMultipart((MultipartMessage)_target!) ? 0 : SocketLease.WouldBlock;

                case Kind.RecvFrame:
                    // Into the async side's scratch message, and out of it again before the socket is let go.
                    Message scratch = lease.Attachment is ThreadSafeAsyncState shared ? shared.Scratch : ((SocketAsyncState)lease.Attachment!).Scratch;
                    int size = TryMessage(lease, scratch);
                    if (size >= 0)
                    {
                        frame = CopyOut(scratch, _form);
                    }

                    return size;

                default:
                    return TryMessage(lease, (Message)_target!);
            }
        }

        private int TryMessage(SocketLease lease, Message message)
        {
            using MessageLease held = message.Lease();
            if (_kind == Kind.SendMessage)
            {
                var send = new MessageSend(message);
                return lease.TryTransfer(ref send, _flags);
            }

            var recv = new MessageRecv(message);
            return lease.TryTransfer(ref recv, 0);
        }

        /// <summary>Copies the frame out of the scratch message, which then lets go of it (rather than holding it until the next
        /// receive).</summary>
        private static object CopyOut(Message scratch, FrameForm form)
        {
            object frame;
            switch (form)
            {
                case FrameForm.Bytes:
                    frame = scratch.ToArray();
                    break;
                case FrameForm.String:
                    frame = scratch.GetString();
                    break;
                default:
                    Span<byte> data = scratch.Data;
                    PooledBuffer buffer = PooledBuffer.Rent(data.Length);
                    data.CopyTo(buffer.Span);
                    frame = buffer;
                    break;
            }

            scratch.Rebuild();
            return frame;
        }
    }
}
#endif
