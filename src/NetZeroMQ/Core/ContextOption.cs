namespace NetZeroMQ
{
    /// <summary>
    /// Context options (<c>zmq_ctx_set</c> / <c>zmq_ctx_get</c>), all integers. The values are libzmq's.
    /// See <see href="http://api.zeromq.org/4-3:zmq-ctx-set">zmq_ctx_set</see>.
    /// </summary>
    public enum ContextOption
    {
        /// <summary>Number of I/O threads (default 1). Set it before the first socket is created; 0 is valid for inproc-only use.</summary>
        IOThreads = 1,

        /// <summary>Maximum number of sockets (default 1023).</summary>
        MaxSockets = 2,

        /// <summary>
        /// Largest value <see cref="MaxSockets"/> may take (read-only). libzmq gives ZMQ_THREAD_PRIORITY the same number for
        /// setting, so an enum cannot tell them apart: set the I/O threads' priority with <see cref="Context.SetThreadPriority"/>.
        /// </summary>
        SocketLimit = 3,

        /// <summary>Scheduling policy of the I/O threads (POSIX; default -1, the OS default).</summary>
        ThreadSchedulingPolicy = 4,

        /// <summary>Largest message size accepted, in bytes (default int.MaxValue).</summary>
        MaxMessageSize = 5,

        /// <summary>sizeof(zmq_msg_t) of the loaded libzmq (read-only, 64).</summary>
        MessageStructSize = 6,

        /// <summary>Adds a CPU to the I/O threads' affinity set (write-only).</summary>
        ThreadAffinityCpuAdd = 7,

        /// <summary>Removes a CPU from the I/O threads' affinity set (write-only).</summary>
        ThreadAffinityCpuRemove = 8,

        /// <summary>Numeric prefix of the I/O thread names.</summary>
        ThreadNamePrefix = 9,

        /// <summary>Whether receives may hand out buffers without copying (default 1).</summary>
        ZeroCopyReceive = 10,

        /// <summary>Default of the IPv6 socket option for new sockets (default 0).</summary>
        IPv6 = 42,

        /// <summary>1 (libzmq's default): new sockets get infinite linger. NetZeroMQ sets every socket's linger from
        /// <see cref="Context.DefaultLinger"/> instead, so this option only matters for sockets made outside NetZeroMQ.</summary>
        Blocky = 70,
    }
}
