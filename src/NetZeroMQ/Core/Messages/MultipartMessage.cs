using System;
using System.Collections;
using System.Collections.Generic;

namespace NetZeroMQ
{
    /// <summary>
    /// The frames of one multipart message, in order, each a <see cref="Message"/> (cppzmq's <c>multipart_t</c>). Send it with
    /// <see cref="Socket.SendMultipart(MultipartMessage)"/>, receive into it with <see cref="Socket.RecvMultipart(MultipartMessage)"/>.
    /// See <see href="http://api.zeromq.org/4-3:zmq-msg-send">zmq_msg_send</see> (multi-part messages).
    /// </summary>
    /// <remarks>
    /// <para><b>Ownership.</b> The multipart message owns its frames: <see cref="Add(Message)"/>, <see cref="Insert"/> and
    /// <see cref="PushFront(Message)"/> take ownership of the message given, <see cref="PopFront"/> and <see cref="PopBack"/>
    /// hand it back to the caller, and <see cref="Dispose"/> disposes every frame it still holds.</para>
    /// <para><b>Reuse.</b> <see cref="Clear"/> releases the frames' content but keeps the <see cref="Message"/> objects as spares;
    /// the next receive or <c>Add</c> of bytes reuses them, so a multipart message received into again and again allocates
    /// nothing per frame once it has held its largest message. A successful send leaves it empty in the same way.</para>
    /// <para><b>Threading.</b> Not thread-safe: use it, and <see cref="Dispose"/> it, from one thread at a time. Unlike a
    /// <see cref="Socket"/> or a <see cref="Message"/>, it does not detect concurrent use of its frame list (that would cost
    /// every multipart send and receive an interlocked instruction): two threads changing it at once can leave the list
    /// inconsistent or throw whatever <see cref="List{T}"/> throws. They cannot crash the process or read freed memory: each
    /// frame is a <see cref="Message"/>, whose own guard turns concurrent use of the same frame into
    /// <see cref="InvalidOperationException"/>.</para>
    /// </remarks>
    public sealed class MultipartMessage : IReadOnlyList<Message>, IDisposable
    {
        private readonly List<Message> _frames = new List<Message>();
        private readonly Stack<Message> _spares = new Stack<Message>();
        private bool _disposed;

        /// <summary>Creates an empty multipart message.</summary>
        public MultipartMessage()
        {
        }

        /// <summary>Creates a multipart message holding copies of <paramref name="frames"/>.</summary>
        /// <param name="frames">The frames' bytes, in order.</param>
        /// <exception cref="ArgumentNullException"><paramref name="frames"/> or one of its frames is null.</exception>
        public MultipartMessage(IEnumerable<byte[]> frames)
        {
            if (frames is null)
            {
                throw new ArgumentNullException(nameof(frames));
            }

            foreach (byte[] frame in frames)
            {
                Add(frame);
            }
        }

        /// <summary>The number of frames.</summary>
        public int Count => _frames.Count;

        /// <summary>Whether <see cref="Dispose"/> has been called.</summary>
        public bool IsDisposed => _disposed;

        /// <summary>The frame at <paramref name="index"/>; it stays owned by this multipart message.</summary>
        /// <param name="index">0 for the first frame.</param>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is out of range.</exception>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public Message this[int index]
        {
            get
            {
                ThrowIfDisposed();
                return _frames[index];
            }
        }

        /// <summary>Appends <paramref name="frame"/>, taking ownership of it.</summary>
        /// <param name="frame">The frame; not disposed, not already part of this multipart message.</param>
        /// <exception cref="ArgumentNullException"><paramref name="frame"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="frame"/> is disposed or already in this multipart message.</exception>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public void Add(Message frame) => Insert(Count, frame);

        /// <summary>Appends a frame holding a copy of <paramref name="data"/> (reusing a spare frame if there is one).</summary>
        /// <param name="data">The bytes; may be empty.</param>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public void Add(ReadOnlySpan<byte> data) => _frames.Add(Rent(data));

        /// <summary>Appends a frame holding a copy of <paramref name="data"/>.</summary>
        /// <param name="data">The bytes; may be empty.</param>
        /// <exception cref="ArgumentNullException"><paramref name="data"/> is null.</exception>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public void Add(byte[] data) => Add(new ReadOnlySpan<byte>(data ?? throw new ArgumentNullException(nameof(data))));

        /// <summary>Appends a frame holding <paramref name="text"/> as UTF-8 (unpaired surrogates become U+FFFD).</summary>
        /// <param name="text">The text; may be empty.</param>
        /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public void Add(string text) => Add(Utf8Bytes(text));

        /// <summary>Same as <see cref="Add(Message)"/>: appends a frame.</summary>
        /// <param name="frame">The frame, whose ownership passes to this multipart message.</param>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public void PushBack(Message frame) => Add(frame);

        /// <summary>Same as <see cref="Add(ReadOnlySpan{byte})"/>: appends a copy of <paramref name="data"/>.</summary>
        /// <param name="data">The bytes.</param>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public void PushBack(ReadOnlySpan<byte> data) => Add(data);

        /// <summary>Prepends <paramref name="frame"/> (for example a routing id or an empty delimiter), taking ownership of it.</summary>
        /// <param name="frame">The frame.</param>
        /// <exception cref="ArgumentNullException"><paramref name="frame"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="frame"/> is disposed or already in this multipart message.</exception>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public void PushFront(Message frame) => Insert(0, frame);

