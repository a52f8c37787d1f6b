using System;
using System.Globalization;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    /// <summary>
    /// The values each context option can take in libzmq 4.3, where they differ from "anything libzmq's zmq_ctx_set accepts":
    /// libzmq checks little when an option is set and reads the options only when the first socket starts its threads, where
    /// a value it accepted can abort the process (ctx.cpp start, thread.cpp). Values libzmq refuses itself (below each
    /// option's minimum) still go to libzmq, which reports <see cref="ZmqError.InvalidArgument"/> naming the option.
    /// </summary>
    internal static class ContextOptionLimits
    {
        /// <summary>Linux's scheduling policies that pthread_setschedparam takes: OTHER, FIFO, RR, BATCH, IDLE.</summary>
        private static readonly OptionLimits LinuxPolicies = OptionLimits.OneOf(
            new long[] { 0, 1, 2, 3, 5 },
            "the Linux policies SCHED_OTHER, SCHED_FIFO, SCHED_RR, SCHED_BATCH and SCHED_IDLE; libzmq's threads set any other " +
            "with pthread_setschedparam, which fails, and libzmq then aborts the process (thread.cpp:337-345).",
            nativeFloor: 0);

        /// <summary>SCHED_FIFO/SCHED_RR priorities on Linux are 1 to 99; the other policies take only "set" (any value) or not.</summary>
        private static readonly OptionLimits LinuxPriorities = OptionLimits.Range(
            0, 99,
            "Linux's real-time priorities go up to 99; libzmq's threads pass larger ones to pthread_setschedparam, which fails, " +
            "and libzmq then aborts the process (thread.cpp:345).");

        /// <summary>
        /// Descriptors the I/O threads must leave free. libzmq aborts the process in several places when it cannot open one
        /// (epoll.cpp:65 when an I/O thread starts, ip_resolver.cpp:542 when Bind/Connect resolves an interface), so the
        /// threads may not take the last ones: these are for the application's sockets, listeners and connections.
        /// </summary>
        internal const int DescriptorReserve = 64;

        /// <summary>Whether the libzmq thread checks that depend on Linux apply.</summary>
        internal static bool IsLinux { get; } = RuntimeInformation.IsOSPlatform(OSPlatform.Linux);

        /// <summary>
        /// Throws <see cref="System.ArgumentOutOfRangeException"/> naming the option and the allowed values when
        /// <paramref name="value"/> is one libzmq accepts but cannot run with.
        /// </summary>
        /// <param name="context">The context (some limits depend on its other options).</param>
        /// <param name="option">libzmq's option number; 3 is ZMQ_THREAD_PRIORITY here (a setter).</param>
        /// <param name="name">The option's name.</param>
        /// <param name="value">The value.</param>
        internal static void ThrowIfNotAllowed(Context context, int option, string name, int value)
        {
            OptionLimits? limits = option switch
            {
                1 => IOThreads(context, DescriptorReserve), // ZMQ_IO_THREADS
                2 => MaxSockets(context), // ZMQ_MAX_SOCKETS
                ContextOptions.ThreadSchedulingPolicyId when IsLinux => LinuxPolicies,
                3 when IsLinux => LinuxPriorities, // ZMQ_THREAD_PRIORITY
                ContextOptions.ThreadAffinityCpuAddId when IsLinux => AffinityCpus(),
                _ => null,
            };
            if (limits is not null && !limits.IsNativelyRefused(value))
            {
                limits.ThrowIfNotAllowed("Context option", name, value, "value");
            }
        }

        /// <summary>
        /// IOThreads: libzmq sizes its slot table as MaxSockets + IOThreads + 2 in an <c>int</c> and reserves it
        /// (ctx.cpp:415-418: an overflow throws std::length_error, which ends the process), and every I/O thread takes two
        /// descriptors (a mailbox and an epoll instance); when they run out, libzmq aborts (epoll.cpp:65).
        /// </summary>
        /// <param name="context">The context.</param>
        /// <param name="reserve">Descriptors to leave free: <see cref="DescriptorReserve"/> when the value is set, 0 when the
        /// first socket starts the threads (then only libzmq's own start-up must not run out).</param>
        internal static OptionLimits IOThreads(Context context, int reserve)
        {
            int maxSockets = context.GetOption(ContextOptions.MaxSockets);
            long max = (long)int.MaxValue - 2 - maxSockets;
            string reason = "libzmq adds MaxSockets (" + maxSockets.ToString(CultureInfo.InvariantCulture) +
                ") + IOThreads + 2 in an int and the process dies when it overflows (ctx.cpp:415-418)";
            if (ContextStart.FreeDescriptors() is long free)
            {
                // The first socket starts the reaper (2 descriptors), the I/O threads (2 each) and its own mailbox (1).
                // (Measured: a context's first socket with n I/O threads opens 2n + 3 descriptors.)
                long budget = Math.Max(0, (free - 3 - reserve) / 2);
                if (budget < max)
                {
                    max = budget;
                    reason = "each I/O thread takes two file descriptors, this process can open " +
                        free.ToString(CultureInfo.InvariantCulture) + " more (RLIMIT_NOFILE) and " +
                        reserve.ToString(CultureInfo.InvariantCulture) + " stay free for sockets; libzmq aborts the " +
                        "process when descriptors run out while it starts its threads (epoll.cpp:65). Raise the limit (ulimit -n) for more";
                }
            }

            return OptionLimits.Range(0, max, reason + ".");
        }

        /// <summary>
        /// MaxSockets: libzmq documents <see cref="ContextOptions.SocketLimit"/> as the largest value it accepts but does not
        /// enforce it with epoll: a larger value reserves that many slots (int.MaxValue overflows, ctx.cpp:415-418; a billion
        /// allocates gigabytes).
        /// </summary>
        internal static OptionLimits MaxSockets(Context context)
        {
            int limit = context.GetOption(ContextOptions.SocketLimit);
            return OptionLimits.Range(
                1, limit,
                "ZMQ_SOCKET_LIMIT is the largest value libzmq documents; libzmq sizes a table by it at the first socket " +
                "(ctx.cpp:415-418), so a larger one allocates that much and int.MaxValue ends the process.");
        }

        /// <summary>
        /// ThreadAffinityCpuAdd on Linux: a CPU this process may run on. glibc's CPU_SET ignores CPUs from 1024 on, the kernel
        /// ignores CPUs the process may not use, and when none of the set is usable pthread_setaffinity_np fails and libzmq
        /// aborts the process (thread.cpp:372).
        /// </summary>
        internal static OptionLimits? AffinityCpus()
        {
            long[]? cpus = ContextStart.AllowedCpus();
            return cpus is null || cpus.Length == 0 ? null : OptionLimits.OneOf(
                cpus,
                "the CPUs this process may run on (Cpus_allowed_list); libzmq ignores any other, and aborts the process when none " +
                "of its set is usable (thread.cpp:372).",
                nativeFloor: 0);
        }
    }
}
