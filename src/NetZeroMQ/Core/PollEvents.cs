using System;

namespace NetZeroMQ
{
    /// <summary>Readiness a <see cref="Poller"/> waits for, and a socket reports in <see cref="Socket.Events"/>.</summary>
    [Flags]
    public enum PollEvents : short
    {
        /// <summary>Nothing.</summary>
        None = 0,

        /// <summary>At least one message can be received without blocking.</summary>
        In = 1,

        /// <summary>At least one message can be sent without blocking.</summary>
        Out = 2,

        /// <summary>An error condition (only for raw file descriptors).</summary>
        Error = 4,
    }
}