        /// <summary>Prepends a frame holding a copy of <paramref name="data"/>.</summary>
        /// <param name="data">The bytes; may be empty (an envelope delimiter).</param>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public void PushFront(ReadOnlySpan<byte> data) => _frames.Insert(0, Rent(data));

        /// <summary>Prepends a frame holding <paramref name="text"/> as UTF-8.</summary>
        /// <param name="text">The text.</param>
        /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public void PushFront(string text) => PushFront(Utf8Bytes(text));

        /// <summary>Inserts <paramref name="frame"/> at <paramref name="index"/>, taking ownership of it.</summary>
        /// <param name="index">Where the frame goes, 0 to <see cref="Count"/>.</param>
        /// <param name="frame">The frame.</param>
        /// <exception cref="ArgumentNullException"><paramref name="frame"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="frame"/> is disposed or already in this multipart message.</exception>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is out of range.</exception>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public void Insert(int index, Message frame)
        {
            ThrowIfDisposed();
            if (frame is null)
            {
                throw new ArgumentNullException(nameof(frame));
            }

            if (frame.IsDisposed)
            {
                throw new ArgumentException("The message is disposed.", nameof(frame));
            }

            if (_frames.Contains(frame) || _spares.Contains(frame))
            {
                throw new ArgumentException("The message is already part of this multipart message.", nameof(frame));
            }

            if ((uint)index > (uint)_frames.Count)
            {
                throw new ArgumentOutOfRangeException(nameof(index), index, "The index must be between 0 and Count.");
            }

            _frames.Insert(index, frame);
        }

        /// <summary>Removes the first frame and hands it to the caller, who must dispose it (<c>pop</c> in cppzmq).</summary>
        /// <returns>The first frame.</returns>
        /// <exception cref="InvalidOperationException">The multipart message is empty.</exception>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public Message PopFront() => RemoveAt(0);

        /// <summary>Removes the last frame and hands it to the caller, who must dispose it.</summary>
        /// <returns>The last frame.</returns>
        /// <exception cref="InvalidOperationException">The multipart message is empty.</exception>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public Message PopBack() => RemoveAt(_frames.Count - 1);

        /// <summary>
        /// Removes every frame, releasing its content, but keeps the <see cref="Message"/> objects to reuse (see the remarks).
        /// Frames that were disposed from outside are dropped.
        /// </summary>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public void Clear()
        {
            ThrowIfDisposed();
            for (int i = 0; i < _frames.Count; i++)
            {
                Message frame = _frames[i];
                if (!frame.IsDisposed)
                {
                    frame.Rebuild();
                    _spares.Push(frame);
                }
            }

            _frames.Clear();
        }

        /// <summary>Copies every frame into a new array of byte arrays.</summary>
        /// <returns>The frames' bytes, in order.</returns>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public byte[][] ToArrays()
        {
            ThrowIfDisposed();
            var result = new byte[_frames.Count][];
            for (int i = 0; i < result.Length; i++)
            {
                result[i] = _frames[i].ToArray();
            }

            return result;
        }

        /// <summary>Enumerates the frames in order.</summary>
        /// <returns>An enumerator.</returns>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public List<Message>.Enumerator GetEnumerator()
        {
            ThrowIfDisposed();
            return _frames.GetEnumerator();
        }

        IEnumerator<Message> IEnumerable<Message>.GetEnumerator() => GetEnumerator();

        IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

        /// <summary>Disposes every frame (and spare) this multipart message holds. Safe to call more than once.</summary>
        public void Dispose()
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            foreach (Message frame in _frames)
            {
                frame.Dispose();
            }

            while (_spares.Count > 0)
            {
                _spares.Pop().Dispose();
            }

            _frames.Clear();
        }

        /// <inheritdoc/>
        public override string ToString() => _disposed ? "MultipartMessage(disposed)" : "MultipartMessage(" + Count + " frames)";

        /// <summary>For receives: an empty frame to receive into, a spare if there is one (owned by the caller until appended).</summary>
        internal Message RentEmpty() => TakeSpare() ?? new Message();

        /// <summary>For receives: gives back a frame that <see cref="RentEmpty"/> returned and that received nothing.</summary>
        internal void ReturnUnused(Message frame) => _spares.Push(frame);

        /// <summary>For receives: appends a frame that holds what was just received.</summary>
        internal void AppendReceived(Message frame) => _frames.Add(frame);

        /// <summary>The frames, for the socket that sends them (validated by the caller).</summary>
        internal List<Message> Frames => _frames;

        internal void ThrowIfDisposed()
        {
            if (_disposed)
            {
                ZmqThrow.Disposed(this);
            }
        }

        private static byte[] Utf8Bytes(string text) =>
            System.Text.Encoding.UTF8.GetBytes(text ?? throw new ArgumentNullException(nameof(text)));

        private Message Rent(ReadOnlySpan<byte> data)
        {
            ThrowIfDisposed();
            Message? frame = TakeSpare();
            if (frame is null)
            {
                return new Message(data);
            }

            frame.Rebuild(data);
            return frame;
        }

        /// <summary>A spare frame still usable (the caller may have disposed one it kept a reference to), or null.</summary>
        private Message? TakeSpare()
        {
            while (_spares.Count > 0)
            {
                Message frame = _spares.Pop();
                if (!frame.IsDisposed)
                {
                    return frame;
                }
            }

            return null;
        }

        private Message RemoveAt(int index)
        {
            ThrowIfDisposed();
            if (_frames.Count == 0)
            {
                throw new InvalidOperationException("The multipart message has no frames.");
            }

            Message frame = _frames[index];
            _frames.RemoveAt(index);
            return frame;
        }
    }
}
