using System;

namespace NetZeroMQ
{
    /// <summary>Flags for send operations. Whether a send waits is not a flag: <c>Send</c> waits (up to
    /// <see cref="Socket.SendTimeout"/>), <c>TrySend</c> does not, and <c>TrySend</c> with a timeout waits up to that.</summary>
    [Flags]
    public enum SendFlags
    {
        /// <summary>This frame ends the message.</summary>
        None = 0,

        /// <summary>More frames of the same message follow.</summary>
        SendMore = 2,
    }
}
