using System;

namespace NetZeroMQ
{
    /// <summary>Flags for send operations.</summary>
    [Flags]
    public enum SendFlags
    {
        /// <summary>Block until the message is queued (bounded by <see cref="Socket.SendTimeout"/>).</summary>
        None = 0,

        /// <summary>Do not block: <c>TrySend</c> returns false, <c>Send</c> throws <see cref="ZmqException"/> with
        /// <see cref="ZmqError.TryAgain"/>, if the message cannot be queued at once.</summary>
        DontWait = 1,

        /// <summary>More frames of the same message follow.</summary>
        SendMore = 2,
    }
}
