using System;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// One ZeroMQ frame (<c>zmq_msg_t</c>), held in native memory at a stable address. Reuse one <see cref="Message"/> for any
    /// number of receives: libzmq releases the previous content on each receive and nothing managed is allocated.
    /// See <see href="http://api.zeromq.org/4-3:zmq-msg-init">zmq_msg_init</see>.
    /// </summary>
    /// <remarks>
    /// <para><b>Ownership.</b> Sending a message hands its content to libzmq and leaves the message empty; a failed send leaves it
    /// unchanged. <see cref="Dispose"/> releases the content and the native block; an undisposed message is released by its
    /// finalizer.</para>
    /// <para><b>Threading.</b> Use a message from one thread at a time; concurrent use throws
    /// <see cref="InvalidOperationException"/>. <see cref="Dispose"/> may be called from any thread.</para>
    /// <para><b>Spans.</b> <see cref="Data"/> points into native memory owned by this message: it is valid until the message is
    /// received into, sent, rebuilt, copied or moved onto (<see cref="CopyFrom"/>, <see cref="MoveFrom"/>), moved from, or
    /// disposed. Do not keep it past that, and do not hand it to another thread that might outlive it. Every other member
    /// (<see cref="ToArray"/>, <see cref="GetString"/>, <see cref="Rebuild(ReadOnlySpan{byte})"/>, ...) finishes its copy
    /// while it holds the message, so a concurrent call on another thread gets <see cref="InvalidOperationException"/> and a
    /// concurrent <see cref="Dispose"/> waits for the copy to end.</para>
    /// </remarks>
    public sealed unsafe partial class Message : IDisposable
    {
        /// <summary>How many bytes of the content <see cref="ToString"/> shows.</summary>
        private const int PreviewBytes = 32;

        private readonly MessageHandle _handle;
        private readonly void* _msg;
        private UsageGuard _guard;
        private int _size;

        // Set by whoever disposes a message it handed out (RecvAllAsync's reused one): said by the ObjectDisposedException.
        private string? _disposedHint;
        private byte* _data;

        /// <summary>
        /// True while the zmq_msg_t is known to hold nothing (fresh from zmq_msg_init, or emptied by a successful send or a
        /// move): re-initialising it then needs no zmq_msg_close first, which saves a native call per message on the
        /// Rebuild + Send path. Anything else (received, sized, zero-copy, even zero-length) is closed first.
        /// </summary>
        private bool _isPlainEmpty;

        /// <summary>Creates an empty message (<c>zmq_msg_init</c>), typically to receive into.</summary>
        public Message()
        {
            Libzmq.EnsureUsable();
            _handle = MessageHandle.Allocate();
            _msg = _handle.Msg;
            Interop.Zmq.zmq_msg_init(_msg);
            _handle.IsInitialized = true;
            _isPlainEmpty = true;
        }

        /// <summary>Creates a message of <paramref name="size"/> bytes to fill through <see cref="Data"/> (<c>zmq_msg_init_size</c>).</summary>
        /// <param name="size">Size in bytes, 0 or more.</param>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is negative.</exception>
        /// <exception cref="OutOfMemoryException">libzmq could not allocate the content.</exception>
        public Message(int size)
            : this()
        {
            InitSize(size);
        }

        /// <summary>Creates a message holding a copy of <paramref name="data"/>.</summary>
        /// <param name="data">The bytes to copy.</param>
        public Message(ReadOnlySpan<byte> data)
            : this(data.Length)
        {
            data.CopyTo(new Span<byte>(_data, _size));
        }

        /// <summary>The message's bytes, in native memory (see the remarks about how long the span stays valid).</summary>
        /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
        public Span<byte> Data
        {
            get
            {
                Enter();
                try
                {
                    return UnguardedData;
                }
                finally
                {
                    Exit();
                }
            }
        }

        /// <summary>The message's size in bytes.</summary>
        /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
        public int Size
        {
            get
            {
                ThrowIfDisposed();
                return _size;
            }
        }

        /// <summary>Whether more frames of the same multipart message follow this one (<c>zmq_msg_more</c>).</summary>
        /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
        public bool HasMore
        {
            get
            {
                void* msg = Enter();
                try
                {
                    return Interop.Zmq.zmq_msg_more(msg) != 0;
                }
                finally
                {
                    Exit();
                }
            }
        }

        /// <summary>
        /// Whether the content is a block shared with another message (<c>ZMQ_SHARED</c>): after <see cref="CopyFrom"/> of more
        /// than 33 bytes. Smaller content lives inside each message and is never shared.
        /// </summary>
        /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
        public bool IsShared
        {
            get
            {
                void* msg = Enter();
                try
                {
                    return Interop.Zmq.zmq_msg_get(msg, Interop.Zmq.ZMQ_SHARED) == 1;
                }
                finally
                {
                    Exit();
                }
            }
        }

        /// <summary>Whether <see cref="Dispose"/> has been called.</summary>
        public bool IsDisposed => _guard.IsDisposeRequested;

        /// <summary>
        /// Makes this message hold <paramref name="source"/>'s content (<c>zmq_msg_copy</c>). Content of more than 33 bytes is
        /// shared, not copied (libzmq counts references, <see cref="IsShared"/> turns true), so neither message may be modified
        /// through <see cref="Data"/> afterwards; smaller content lives inside the message and is copied. This message's
        /// previous content is released.
        /// </summary>
        /// <param name="source">The message to share content with.</param>
        /// <exception cref="ArgumentNullException"><paramref name="source"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="source"/> is this message.</exception>
        public void CopyFrom(Message source) => Transplant(source, move: false);

        /// <summary>
        /// Moves <paramref name="source"/>'s content into this message (<c>zmq_msg_move</c>); <paramref name="source"/> is left
        /// empty. This message's previous content is released.
        /// </summary>
        /// <param name="source">The message to take content from.</param>
        /// <exception cref="ArgumentNullException"><paramref name="source"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="source"/> is this message.</exception>
        public void MoveFrom(Message source) => Transplant(source, move: true);

        /// <summary>Releases the content and makes the message empty again.</summary>
        /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
        /// <exception cref="InvalidOperationException">Another thread is using the message.</exception>
        public void Rebuild() => Rebuild(0);

        /// <summary>Releases the content and gives the message <paramref name="size"/> fresh bytes to fill.</summary>
        /// <param name="size">Size in bytes, 0 or more.</param>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is negative.</exception>
        /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
        /// <exception cref="InvalidOperationException">Another thread is using the message.</exception>
        /// <exception cref="OutOfMemoryException">libzmq could not allocate the content.</exception>
        public void Rebuild(int size)
        {
            if (size < 0)
            {
                throw new ArgumentOutOfRangeException(nameof(size), size, "The size must not be negative.");
            }

            void* msg = Enter();
            try
            {
                CloseUnlessPlainEmpty(msg);
                InitSizeUnguarded(size);
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>
        /// Releases the content and makes the message a copy of <paramref name="data"/>. <paramref name="data"/> may be (part
        /// of) this message's own <see cref="Data"/>.
        /// </summary>
        /// <param name="data">The bytes to copy.</param>
        /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
        /// <exception cref="InvalidOperationException">Another thread is using the message.</exception>
        /// <exception cref="OutOfMemoryException">libzmq could not allocate the content.</exception>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Rebuild(ReadOnlySpan<byte> data)
        {
            // One hold of the guard for release, allocation and copy: copying after letting go would let another thread free
            // the new content under the copy.
            void* msg = Enter();
            if (SendBufferPool.Takes(data.Length) || (_data != null && data.Overlaps(new ReadOnlySpan<byte>(_data, _size))))
            {
                RebuildAndExit(msg, data);
                return;
            }

            // A small content that is not this message's own: nothing from here to Exit throws, so the guard is held without
            // a try/finally and the whole call is inlined into the caller (as a call of its own it would not fit the Message
            // path's instruction budget, benchmarks/instructions/budgets.txt). An allocation failure is thrown after Exit.
            CloseUnlessPlainEmpty(msg);
            int errno = TryInitSizeUnguarded(data.Length);
            if (errno == 0)
            {
                data.CopyTo(new Span<byte>(_data, data.Length));
            }

            Exit();
            if (errno != 0)
            {
                ThrowInitFailed(data.Length, errno);
            }
        }

        /// <summary>
        /// <see cref="Rebuild(ReadOnlySpan{byte})"/> of a content from the send buffer pool, or of bytes that are this message's
        /// own content; under the guard the caller took, which this releases whatever happens.
        /// </summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private void RebuildAndExit(void* msg, ReadOnlySpan<byte> data)
        {
            try
            {
                if (_data != null && data.Overlaps(new ReadOnlySpan<byte>(_data, _size)))
                {
                    // The bytes are this message's own content, which the release below frees: copy them out first (rare).
                    data = data.ToArray();
                }

                CloseUnlessPlainEmpty(msg);
                InitSizeUnguarded(data.Length);
                data.CopyTo(new Span<byte>(_data, _size));
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Copies the content into a new array.</summary>
        /// <returns>The bytes.</returns>
        /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
        /// <exception cref="InvalidOperationException">Another thread is using the message.</exception>
        public byte[] ToArray()
        {
            Enter();
            try
            {
                return UnguardedData.ToArray();
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Decodes the content as UTF-8 (invalid bytes become U+FFFD).</summary>
        /// <returns>The text.</returns>
        /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
        /// <exception cref="InvalidOperationException">Another thread is using the message.</exception>
        public string GetString()
        {
            Enter();
            try
            {
                return Utf8.Decode(UnguardedData);
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>
        /// The size and a short preview of the content, for logs and the debugger: <c>Message(5 bytes: "hello")</c> when the
        /// first bytes are printable UTF-8, else their hex (<c>Message(3 bytes: 01 02 FF)</c>); at most
        /// 32 bytes are shown, then "...". Read under the guard like every other read of the content;
        /// never throws: a disposed message is <c>Message(disposed)</c>, one another thread is using shows its size only.
        /// </summary>
        /// <returns>The description.</returns>
        public override string ToString()
        {
            if (IsDisposed)
            {
                return "Message(disposed)";
            }

            try
            {
                Enter();
            }
            catch (ObjectDisposedException)
            {
                return "Message(disposed)"; // disposed between the check and the claim
            }
            catch (InvalidOperationException)
            {
                return "Message(" + _size + " bytes, in use by another thread)";
            }

            try
            {
                return MessagePreview.Describe(UnguardedData, PreviewBytes);
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Releases the content and the native memory. Callable from any thread, more than once.</summary>
        public void Dispose()
        {
            if (_guard.RequestDispose())
            {
                _handle.Dispose();
            }
        }

        /// <summary>Claims the message for code outside the core (see <see cref="MessageLease"/>); throws as any call would.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal MessageLease Lease()
        {
            Enter();
            return new MessageLease(this);
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal void* Enter()
        {
            if (!_guard.Enter(this))
            {
                ExitAndThrowDisposed();
            }

            return _msg;
        }

        /// <summary>
        /// Claims the message for a hot path's first attempt, which runs without a try/finally and so must not throw: true when
        /// the message was free and is not disposed. False holds nothing, and the caller takes its usual path, whose
        /// <see cref="Enter"/> throws or waits as the case calls for.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal bool TryEnterAtOnce()
        {
            if (!_guard.TryEnterFree())
            {
                return false;
            }

            if (!_guard.IsDisposeRequested)
            {
                return true;
            }

            // Disposed: drop the claim (releasing the message if the Dispose left that to this thread); the usual path throws.
            Exit();
            return false;
        }

        /// <summary>Enter found the message disposed: drop the claim (releasing it if the Dispose left that to us) and throw.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private void ExitAndThrowDisposed()
        {
            Exit();
            ZmqThrow.Disposed(this, _disposedHint);
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal void Exit()
        {
            // A message's guard is never in shared mode (only thread-safe sockets are), so the plain exit is the whole exit:
            // that saves the shared-mode test on each of a reused message's exits (the Message path's instruction budget,
            // benchmarks/instructions/budgets.txt).
            if (_guard.ExitPlain())
            {
                ReleaseNative();
            }
        }

        /// <summary>Out of line: the release is rare and its inlined code (a SafeHandle dispose) was most of each exit's size.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private void ReleaseNative() => _handle.Dispose();

        /// <summary>After a successful zmq_msg_send: libzmq left the message empty.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal void OnSent()
        {
            _size = 0;
            _data = null;
            _isPlainEmpty = true;
        }

        /// <summary>After a successful zmq_msg_recv of <paramref name="size"/> bytes; the data pointer is read lazily.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal void OnReceived(int size)
        {
            _size = size;
            _data = null;
            _isPlainEmpty = false;
        }

        /// <summary>
        /// After a failed zmq_msg_recv: libzmq may have released the content (it does before looking for a frame, so a receive
        /// that would block or timed out leaves the message empty) or not (an error found before that), so the size is read back
        /// rather than assumed. Keeping the old size and data pointer would let the next read copy freed memory.
        /// </summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        internal void OnReceiveFailed()
        {
            _size = (int)Interop.Zmq.zmq_msg_size(_msg);
            _data = null;
            _isPlainEmpty = false;
        }

        /// <summary>
        /// A sentence for the <see cref="ObjectDisposedException"/> of any later call, set by a feature that hands out a message
        /// it disposes itself (the one message <c>RecvAllAsync</c> reuses): why the message is gone and how to keep its content.
        /// </summary>
        internal string? DisposedHint
        {
            get => Volatile.Read(ref _disposedHint);
            set => Volatile.Write(ref _disposedHint, value);
        }

        /// <summary>The zmq_msg_t, for an owner that guards the message itself (the socket's scratch message).</summary>
        internal void* UnguardedPointer => _msg;

        /// <summary>The content; the caller holds the guard or owns the message.</summary>
        internal Span<byte> UnguardedData
        {
            get
            {
                if (_data == null && _size != 0)
                {
                    _data = (byte*)Interop.Zmq.zmq_msg_data(_msg);
                }

                return new Span<byte>(_data, _size);
            }
        }

        /// <summary>Releases the content but keeps the message usable; for an owner that guards it.</summary>
        internal void ReleaseContentUnguarded()
        {
            Interop.Zmq.zmq_msg_close(_msg);
            Interop.Zmq.zmq_msg_init(_msg);
            OnSent();
        }

        /// <summary>Disposes a message owned by another object, which guarantees no call on it is in flight.</summary>
        internal void ReleaseOwned() => Dispose();

        private void InitSize(int size)
        {
            if (size < 0)
            {
                Dispose();
                throw new ArgumentOutOfRangeException(nameof(size), size, "The size must not be negative.");
            }

            CloseUnlessPlainEmpty(_msg);
            InitSizeUnguarded(size);
        }

        private void CloseUnlessPlainEmpty(void* msg)
        {
            if (!_isPlainEmpty)
            {
                Interop.Zmq.zmq_msg_close(msg);
            }

            _handle.IsInitialized = false;
        }

        private void InitSizeUnguarded(int size)
        {
            int errno = TryInitSizeUnguarded(size);
            if (errno != 0)
            {
                ThrowInitFailed(size, errno);
            }
        }

        /// <summary>
        /// Gives the message a content of <paramref name="size"/> bytes (not cleared); it holds nothing when called. Returns 0,
        /// or libzmq's errno when the content could not be allocated: the message is then empty (plain, initialised) and the
        /// caller throws <see cref="ThrowInitFailed"/>. Inlined (the failure is out of line): as a call of its own it would not
        /// fit Rebuild into the Message path's instruction budget (benchmarks/instructions/budgets.txt).
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private int TryInitSizeUnguarded(int size)
        {
            // Large contents come from the send buffer pool, as large span sends do (see SendBufferPool: glibc's trimming).
            int errno = SendBufferPool.Takes(size) ? SendBufferPool.Init(_msg, size)
                : Interop.Zmq.zmq_msg_init_size(_msg, (nuint)size) != 0 ? Interop.Zmq.zmq_errno() : 0;
            if (errno != 0)
            {
                ResetAfterInitFailure();
                return errno;
            }

            _handle.IsInitialized = true;
            _size = size;
            _data = size == 0 ? null : (byte*)Interop.Zmq.zmq_msg_data(_msg);
            _isPlainEmpty = false;
            return 0;
        }

        /// <summary>The content could not be allocated: the message is left empty (plain, initialised).</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private void ResetAfterInitFailure()
        {
            Interop.Zmq.zmq_msg_init(_msg);
            _handle.IsInitialized = true;
            OnSent();
        }

        [DoesNotReturn]
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void ThrowInitFailed(int size, int errno) =>
            throw new OutOfMemoryException("libzmq could not allocate a message of " + size + " bytes: " + ZmqThrow.Create(errno, "zmq_msg_init_size").Message);

        private void Transplant(Message source, bool move)
        {
            if (source is null)
            {
                throw new ArgumentNullException(nameof(source));
            }

            if (ReferenceEquals(source, this))
            {
                throw new ArgumentException("A message cannot be copied or moved onto itself.", nameof(source));
            }

            void* destination = Enter();
            try
            {
                void* from = source.Enter();
                try
                {
                    int rc = move ? Interop.Zmq.zmq_msg_move(destination, from) : Interop.Zmq.zmq_msg_copy(destination, from);
                    if (rc != 0)
                    {
                        ZmqThrow.LastError(move ? "zmq_msg_move" : "zmq_msg_copy");
                    }

                    OnReceived(source._size);
                    if (move)
                    {
                        source.OnSent();
                    }
                }
                finally
                {
                    source.Exit();
                }
            }
            finally
            {
                Exit();
            }
        }

        private void ThrowIfDisposed()
        {
            if (_guard.IsDisposeRequested)
            {
                ZmqThrow.Disposed(this, _disposedHint);
            }
        }
    }
}
