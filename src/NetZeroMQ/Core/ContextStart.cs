using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// What must hold when a context's first socket makes libzmq start its threads (ctx.cpp, start): libzmq reads the
    /// context options then, and aborts the process when a thread cannot be created or configured. Checked once per context,
    /// just before its first <c>zmq_socket</c>, so that the failure is an exception instead (Linux; elsewhere nothing here
    /// is checked). Also the process facts the option limits need (free descriptors, allowed CPUs), read from /proc.
    /// </summary>
    internal static unsafe class ContextStart
    {
        /// <summary>
        /// Throws <see cref="InvalidOperationException"/> when starting <paramref name="context"/>'s threads would abort the
        /// process: I/O threads that no longer fit the descriptor budget, or scheduling options (policy, priority, CPU
        /// affinity) that libzmq's threads cannot apply to themselves.
        /// </summary>
        internal static void ThrowIfCannotStart(Context context, int policy, int priority, int[] cpus)
        {
            if (!ContextOptionLimits.IsLinux)
            {
                return;
            }

            int ioThreads = context.GetOption(ContextOptions.IOThreads);
            OptionLimits threads = ContextOptionLimits.IOThreads(context, reserve: 0);
            if (!threads.Allows(ioThreads))
            {
                throw new InvalidOperationException(
                    "The context cannot start its " + ioThreads.ToString(CultureInfo.InvariantCulture) + " I/O threads (IOThreads): " +
                    "it takes " + threads.Describe() + " now; " + threads.Reason + " No socket was created.");
            }

            if (policy == -1 && priority == -1 && cpus.Length == 0)
            {
                return; // libzmq's threads keep what they inherit; nothing can fail
            }

            string? failure = null;
            var probe = new Thread(() => failure = TryApplyScheduling(policy, priority, cpus))
            {
                IsBackground = true,
                Name = "NetZeroMQ scheduling check",
            };

            // The probe is a library thread: it must not carry the caller's AsyncLocals.
            using (ExecutionContext.SuppressFlow())
            {
                probe.Start();
            }

            probe.Join();
            if (failure is not null)
            {
                throw new InvalidOperationException(
                    "The context's I/O thread scheduling cannot be applied on this system (ThreadSchedulingPolicy " + Text(policy) +
                    ", ThreadPriority " + Text(priority) + ", affinity CPUs " + (cpus.Length == 0 ? "none" : string.Join(",", cpus)) +
                    "): " + failure + ". libzmq's threads make these calls on themselves when the first socket starts them and " +
                    "abort the process when one fails (thread.cpp:308-373), so no socket was created. Real-time policies (1, 2) " +
                    "need a ThreadPriority of 1 to 99; any ThreadPriority with the other policies makes libzmq call nice(-20); " +
                    "both need CAP_SYS_NICE (or RLIMIT_RTPRIO / RLIMIT_NICE).");
            }
        }

        /// <summary>The descriptors this process can still open (RLIMIT_NOFILE minus those open), or null where unknown.</summary>
        /// <remarks>Measured without opening a descriptor (<see cref="DescriptorHeadroom"/>): a listing of /proc/self/fd needs one,
        /// and failed, so left the I/O threads unchecked, exactly when descriptors were scarce.</remarks>
        internal static long? FreeDescriptors() =>
            DescriptorHeadroom.TryMeasure(out long open, out long limit) ? Math.Max(0, limit - open) : null;

        /// <summary>
        /// The CPUs this process may run on (/proc/self/status, Cpus_allowed_list), below 1024 (glibc's cpu_set_t, which libzmq
        /// uses), in ascending order; null where unknown.
        /// </summary>
        internal static long[]? AllowedCpus()
        {
            try
            {
                foreach (string line in File.ReadAllLines("/proc/self/status"))
                {
                    if (!line.StartsWith("Cpus_allowed_list:", StringComparison.Ordinal))
                    {
                        continue;
                    }

                    var cpus = new List<long>();
                    foreach (string part in line.Substring("Cpus_allowed_list:".Length).Trim().Split(','))
                    {
                        int dash = part.IndexOf('-');
                        long first = long.Parse(dash < 0 ? part : part.Substring(0, dash), CultureInfo.InvariantCulture);
                        long last = dash < 0 ? first : long.Parse(part.Substring(dash + 1), CultureInfo.InvariantCulture);
                        for (long cpu = first; cpu <= last && cpu < Interop.Libc.CpuSetBytes * 8; cpu++)
                        {
                            cpus.Add(cpu);
                        }
                    }

                    return cpus.ToArray();
                }
            }
            catch (Exception e) when (e is IOException || e is UnauthorizedAccessException || e is FormatException)
            {
            }

            return null;
        }

        /// <summary>
        /// On the calling (throw-away) thread, the calls libzmq's thread_t::applySchedulingParameters makes (thread.cpp:297-373),
        /// in the same order and with the same arguments; null when all succeed, else which one failed.
        /// </summary>
        private static string? TryApplyScheduling(int policy, int priority, int[] cpus)
        {
            nuint self = Interop.Libc.pthread_self();
            int currentPolicy;
            int param;
            int rc = Interop.Libc.pthread_getschedparam(self, &currentPolicy, &param);
            if (rc != 0)
            {
                return "pthread_getschedparam failed with errno " + Text(rc);
            }

            int newPolicy = policy != -1 ? policy : currentPolicy;
            bool useNice = newPolicy != Interop.Libc.SCHED_FIFO && newPolicy != Interop.Libc.SCHED_RR;
            if (priority != -1)
            {
                param = useNice ? 0 : priority;
            }

            rc = Interop.Libc.pthread_setschedparam(self, newPolicy, &param);
            if (rc != 0)
            {
                return "pthread_setschedparam(policy " + Text(newPolicy) + ", priority " + Text(param) + ") failed with " + ErrnoName(rc);
            }

            if (useNice && priority != -1)
            {
                // libzmq asserts nice(-20) != -1, whatever errno says (thread.cpp:353-355).
                if (Interop.Libc.nice(-20) == -1)
                {
#if NET
                    int errno = Marshal.GetLastPInvokeError();
#else
                    int errno = Marshal.GetLastWin32Error();
#endif
                    return "nice(-20) failed with " + ErrnoName(errno);
                }
            }

            if (cpus.Length > 0)
            {
                byte* set = stackalloc byte[Interop.Libc.CpuSetBytes];
                new Span<byte>(set, Interop.Libc.CpuSetBytes).Clear();
                foreach (int cpu in cpus)
                {
                    if (cpu >= 0 && cpu < Interop.Libc.CpuSetBytes * 8)
                    {
                        set[cpu / 8] |= (byte)(1 << (cpu % 8));
                    }
                }

                rc = Interop.Libc.pthread_setaffinity_np(self, Interop.Libc.CpuSetBytes, set);
                if (rc != 0)
                {
                    return "pthread_setaffinity_np(CPUs " + string.Join(",", cpus) + ") failed with " + ErrnoName(rc);
                }
            }

            return null;
        }

        private static string ErrnoName(int errno) =>
            errno == 1 ? "EPERM (not permitted)"
            : errno == 22 ? "EINVAL (invalid argument)"
            : "errno " + Text(errno);

        private static string Text(int value) => value.ToString(CultureInfo.InvariantCulture);
    }
}
