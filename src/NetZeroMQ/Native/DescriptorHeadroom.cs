using System;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// Keeps NetZeroMQ from taking a process's last file descriptors (Linux). Near the limit, the calls that open descriptors —
    /// a new socket (its mailbox), a bind or connect on a transport other than inproc, the async reactor — are refused with
    /// <see cref="ZmqError.TooManyOpenFiles"/> while <see cref="Reserved"/> descriptors are still free, and wakers are not
    /// made (waits run in slices), because what needs a descriptor next cannot fail cleanly: the .NET runtime needs two free
    /// descriptors to start any thread and its thread pool aborts the process when it cannot add a worker ("Out of memory."),
    /// and libzmq aborts when a TCP bind cannot open one (ip_resolver.cpp:542). Sending and receiving are never checked.
    /// </summary>
    /// <remarks>
    /// <para>A measurement is two system calls that open nothing (getrlimit, and statx of /proc/self/fd, whose size is the
    /// number of open descriptors since Linux 6.2). Older kernels report no size; there the lowest free descriptor number
    /// stands in for the count (descriptors are handed out lowest first, so it is the count whenever the table has no holes).
    /// While more than <see cref="AmpleFree"/> are free, one measurement serves the checks of the next millisecond.</para>
    /// <para>A connect opens its descriptors later, on libzmq's I/O thread (its own connection and, when the listener is in
    /// this process, the accepted one), and a burst of connects runs far ahead of that thread: the count alone would let a
    /// loop of connects promise hundreds of descriptors that do not exist yet. So each connect is also counted as two
    /// promised descriptors for <see cref="PromiseWindowMs"/> to <c>2 ×</c> that (<see cref="Promise"/>), which errs on the
    /// safe side while they are both promised and open. Peers that connect to a bound socket from elsewhere are not
    /// foreseen: libzmq accepts them as long as descriptors last.</para>
    /// </remarks>
    internal static unsafe class DescriptorHeadroom
    {
        /// <summary>
        /// Descriptors left free for the .NET runtime (threads, lazily loaded assemblies: two descriptors each, for good) and
        /// as a margin for libzmq's background opens.
        /// </summary>
        internal const int Reserved = 32;

        /// <summary>How long a connect's promised descriptors are counted (at least this, at most twice this).</summary>
        internal const int PromiseWindowMs = 1000;

        /// <summary>EMFILE (the same number on Linux and macOS).</summary>
        private const int EMFILE = 24;

        private static readonly bool s_linux = RuntimeInformation.IsOSPlatform(OSPlatform.Linux);
        private static readonly object s_promiseLock = new object();

        /// <summary>Set once statx of /proc/self/fd is found to report no size (kernel before 6.2) or to be missing.</summary>
        private static volatile bool s_noCount;

        /// <summary>Free descriptors (promises not deducted) at which a measurement stays good for a millisecond.</summary>
        private const int AmpleFree = 8 * Reserved;

        private static readonly long s_freshTicks = Stopwatch.Frequency / 1000;

        /// <summary>When the last measurement was taken (a <see cref="Stopwatch"/> timestamp) and how many were free then.</summary>
        private static long s_measuredAt = long.MinValue / 2;
        private static long s_freeWhenMeasured;

        /// <summary>Descriptors promised in the current window and in the one before it (under <see cref="s_promiseLock"/>).</summary>
        private static int s_promised;
        private static int s_promisedBefore;
        private static long s_windowStart;

        /// <summary>
        /// Throws <see cref="ZmqException"/> (<see cref="ZmqError.TooManyOpenFiles"/>, with the count and the limit in the
        /// message) when opening one more descriptor would leave fewer than <see cref="Reserved"/> free.
        /// </summary>
        internal static void ThrowIfLow(string operation, string? endpoint = null, string? option = null)
        {
            if (IsLow(out long open, out long limit, out int promised))
            {
                throw Refusal(open, limit, promised, operation, endpoint, option);
            }
        }

        /// <summary>Whether one more descriptor may be opened without going into the reserve (always true off Linux).</summary>
        internal static bool HasRoom() => !IsLow(out _, out _, out _);

        /// <summary>Records descriptors libzmq will open in the background for a call that just succeeded (a connect).</summary>
        internal static void Promise(int count)
        {
            if (!s_linux)
            {
                return;
            }

            lock (s_promiseLock)
            {
                Roll(NowMs());
                s_promised += count;
            }
        }

        /// <summary>
        /// The open descriptors and the limit (RLIMIT_NOFILE's soft value), or false where they cannot be read (not Linux, no
        /// limit). <paramref name="open"/> is a lower bound on kernels before 6.2.
        /// </summary>
        internal static bool TryMeasure(out long open, out long limit)
        {
            open = 0;
            limit = 0;
            if (!s_linux)
            {
                return false;
            }

            Interop.Libc.RLimit rlimit;
            if (Interop.Libc.getrlimit(Interop.Libc.RLIMIT_NOFILE, &rlimit) != 0 || rlimit.Current > int.MaxValue)
            {
                return false; // unlimited, or a limit no descriptor table reaches
            }

            limit = (long)rlimit.Current;
            open = s_noCount ? LowestFree(limit) : OpenCount(limit);
            return true;
        }

        /// <summary>The exception for a refused call (also for a thread the runtime could not start, see the reactor).</summary>
        internal static ZmqException Refusal(long open, long limit, int promised, string operation, string? endpoint = null, string? option = null) =>
            ZmqThrow.Create(
                EMFILE, operation, endpoint, option,
                open.ToString(CultureInfo.InvariantCulture) + " of this process's " + limit.ToString(CultureInfo.InvariantCulture) +
                " file descriptors (RLIMIT_NOFILE) are open" +
                (promised > 0 ? " and " + promised.ToString(CultureInfo.InvariantCulture) + " more are being opened for recent connects" : "") +
                ", and NetZeroMQ leaves the last " + Reserved.ToString(CultureInfo.InvariantCulture) + " free: the .NET runtime " +
                "needs free descriptors to start threads (its thread pool aborts the process when it cannot) and libzmq aborts " +
                "when a bind cannot open one. Close sockets, or raise the limit (ulimit -n)");

        private static bool IsLow(out long open, out long limit, out int promised)
        {
            open = 0;
            limit = 0;
            promised = 0;
            if (!s_linux)
            {
                return false;
            }

            // Far from the limit a fresh measurement stands for the next millisecond: nothing plausible opens more than
            // AmpleFree - Reserved descriptors that fast, and a burst of socket creations then pays one measurement per
            // millisecond, not one each (a measurement is two system calls, several microseconds on a virtual machine).
            promised = Promised();
            long now = Stopwatch.GetTimestamp();
            if (now - Volatile.Read(ref s_measuredAt) < s_freshTicks && Volatile.Read(ref s_freeWhenMeasured) - promised >= AmpleFree)
            {
                return false;
            }

            if (!TryMeasure(out open, out limit))
            {
                return false;
            }

            Volatile.Write(ref s_freeWhenMeasured, limit - open);
            Volatile.Write(ref s_measuredAt, now);
            return limit - open - promised - 1 < Reserved;
        }

        private static int Promised()
        {
            lock (s_promiseLock)
            {
                Roll(NowMs());
                return s_promised + s_promisedBefore;
            }
        }

        private static long NowMs() => Stopwatch.GetTimestamp() / (Stopwatch.Frequency / 1000);

        /// <summary>Moves to the current window; the caller holds <see cref="s_promiseLock"/>.</summary>
        private static void Roll(long now)
        {
            long elapsed = now - s_windowStart;
            if (elapsed >= PromiseWindowMs)
            {
                s_promisedBefore = elapsed >= 2 * PromiseWindowMs ? 0 : s_promised;
                s_promised = 0;
                s_windowStart = now;
            }
        }

        /// <summary>/proc/self/fd's size: the number of open descriptors (Linux 6.2 and later).</summary>
        private static long OpenCount(long limit)
        {
            Interop.Libc.Statx buffer = default;
            int rc;
            try
            {
                fixed (byte* path = "/proc/self/fd\0"u8)
                {
                    rc = Interop.Libc.statx(Interop.Libc.AT_FDCWD, path, 0, Interop.Libc.STATX_SIZE, &buffer);
                }
            }
            catch (EntryPointNotFoundException)
            {
                rc = -1; // a C library without statx
            }

            if (rc == 0 && (buffer.Mask & Interop.Libc.STATX_SIZE) != 0 && buffer.Size > 0)
            {
                return (long)buffer.Size;
            }

            s_noCount = true;
            return LowestFree(limit);
        }

        /// <summary>
        /// The lowest free descriptor number, which is a lower bound on the open count (every number below it is open); the
        /// limit itself when none is free. Opens and closes one eventfd.
        /// </summary>
        private static long LowestFree(long limit)
        {
            int fd = Interop.Libc.eventfd(0, Interop.Libc.EFD_CLOEXEC);
            if (fd < 0)
            {
#if NET
                int errno = Marshal.GetLastPInvokeError();
#else
                int errno = Marshal.GetLastWin32Error();
#endif
                return errno == EMFILE ? limit : 0; // anything else says nothing about the count
            }

            Interop.Libc.close(fd);
            return fd;
        }
    }
}
