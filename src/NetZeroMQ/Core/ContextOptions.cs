namespace NetZeroMQ
{
    /// <summary>
    /// Every context option of libzmq 4.3 as a typed key, for <see cref="Context.GetOption(ContextOption{int})"/> and
    /// <see cref="Context.SetOption(ContextOption{int}, int)"/>: the key's value type picks the overload. The values are
    /// libzmq's. See <see href="http://api.zeromq.org/4-3:zmq-ctx-set">zmq_ctx_set</see>.
    /// </summary>
    /// <remarks>
    /// <para>libzmq reads most of these only when the context's first socket starts its threads, and aborts the process when a
    /// value it accepted cannot be applied then. <see cref="Context.SetOption(ContextOption{int}, int)"/> refuses such values
    /// with <see cref="System.ArgumentOutOfRangeException"/> (the ranges below), and the first socket of a context checks what
    /// depends on the system (descriptors, scheduling privileges) with <see cref="System.InvalidOperationException"/>. Values
    /// below each minimum are refused by libzmq itself (<see cref="ZmqError.InvalidArgument"/>).</para>
    /// <para>Two types for the same reason as <see cref="SocketOptions"/>: <see cref="ContextOption{T}"/> is the key, generic
    /// in its value type; this static class is the catalogue.</para>
    /// </remarks>
    public static class ContextOptions
    {
        /// <summary>libzmq's number of ZMQ_THREAD_SCHED_POLICY, for the context's copy of the thread options.</summary>
        internal const int ThreadSchedulingPolicyId = 4;

        /// <summary>libzmq's number of ZMQ_THREAD_AFFINITY_CPU_ADD.</summary>
        internal const int ThreadAffinityCpuAddId = 7;

        /// <summary>libzmq's number of ZMQ_THREAD_AFFINITY_CPU_REMOVE.</summary>
        internal const int ThreadAffinityCpuRemoveId = 8;

        /// <summary>libzmq's number of ZMQ_THREAD_NAME_PREFIX.</summary>
        internal const int ThreadNamePrefixId = 9;

        /// <summary>Number of I/O threads (ZMQ_IO_THREADS, default 1). Set it before the first socket is created; 0 is valid for
        /// inproc-only use. At most what the process can start (see <see cref="Context.IOThreads"/>).</summary>
        public static readonly ContextOption<int> IOThreads = new ContextOption<int>(1, nameof(IOThreads), OptionAccess.ReadWrite);

        /// <summary>Maximum number of sockets (ZMQ_MAX_SOCKETS, default 1023), 1 to <see cref="SocketLimit"/>.</summary>
        public static readonly ContextOption<int> MaxSockets = new ContextOption<int>(2, nameof(MaxSockets), OptionAccess.ReadWrite);

        /// <summary>
        /// Largest value <see cref="MaxSockets"/> may take (ZMQ_SOCKET_LIMIT, read-only). libzmq gives ZMQ_THREAD_PRIORITY the
        /// same number for setting: set the I/O threads' priority with <see cref="Context.SetThreadPriority"/>.
        /// </summary>
        public static readonly ContextOption<int> SocketLimit = new ContextOption<int>(3, nameof(SocketLimit), OptionAccess.Read);

        /// <summary>Scheduling policy of libzmq's threads (ZMQ_THREAD_SCHED_POLICY, POSIX; default -1, the inherited one). On
        /// Linux one of 0 (SCHED_OTHER), 1 (SCHED_FIFO), 2 (SCHED_RR), 3 (SCHED_BATCH), 5 (SCHED_IDLE); the real-time ones need
        /// a priority (<see cref="Context.SetThreadPriority"/>, 1 to 99) and the privilege to use it, checked at the first
        /// socket.</summary>
        public static readonly ContextOption<int> ThreadSchedulingPolicy =
            new ContextOption<int>(ThreadSchedulingPolicyId, nameof(ThreadSchedulingPolicy), OptionAccess.ReadWrite);

        /// <summary>Largest message size, in bytes (ZMQ_MAX_MSGSZ, default int.MaxValue). libzmq 4.3 stores it but does not use
        /// it.</summary>
        public static readonly ContextOption<int> MaxMessageSize = new ContextOption<int>(5, nameof(MaxMessageSize), OptionAccess.ReadWrite);

        /// <summary>sizeof(zmq_msg_t) of the loaded libzmq (ZMQ_MSG_T_SIZE, read-only, 64).</summary>
        public static readonly ContextOption<int> MessageStructSize = new ContextOption<int>(6, nameof(MessageStructSize), OptionAccess.Read);

        /// <summary>Adds a CPU to the affinity set of libzmq's threads (ZMQ_THREAD_AFFINITY_CPU_ADD, write-only). On Linux a CPU
        /// this process may run on (Cpus_allowed_list): libzmq would ignore any other, and abort the process when none of its
        /// set is usable.</summary>
        public static readonly ContextOption<int> ThreadAffinityCpuAdd =
            new ContextOption<int>(ThreadAffinityCpuAddId, nameof(ThreadAffinityCpuAdd), OptionAccess.Write);

        /// <summary>Removes a CPU from the affinity set (ZMQ_THREAD_AFFINITY_CPU_REMOVE, write-only); libzmq refuses a CPU that
        /// is not in it.</summary>
        public static readonly ContextOption<int> ThreadAffinityCpuRemove =
            new ContextOption<int>(ThreadAffinityCpuRemoveId, nameof(ThreadAffinityCpuRemove), OptionAccess.Write);

        /// <summary>Numeric prefix of libzmq's thread names (ZMQ_THREAD_NAME_PREFIX), any value (the name is cut at 15
        /// characters).</summary>
        public static readonly ContextOption<int> ThreadNamePrefix =
            new ContextOption<int>(ThreadNamePrefixId, nameof(ThreadNamePrefix), OptionAccess.ReadWrite);

        /// <summary>Whether receives may hand out buffers without copying (ZMQ_ZERO_COPY_RECV, default true).</summary>
        public static readonly ContextOption<bool> ZeroCopyReceive = new ContextOption<bool>(10, nameof(ZeroCopyReceive), OptionAccess.ReadWrite);

        /// <summary>Default of the IPv6 socket option for new sockets (ZMQ_IPV6, default false); the same as
        /// <see cref="Context.IPv6"/>.</summary>
        public static readonly ContextOption<bool> IPv6 = new ContextOption<bool>(42, nameof(IPv6), OptionAccess.ReadWrite);

        /// <summary>True (ZMQ_BLOCKY, libzmq's default): new sockets get infinite linger. NetZeroMQ sets every socket's linger
        /// from <see cref="Context.DefaultLinger"/> instead, so this option only matters for sockets made outside
        /// NetZeroMQ.</summary>
        public static readonly ContextOption<bool> Blocky = new ContextOption<bool>(70, nameof(Blocky), OptionAccess.ReadWrite);

        /// <summary>
        /// A key for an integer context option this catalogue does not list (for example one of a newer libzmq); libzmq decides
        /// whether it knows the number. The checks of a listed option with the same number still apply.
        /// </summary>
        /// <param name="id">libzmq's option number.</param>
        /// <param name="name">A name for messages and exceptions.</param>
        /// <param name="access">Whether it can be read, written, or both.</param>
        /// <returns>The key.</returns>
        /// <exception cref="System.ArgumentNullException"><paramref name="name"/> is null.</exception>
        public static ContextOption<int> CustomInt32(int id, string name, OptionAccess access = OptionAccess.ReadWrite) =>
            new ContextOption<int>(id, name, access);
    }
}
