#if NET
using System.Runtime.CompilerServices;

namespace NetZeroMQ
{
    public sealed unsafe partial class Socket
    {
        /// <summary>The async side (reactor registration and pending operations); null until an async call first has to wait.</summary>
        private SocketAsyncState? _async;

        internal nint NativeHandle => _socket;

        internal bool TryEnterForAsync() => _guard.TryEnter();

        /// <summary>
        /// Exit for a socket with an async side: retry pending async operations while still holding the guard (this call may
        /// have consumed the readiness notification they wait for), release with a full fence, then honour a retry the reactor
        /// deferred while the guard was taken.
        /// </summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        internal void ExitAfterAsync()
        {
            SocketAsyncState state = _async!;
            if (state.HasPending && !_guard.IsDisposeRequested)
            {
                state.RetryHoldingGuard();
            }

            bool release = _guard.ExitFenced();
            if (state.TakeDeferred() && state.HasPending)
            {
                state.RetryFromOutside();
            }

            if (release)
            {
                ReleaseNative();
            }
        }

        /// <summary>ZMQ_EVENTS, read by a thread that holds the guard.</summary>
        internal PollEvents GetEventsUnguarded() => (PollEvents)GetInt32Unguarded(Interop.Zmq.ZMQ_EVENTS, "Events");

        /// <summary>The async side, made on first need (the caller holds the guard).</summary>
        private SocketAsyncState GetOrCreateAsyncState()
        {
            if (_async is null)
            {
                // The reactor claims the socket with a compare-exchange, which unchecked mode's plain stores cannot exclude.
                _guard.RequireChecks();
                int fd = GetInt32Unguarded(Interop.Zmq.ZMQ_FD, "Fd");
                _async = new SocketAsyncState(this, fd);
            }

            return _async;
        }
    }
}
#endif
