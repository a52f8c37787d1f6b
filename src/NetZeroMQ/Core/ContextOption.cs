namespace NetZeroMQ
{
    /// <summary>
    /// Context options (<c>zmq_ctx_set</c> / <c>zmq_ctx_get</c>), all integers. The values are libzmq's.
    /// See <see href="http://api.zeromq.org/4-3:zmq-ctx-set">zmq_ctx_set</see>.
    /// </summary>
    /// <remarks>
    /// libzmq reads most of these only when the context's first socket starts its threads, and aborts the process when a
    /// value it accepted cannot be applied then. <see cref="Context.SetOption"/> refuses such values with
    /// <see cref="System.ArgumentOutOfRangeException"/> (the ranges below), and the first socket of a context checks what
    /// depends on the system (descriptors, scheduling privileges) with <see cref="System.InvalidOperationException"/>. Values
    /// below each minimum are refused by libzmq itself (<see cref="ZmqError.InvalidArgument"/>).
    /// </remarks>
    public enum ContextOption
    {
        /// <summary>Number of I/O threads (default 1). Set it before the first socket is created; 0 is valid for inproc-only use.
        /// At most what the process can start (see <see cref="Context.IOThreads"/>).</summary>
        IOThreads = 1,

        /// <summary>Maximum number of sockets (default 1023), 1 to <see cref="SocketLimit"/>.</summary>
        MaxSockets = 2,

        /// <summary>
        /// Largest value <see cref="MaxSockets"/> may take (read-only). libzmq gives ZMQ_THREAD_PRIORITY the same number for
        /// setting, so an enum cannot tell them apart: set the I/O threads' priority with <see cref="Context.SetThreadPriority"/>.
        /// </summary>
        SocketLimit = 3,

        /// <summary>Scheduling policy of libzmq's threads (POSIX; default -1, the inherited one). On Linux one of 0 (SCHED_OTHER),
        /// 1 (SCHED_FIFO), 2 (SCHED_RR), 3 (SCHED_BATCH), 5 (SCHED_IDLE); the real-time ones need a priority
        /// (<see cref="Context.SetThreadPriority"/>, 1 to 99) and the privilege to use it, checked at the first socket.</summary>
        ThreadSchedulingPolicy = 4,

        /// <summary>Largest message size, in bytes (default int.MaxValue). libzmq 4.3 stores it but does not use it.</summary>
        MaxMessageSize = 5,

        /// <summary>sizeof(zmq_msg_t) of the loaded libzmq (read-only, 64).</summary>
        MessageStructSize = 6,

        /// <summary>Adds a CPU to the affinity set of libzmq's threads (write-only). On Linux a CPU this process may run on
        /// (Cpus_allowed_list): libzmq would ignore any other, and abort the process when none of its set is usable.</summary>
        ThreadAffinityCpuAdd = 7,

        /// <summary>Removes a CPU from the affinity set (write-only); libzmq refuses a CPU that is not in it.</summary>
        ThreadAffinityCpuRemove = 8,

        /// <summary>Numeric prefix of libzmq's thread names, any value (the name is cut at 15 characters).</summary>
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
