using System;
using System.Collections;
using System.Collections.Generic;
using System.Threading;

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
    /// <para><b>Threading.</b> Not thread-safe: use it from one thread at a time, as a <see cref="Socket"/> or a
    /// <see cref="Message"/>. Concurrent use is caught as theirs is: a member called while another thread is inside one (a
    /// send or receive of it included) throws <see cref="InvalidOperationException"/> and changes nothing, so its frame list
    /// never ends up inconsistent. The check costs one interlocked instruction per member and per multipart send or
    /// receive, next to a native call that costs far more. A <see cref="Dispose"/> while another thread is inside a member
    /// does not throw: that thread disposes the frames as it leaves.</para>
    /// </remarks>
    public sealed class MultipartMessage : IReadOnlyList<Message>, IDisposable
    {
        private readonly List<Message> _frames = new List<Message>();
        private readonly Stack<Message> _spares = new Stack<Message>();
        private bool _disposed;

        /// <summary>The managed id of the thread inside a member (or sending or receiving the message), 0 when none.</summary>
        private int _owner;

        /// <summary>Set by a Dispose that found another thread inside: the owner disposes as it leaves.</summary>
        private volatile bool _disposeRequested;

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
                bool claimed = Claim();
                try
                {
                    ThrowIfDisposed();
                    return _frames[index];
                }
                finally
                {
                    Release(claimed);
                }
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
        public void Add(ReadOnlySpan<byte> data) => Put(_frames.Count, data, atEnd: true);

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
        public void PushFront(ReadOnlySpan<byte> data) => Put(0, data, atEnd: false);

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
            bool claimed = Claim();
            try
            {
                InsertClaimed(index, frame);
            }
            finally
            {
                Release(claimed);
            }
        }

        private void InsertClaimed(int index, Message frame)
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
        public Message PopFront() => Remove(last: false);

        /// <summary>Removes the last frame and hands it to the caller, who must dispose it.</summary>
        /// <returns>The last frame.</returns>
        /// <exception cref="InvalidOperationException">The multipart message is empty.</exception>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public Message PopBack() => Remove(last: true);

        /// <summary>
        /// Removes every frame, releasing its content, but keeps the <see cref="Message"/> objects to reuse (see the remarks).
        /// Frames that were disposed from outside are dropped.
        /// </summary>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public void Clear()
        {
            bool claimed = Claim();
            try
            {
                ClearClaimed();
            }
            finally
            {
                Release(claimed);
            }
        }

        private void ClearClaimed()
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
            bool claimed = Claim();
            try
            {
                ThrowIfDisposed();
                var result = new byte[_frames.Count][];
                for (int i = 0; i < result.Length; i++)
                {
                    result[i] = _frames[i].ToArray();
                }

                return result;
            }
            finally
            {
                Release(claimed);
            }
        }

        /// <summary>Enumerates the frames in order.</summary>
        /// <returns>An enumerator.</returns>
        /// <exception cref="ObjectDisposedException">The multipart message was disposed.</exception>
        public List<Message>.Enumerator GetEnumerator()
        {
            bool claimed = Claim();
            try
            {
                ThrowIfDisposed();
                return _frames.GetEnumerator();
            }
            finally
            {
                Release(claimed);
            }
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

            _disposeRequested = true;
            int me = Environment.CurrentManagedThreadId;
            int owner = Interlocked.CompareExchange(ref _owner, me, 0);
            if (owner != 0 && owner != me)
            {
                return; // the thread inside disposes as it leaves (Release)
            }

            try
            {
                DisposeClaimed();
            }
            finally
            {
                if (owner == 0)
                {
                    Volatile.Write(ref _owner, 0);
                }
            }
        }

        private void DisposeClaimed()
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

        /// <summary>
        /// Claims the message for the calling thread: true when this call claimed it (pass it to <see cref="Release"/>), false
        /// when the thread already holds it (a member calling another, a receive clearing the message). Another thread inside
        /// makes it throw <see cref="InvalidOperationException"/>.
        /// </summary>
        internal bool Claim()
        {
            int me = Environment.CurrentManagedThreadId;
            int owner = Interlocked.CompareExchange(ref _owner, me, 0);
            if (owner == 0)
            {
                return true;
            }

            if (owner != me)
            {
                ZmqThrow.ConcurrentUse(this);
            }

            return false;
        }

        /// <summary>Ends a claim that <see cref="Claim"/> returned true for; disposes if a Dispose came meanwhile.</summary>
        internal void Release(bool claimed)
        {
            if (!claimed)
            {
                return;
            }

            Interlocked.Exchange(ref _owner, 0);
            if (_disposeRequested && !_disposed)
            {
                Dispose();
            }
        }

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

        private void Put(int index, ReadOnlySpan<byte> data, bool atEnd)
        {
            bool claimed = Claim();
            try
            {
                Message frame = Rent(data);
                _frames.Insert(atEnd ? _frames.Count : index, frame);
            }
            finally
            {
                Release(claimed);
            }
        }

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

        private Message Remove(bool last)
        {
            bool claimed = Claim();
            try
            {
                ThrowIfDisposed();
                if (_frames.Count == 0)
                {
                    throw new InvalidOperationException("The multipart message has no frames.");
                }

                int index = last ? _frames.Count - 1 : 0;
                Message frame = _frames[index];
                _frames.RemoveAt(index);
                return frame;
            }
            finally
            {
                Release(claimed);
            }
        }
    }
}
