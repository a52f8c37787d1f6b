namespace NetZeroMQ
{
    /// <summary>
    /// A portable error code: the same value on every platform, whatever number the platform's errno uses
    /// (EAGAIN is 11 on Linux and 35 on macOS). <see cref="ZmqException.NativeErrorNumber"/> keeps the raw number.
    /// </summary>
    public enum ZmqError
    {
        /// <summary>An errno this binding does not know; see <see cref="ZmqException.NativeErrorNumber"/>.</summary>
        Unknown = 0,

        /// <summary>EAGAIN: the operation would block, or a send/receive timeout expired.</summary>
        TryAgain,

        /// <summary>EINTR: interrupted by a signal (blocking calls retry this internally).</summary>
        Interrupted,

        /// <summary>ETERM: the context was shut down or terminated.</summary>
        ContextTerminated,

        /// <summary>EFSM: the socket is in the wrong state for this operation (for example a second send on REQ).</summary>
        InvalidState,

        /// <summary>ENOCOMPATPROTO: the transport is not compatible with the socket type.</summary>
        IncompatibleProtocol,

        /// <summary>EMTHREAD: no I/O thread is available for the transport.</summary>
        NoIOThread,

        /// <summary>EINVAL: an argument was invalid (malformed endpoint, unknown option, wrong option size).</summary>
        InvalidArgument,

        /// <summary>EPROTONOSUPPORT: the transport protocol is not supported.</summary>
        ProtocolNotSupported,

        /// <summary>ENOTSUP: the operation is not supported by this socket type.</summary>
        NotSupported,

        /// <summary>EADDRINUSE: the address is already in use.</summary>
        AddressInUse,

        /// <summary>EADDRNOTAVAIL: the address is not local.</summary>
        AddressNotAvailable,

        /// <summary>ENODEV: the network interface does not exist.</summary>
        NoDevice,

        /// <summary>ENOENT: the endpoint was not bound or connected (unbind/disconnect), or an inproc endpoint does not exist.</summary>
        EndpointNotFound,

        /// <summary>EHOSTUNREACH: the message cannot be routed (ROUTER_MANDATORY with an unknown peer).</summary>
        HostUnreachable,

        /// <summary>ENOTSOCK: the socket is invalid.</summary>
        NotSocket,

        /// <summary>EMSGSIZE: the message is too large.</summary>
        MessageTooLarge,

        /// <summary>EMFILE: too many open sockets or files.</summary>
        TooManyOpenFiles,

        /// <summary>ENOMEM: out of memory.</summary>
        OutOfMemory,

        /// <summary>EFAULT: an invalid message or context.</summary>
        Fault,

        /// <summary>ENOBUFS: no buffer space.</summary>
        NoBufferSpace,

        /// <summary>ENETDOWN: the network is down.</summary>
        NetworkDown,

        /// <summary>ENETUNREACH: the network is unreachable.</summary>
        NetworkUnreachable,

        /// <summary>ENETRESET: the connection was reset by the network.</summary>
        NetworkReset,

        /// <summary>ECONNREFUSED: the connection was refused.</summary>
        ConnectionRefused,

        /// <summary>ECONNABORTED: the connection was aborted.</summary>
        ConnectionAborted,

        /// <summary>ECONNRESET: the connection was reset by the peer.</summary>
        ConnectionReset,

        /// <summary>ENOTCONN: the socket is not connected.</summary>
        NotConnected,

        /// <summary>ETIMEDOUT: a connection timed out.</summary>
        TimedOut,

        /// <summary>EINPROGRESS: the operation is in progress.</summary>
        InProgress,

        /// <summary>EAFNOSUPPORT: the address family is not supported.</summary>
        AddressFamilyNotSupported,

        /// <summary>EACCES: permission denied (for example an ipc path that cannot be created).</summary>
        AccessDenied,

        /// <summary>ENAMETOOLONG: the ipc path is longer than the platform allows.</summary>
        NameTooLong,
    }
}
