namespace NetZeroMQ
{
    /// <summary>
    /// <c>zmq_msg_send</c> of a <see cref="Message"/>, recording a success in it (libzmq took the content: the message is empty
    /// now). Made while the caller holds the message (its guard in the core, a <see cref="MessageLease"/> outside it).
    /// </summary>
    internal readonly unsafe struct MessageSend : INativeTransfer
    {
        private readonly Message _message;
        private readonly void* _msg;

        internal MessageSend(Message message)
        {
            _message = message;
            _msg = message.UnguardedPointer;
        }

        public bool IsSend => true;

        public int Invoke(nint socket, int flags)
        {
            int rc = Interop.Zmq.zmq_msg_send(_msg, socket, flags);
            if (rc >= 0)
            {
                _message.OnSent();
            }

            return rc;
        }
    }

    /// <summary>
    /// <c>zmq_msg_recv</c> into a <see cref="Message"/>, recording the received frame's size in it, or after a failure what
    /// libzmq left there (it releases the old content before it looks for a frame, so a receive that found none leaves the
    /// message empty). Made while the caller holds the message (its guard in the core, a <see cref="MessageLease"/> outside it),
    /// which a blocking receive lets go between its attempts: the message must be what it says by then.
    /// </summary>
    internal readonly unsafe struct MessageRecv : INativeTransfer
    {
        private readonly Message _message;
        private readonly void* _msg;

        internal MessageRecv(Message message)
        {
            _message = message;
            _msg = message.UnguardedPointer;
        }

        public bool IsSend => false;

        public int Invoke(nint socket, int flags)
        {
            int rc = Interop.Zmq.zmq_msg_recv(_msg, socket, flags);
            if (rc >= 0)
            {
                _message.OnReceived(rc);
            }
            else
            {
                _message.OnReceiveFailed();
            }

            return rc;
        }
    }
}
