using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// A ZeroMQ socket. See <see href="http://api.zeromq.org/4-3:zmq-socket">zmq_socket</see>.
    /// </summary>
    /// <remarks>
    /// <para><b>Threading.</b> Like libzmq's own sockets, a <see cref="Socket"/> is used by one thread at a time. It may move
    /// between threads (the guard every call passes through is the full memory barrier libzmq asks for when a socket migrates),
    /// but two threads using it at the same moment get an <see cref="InvalidOperationException"/> instead of libzmq's undefined
    /// behaviour. <see cref="Dispose"/> is the exception: it may be called from any thread at any time. The draft thread-safe
    /// types (<c>NetZeroMQ.Draft.DraftSockets</c>: SERVER, CLIENT, RADIO, DISH, SCATTER, GATHER, PEER, CHANNEL) are the other
    /// exception: libzmq locks inside every call on them, so any number of threads may send, receive, wait and await on one
    /// socket at once (single-frame messages only).</para>
    /// <para><b>Close semantics.</b> <see cref="Dispose"/> closes the socket (<c>zmq_close</c>, exactly once); messages still
    /// queued leave in the background for up to <see cref="Linger"/>, and the context's disposal waits for them that long. If
    /// another thread is inside a call on this socket, that call ends promptly with <see cref="ObjectDisposedException"/> (a
    /// receive or poll wakes at once; a send blocked at the high-water mark within 50 ms) and the socket is closed as it
    /// leaves, so no native call ever runs on a freed socket. After <see cref="Dispose"/> every member throws
    /// <see cref="ObjectDisposedException"/> without calling libzmq, except those that only read managed state:
    /// <see cref="Dispose"/> itself, <see cref="IsDisposed"/>, <see cref="Type"/>, <see cref="Context"/>,
    /// <see cref="IsMultipartSendBroken"/> and <see cref="ToString"/>.</para>
    /// <para><b>Waiting.</b> Every send and receive comes in three forms. <c>Send</c>/<c>Recv</c> wait at most
    /// <see cref="SendTimeout"/> / <see cref="ReceiveTimeout"/> (infinite by default) and then throw <see cref="ZmqException"/>
    /// with <see cref="ZmqError.TryAgain"/>. <c>TrySend</c>/<c>TryRecv</c> never block: "would block" is a false result. The
    /// <c>Try</c> forms with a <see cref="TimeSpan"/> wait up to that timeout (the socket's option does not apply) and then
    /// return false; their <see cref="CancellationToken"/> ends the wait with <see cref="OperationCanceledException"/>, and
    /// nothing is sent or taken then. Signals (EINTR) are retried inside, keeping the remaining time.</para>
    /// </remarks>
    public sealed unsafe partial class Socket : IDisposable
    {
        // Every field of the socket is declared here, each with what it holds; the partials are API faces and the transfer
        // path (Socket.Transfer.cs), and declare none.

        /// <summary>Whether the poll items of libzmq are Windows' (a SOCKET, not an int); also the size <c>ZMQ_FD</c> is read at.</summary>
        private static readonly bool s_windowsPollItems = RuntimeInformation.IsOSPlatform(OSPlatform.Windows);

        /// <summary>The context that owns the socket: tracks it, and is released only after the socket is closed.</summary>
        private readonly Context _context;

        /// <summary>Owns the native socket (and its waker) and closes it exactly once (<see cref="ReleaseNative"/>).</summary>
        private readonly SocketHandle _handle;

        /// <summary>The native socket, read under the guard by every call (the handle's value, kept here for the hot path).</summary>
        private readonly nint _socket;

        /// <summary>How the context finds this socket to close it at its own disposal without keeping it alive.</summary>
        private readonly WeakReference<Socket> _tracking;

        /// <summary>Frames and bytes moved, counted by the calls that move them (see <see cref="Transfer"/>); the metrics read it.</summary>
        private readonly SocketTraffic _traffic;

        /// <summary>The usage guard every call passes through (<see cref="Enter"/>/<see cref="Exit"/>); closes nothing under a call.</summary>
        private UsageGuard _guard;

        /// <summary>The send flags this socket takes: <see cref="SendFlags.SendMore"/>, or none on a thread-safe socket.</summary>
        private readonly SendFlags _sendFlagsAllowed = SendFlags.SendMore;

        /// <summary>The name of a type the core does not define (draft types), given by whoever made the socket; else null.</summary>
        private readonly string? _typeName;

        /// <summary>What a feature attached (the async side, through <see cref="SocketLease.Attach"/>); null until one attaches.</summary>
        private SocketAttachment? _attachment;

        /// <summary>Set (never cleared) when a multipart send broke off after its first frame: the description of that failure.</summary>
        private string? _brokenMultipartSend;

        /// <summary>Lazily made message that <see cref="RecvBytes"/> and <see cref="RecvString"/> receive into; owned by the socket.</summary>
        private Message? _scratch;

        /// <summary>The zmq_msg_t zero-copy sends are built in; owned by the socket, so a zero-copy send allocates nothing managed.</summary>
        private Message? _zeroCopyScratch;

        /// <summary>The socket's <c>ZMQ_FD</c> (fixed for its life), read at the first receive that polls it; -1 until then.</summary>
        private int _commandFd = -1;

        // The receive-wait state (Socket.Transfer.cs, step 6): a socket starts polling, and moves once, at its first blocking
        // receive that has to wait, to waiting natively; then the native ZMQ_RCVTIMEO holds the slice and the caller's value
        // lives in the RCVTIMEO shadow below, which every option read and write goes through (Socket.Options.cs). One field,
        // _blockingReceiveFlags, is the whole state, so the inlined hot path reads it once and passes it on.

        /// <summary>The receive-wait state as a blocking receive's first flags: <c>ZMQ_DONTWAIT</c> (polling), then 0 (natively).</summary>
        private int _blockingReceiveFlags = Interop.Zmq.ZMQ_DONTWAIT;

        /// <summary>The native <c>ZMQ_RCVTIMEO</c> while <see cref="ReceivesWaitNatively"/>: the slice, or the caller's shorter timeout.</summary>
        private int _nativeReceiveWaitMs;

        /// <summary>The RCVTIMEO shadow: the caller's receive timeout (-1: infinite) while <see cref="ReceivesWaitNatively"/>.</summary>
        private int _receiveTimeoutMs;

        // A thread-safe socket waits natively from its creation, both ways (StartSharedNativeWaits): its native timeouts are
        // shared by every thread's call, so they hold slices for good and the caller's values live in the shadows.

        /// <summary>The native <c>ZMQ_SNDTIMEO</c> of a thread-safe socket: the slice, or the caller's shorter timeout.</summary>
        private int _nativeSendWaitMs;

        /// <summary>The SNDTIMEO shadow of a thread-safe socket: the caller's send timeout (-1: infinite).</summary>
        private int _sendTimeoutMs;

        /// <summary>Set when the context's Dispose closed this socket (not its owner): the disposed error then says so.</summary>
        private volatile bool _closedWithContext;

        /// <summary>Creates a socket in <paramref name="context"/> (<c>zmq_socket</c>). Its linger starts at the context's
        /// <see cref="Context.DefaultLinger"/>.</summary>
        /// <param name="context">The context that owns the socket.</param>
        /// <param name="type">The socket type.</param>
        /// <exception cref="ArgumentNullException"><paramref name="context"/> is null.</exception>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="type"/> is not a defined <see cref="SocketType"/>.</exception>
        /// <exception cref="ObjectDisposedException">The context was disposed.</exception>
        /// <exception cref="InvalidOperationException">This is the context's first socket, and libzmq could not start its
        /// threads with the context's options (too many I/O threads for the descriptors left, or thread scheduling the system
        /// refuses): libzmq would abort the process.</exception>
        /// <exception cref="ZmqException">libzmq refused (for example <see cref="ZmqError.TooManyOpenFiles"/> past MaxSockets, or
        /// <see cref="ZmqError.ContextTerminated"/> after <see cref="Context.Shutdown"/>), or, with
        /// <see cref="ZmqError.TooManyOpenFiles"/>, the process is within a few file descriptors of its limit (Linux: the last
        /// ones are left to the .NET runtime, which cannot start threads without them).</exception>
        public Socket(Context context, SocketType type)
            : this(context, type, highestType: (int)SocketType.Stream, threadSafe: false, typeName: null)
        {
        }

        /// <summary>
        /// Creates a socket of any type libzmq defines, draft ones included; for features that check availability first.
        /// <paramref name="threadSafe"/> says that libzmq locks inside every call on this type (its thread-safe types): the
        /// socket then lets any number of threads in at once and refuses multipart sends, which libzmq refuses on them.
        /// <paramref name="typeName"/> is the type's name for messages and <see cref="ToString"/> (the core does not name
        /// the types it does not define).
        /// </summary>
        internal static Socket CreateOfNativeType(Context context, int type, bool threadSafe, string typeName) =>
            new Socket(context, (SocketType)type, Interop.Zmq.ZMQ_CHANNEL, threadSafe, typeName);

        private Socket(Context context, SocketType type, int highestType, bool threadSafe, string? typeName)
        {
            if (context is null)
            {
                throw new ArgumentNullException(nameof(context));
            }

            if ((uint)type > (uint)highestType)
            {
                throw new ArgumentOutOfRangeException(nameof(type), type, "Not a socket type this binding supports.");
            }

            if (threadSafe)
            {
                _guard.UseSharedMode();
                _sendFlagsAllowed = SendFlags.None;
            }

            DescriptorHeadroom.ThrowIfLow("zmq_socket", option: type.ToString());
            context.ThrowIfCannotStart();
            nint nativeContext = context.AddRef(out bool added);
            try
            {
                nint socket = CreateNative(context, nativeContext, (int)type, out int errno);
                if (socket == 0)
                {
                    ZmqThrow.Error(errno, "zmq_socket", option: type.ToString());
                }

                _traffic = new SocketTraffic((int)type, shared: threadSafe);
                _handle = new SocketHandle(context.Handle, socket, _traffic);
                _socket = socket;
                int linger = context.DefaultLingerMilliseconds;
                Interop.Zmq.zmq_setsockopt(socket, Interop.Zmq.ZMQ_LINGER, &linger, sizeof(int));
                if (threadSafe)
                {
                    StartSharedNativeWaits();
                }
            }
            finally
            {
                context.Release(added);
            }

            _context = context;
            Type = type;
            _typeName = typeName;
            _tracking = new WeakReference<Socket>(this);
            context.Track(_tracking);
            if (context.IsDisposed)
            {
                // The context was disposed while this socket was being made: it did not see the socket, so close it here.
                Dispose();
                ZmqThrow.Disposed(context);
            }
        }

        /// <summary>The socket type.</summary>
        public SocketType Type { get; }

        /// <summary>zmq_socket, waiting briefly for libzmq's reaper when the context is full (see <see cref="SocketSlots"/>). Any
        /// other failure returns at once: 0, with libzmq's errno (read at once: the first Enum.ToString in a process, among
        /// others, overwrites errno).</summary>
        private static nint CreateNative(Context context, nint nativeContext, int type, out int errno)
        {
            nint socket;
            Deadline? reaper = null;
            errno = 0;
            while ((socket = Interop.Zmq.zmq_socket(nativeContext, type)) == 0)
            {
                errno = Interop.Zmq.zmq_errno();
                if (!SocketSlots.WaitForReaper(errno, ref reaper, context.AllSlotsHeldByOpenSockets()))
                {
                    break;
                }
            }

            return socket;
        }

        /// <summary>The context this socket belongs to.</summary>
        public Context Context => _context;

        /// <summary>Whether <see cref="Dispose"/> has been called.</summary>
        public bool IsDisposed => _guard.IsDisposeRequested;

        /// <summary>
        /// Closes the socket (<c>zmq_close</c>) exactly once. Callable from any thread, any number of times; see the class remarks
        /// for what happens to a call in progress on another thread.
        /// </summary>
        public void Dispose()
        {
            _attachment?.OnDisposing();
            if (_guard.RequestDispose())
            {
                ReleaseNative();
            }
            else
            {
                // A call is in flight on another thread and will close the socket as it leaves; wake it if it is waiting.
                _handle.Waker?.Signal();
            }
        }

        /// <summary>The context's Dispose closes a socket its owner left open.</summary>
        internal void DisposeWithContext()
        {
            _closedWithContext = true;
            Dispose();
        }

        /// <inheritdoc/>
        public override string ToString() => "Socket(" + (_typeName ?? Type.ToString()) + (IsDisposed ? ", disposed)" : ")");

        /// <summary>The type's name for messages: "SERVER", "PUB".</summary>
        internal string TypeName => _typeName ?? Type.ToString().ToUpperInvariant();

        /// <summary>Claims the socket for one native call and returns the native pointer.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private nint Enter()
        {
            if (!_guard.Enter(this))
            {
                ExitAndThrowDisposed();
            }

            return _socket;
        }

        /// <summary>Enter found the socket disposed: drop the claim (closing the socket if the Dispose left that to us) and throw.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private void ExitAndThrowDisposed()
        {
            Exit();
            ThrowDisposed();
        }

        /// <summary>Ends a native call; closes the socket if a Dispose arrived meanwhile. A thread-safe socket or one with
        /// machinery attached takes <see cref="ExitSlow"/>, which the guard's one flag tells.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private void Exit()
        {
            if (_guard.HasSlowExit)
            {
                ExitSlow();
            }
            else if (_guard.ExitPlain())
            {
                ReleaseNative();
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void ExitSlow()
        {
            if (_attachment is { } attachment)
            {
                ExitWithAttachment(attachment);
            }
            else if (_guard.Exit())
            {
                ReleaseNative();
            }
        }

        /// <summary>Runs once, on whichever thread won the guard's release: closes the native socket and what it owns.</summary>
        private void ReleaseNative()
        {
            // The attachment's OnClosing runs inside the handle's release, just before zmq_close (SocketHandle.ReleaseHandle).
            _context.Untrack(_tracking);
            _scratch?.ReleaseOwned();
            _zeroCopyScratch?.ReleaseOwned();
            _handle.ClosedByOwner = true;
            _handle.Dispose();
        }

        /// <summary>This socket's wake-up descriptor, made on first use; null where the platform has none or no descriptor can be
        /// spared (<see cref="WakerHandle.TryCreate"/>: the wait then runs in slices, and the next one tries again). The caller
        /// holds the guard.</summary>
        internal WakerHandle? GetOrCreateWakerUnguarded()
        {
            WakerHandle? waker = _handle.Waker;
            if (waker is null && WakerHandle.IsSupported)
            {
                waker = WakerHandle.TryCreate();
                if (waker is not null)
                {
                    waker = _handle.AttachWaker(waker);
                }
            }

            return waker;
        }

        internal bool IsDisposeRequested => _guard.IsDisposeRequested;

        /// <summary>Whether this is one of libzmq's thread-safe socket types (any number of threads may call at once).</summary>
        internal bool IsThreadSafe => _guard.IsShared;

        internal void ThrowDisposed()
        {
            if (_closedWithContext)
            {
                ZmqThrow.ClosedWithContext(this);
            }

            ZmqThrow.Disposed(this);
        }
    }
}
