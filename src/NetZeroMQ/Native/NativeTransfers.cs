namespace NetZeroMQ
{
    /// <summary>
    /// One libzmq send or receive call, as a struct so that the code that makes it (the socket's transfer path, its attempts
    /// and wait loops) is specialised per call by the JIT: no delegate, no allocation, no indirect call on the hot path. The buffer
    /// calls are here; the message calls, which also record the transfer in the message, are in the core (MessageTransfers.cs).
    /// </summary>
    internal interface INativeTransfer
    {
        /// <summary>True for sends (which wait natively at the high-water mark), false for receives (which poll with a waker).</summary>
        bool IsSend { get; }

        /// <summary>Makes the call; returns libzmq's result (bytes, or -1 with errno set). A successful call does its own
        /// bookkeeping, so whoever makes it needs nothing but the result.</summary>
        int Invoke(nint socket, int flags);
    }

    internal readonly unsafe struct BufferSend : INativeTransfer
    {
        private readonly byte* _data;
        private readonly nuint _length;

        internal BufferSend(byte* data, int length)
        {
            _data = data;
            _length = (nuint)length;
        }

        public bool IsSend => true;

        public int Invoke(nint socket, int flags) => Interop.Zmq.zmq_send(socket, _data, _length, flags);
    }

    internal readonly unsafe struct BufferRecv : INativeTransfer
    {
        private readonly byte* _data;
        private readonly nuint _length;

        internal BufferRecv(byte* data, int length)
        {
            _data = data;
            _length = (nuint)length;
        }

        public bool IsSend => false;

        public int Invoke(nint socket, int flags) => Interop.Zmq.zmq_recv(socket, _data, _length, flags);
    }

    /// <summary>
    /// <c>zmq_msg_send</c> of a zmq_msg_t on the caller's stack: a large span send copied into a pooled buffer
    /// (<see cref="SendBufferPool"/>). On failure the message is unchanged, so a wait loop can make the call again.
    /// </summary>
    internal readonly unsafe struct PooledSend : INativeTransfer
    {
        private readonly void* _msg;

        internal PooledSend(void* msg) => _msg = msg;

        public bool IsSend => true;

        public int Invoke(nint socket, int flags) => Interop.Zmq.zmq_msg_send(_msg, socket, flags);
    }
}
