using System;

namespace NetZeroMQ
{
    /// <summary>Flags for receive operations.</summary>
    [Flags]
    public enum RecvFlags
    {
        /// <summary>Block until a message arrives (bounded by <see cref="Socket.ReceiveTimeout"/>).</summary>
        None = 0,

        /// <summary>Do not block: <c>TryRecv</c> returns false, <c>Recv</c> throws <see cref="ZmqException"/> with
        /// <see cref="ZmqError.TryAgain"/>, if no message is waiting.</summary>
        DontWait = 1,
    }
}
