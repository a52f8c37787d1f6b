#if NET
using System.Runtime.CompilerServices;

namespace NetZeroMQ
{
    public sealed unsafe partial class Socket
    {
        internal nint NativeHandle => _socket;

        /// <summary>ZMQ_EVENTS, read by a thread that holds the guard.</summary>
        internal PollEvents GetEventsUnguarded() => (PollEvents)GetInt32Unguarded(Interop.Zmq.ZMQ_EVENTS, "Events");

        /// <summary>The async side, made on first need (the caller holds the guard).</summary>
        private SocketAsyncState GetOrCreateAsyncState()
        {
            if (_attachment is SocketAsyncState state)
            {
                return state;
            }

            state = new SocketAsyncState(this, GetInt32Unguarded(Interop.Zmq.ZMQ_FD, "Fd"));
            AttachWhileLeased(state);
            return state;
        }
    }
}
#endif
