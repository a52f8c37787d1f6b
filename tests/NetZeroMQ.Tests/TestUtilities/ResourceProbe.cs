using System;
using System.IO;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// Process-wide resource readings from /proc (Linux): open file descriptors, threads, resident memory. Together with the
    /// library's own <see cref="ResourceCounters"/> they show whether a scenario leaks. Process-wide, so a test that asserts on
    /// them runs alone (<see cref="IsolatedCollection"/>) or in a child process of its own.
    /// </summary>
    public static class ResourceProbe
    {
        /// <summary>Open file descriptors (entries of /proc/self/fd; the enumeration itself holds one).</summary>
        public static int OpenDescriptors() => Directory.GetFileSystemEntries("/proc/self/fd").Length;

        /// <summary>Open descriptors grouped by kind ("socket", "pipe", "anon_inode:[eventfd]", a path...), for failure messages.</summary>
        public static string DescribeDescriptors()
        {
            var kinds = new System.Collections.Generic.SortedDictionary<string, int>(StringComparer.Ordinal);
            foreach (string fd in Directory.GetFileSystemEntries("/proc/self/fd"))
            {
                string kind;
                try
                {
                    kind = new FileInfo(fd).LinkTarget ?? "?";
                }
                catch (IOException)
                {
                    continue;
                }

                if (kind.StartsWith("/", StringComparison.Ordinal))
                {
                    kind = "files";
                }

                int bracket = kind.IndexOf(":[", StringComparison.Ordinal);
                if (bracket > 0 && (kind.StartsWith("socket", StringComparison.Ordinal) || kind.StartsWith("pipe", StringComparison.Ordinal)))
                {
                    kind = kind.Substring(0, bracket);
                }

                kinds[kind] = kinds.TryGetValue(kind, out int n) ? n + 1 : 1;
            }

            return string.Join(", ", System.Linq.Enumerable.Select(kinds, k => k.Key + " x" + k.Value));
        }

        /// <summary>Threads of this process (entries of /proc/self/task).</summary>
        public static int Threads() => Directory.GetDirectories("/proc/self/task").Length;

        /// <summary>Resident set size in bytes (VmRSS of /proc/self/status).</summary>
        public static long RssBytes()
        {
            foreach (string line in File.ReadLines("/proc/self/status"))
            {
                if (line.StartsWith("VmRSS:", StringComparison.Ordinal))
                {
                    // "VmRSS:	   123456 kB"
                    string[] parts = line.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries);
                    return long.Parse(parts[1], System.Globalization.CultureInfo.InvariantCulture) * 1024;
                }
            }

            throw new InvalidOperationException("/proc/self/status has no VmRSS line");
        }

        /// <summary>
        /// All three readings at once. With <paramref name="collectFirst"/>, garbage is collected first and glibc is asked to
        /// give its free heap pages back (malloc_trim), so RSS measures memory that is really retained rather than the
        /// allocator's high-water mark: without the trim, socket churn reads +4 MB on a quiet machine and +11 to +22 MB with the
        /// CPUs loaded (libzmq's reaper thread falls behind and the arenas peak higher), while a C program doing the same cycles
        /// on the same libzmq stays flat. One reading right after a burst of work is not enough either: libzmq's reaper and I/O
        /// threads free what closed sockets held for a while after the last zmq_close (right after 100,000 churn cycles and
        /// 10,000 monitor cycles: 57 to 75 MB, 200 ms later 53 MB, later still 43 MB, with descriptors already at the baseline).
        /// So the reading repeats, <see cref="SettleInterval"/> apart, until RSS stops falling by more than
        /// <see cref="SettledMegabytes"/> (at most <see cref="MaxSettleRounds"/> rounds): memory that is still held then is retained.
        /// </summary>
        public static Reading Read(bool collectFirst = true)
        {
            if (!collectFirst)
            {
                return new Reading(OpenDescriptors(), Threads(), RssBytes());
            }

            long rss = CollectTrimAndReadRss();
            for (int round = 1; round < MaxSettleRounds; round++)
            {
                System.Threading.Thread.Sleep(SettleInterval);
                long next = CollectTrimAndReadRss();
                bool settled = rss - next < SettledMegabytes * 1024 * 1024;
                rss = next;
                if (settled)
                {
                    break;
                }
            }

            return new Reading(OpenDescriptors(), Threads(), rss);
        }

        private const int MaxSettleRounds = 25;

        private const int SettleInterval = 200;

        private const int SettledMegabytes = 1;

        private static long CollectTrimAndReadRss()
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            // Aggressive: the GC hands the regions it no longer needs back to the OS now, instead of a step at a time over the
            // next second or so (measured: 16.5 MB committed right after churn, 12.7 MB a second later with plain collections).
            GC.Collect(GC.MaxGeneration, GCCollectionMode.Aggressive, blocking: true, compacting: true);
            MallocTrim(0);
            return RssBytes();
        }

        [System.Runtime.InteropServices.DllImport("libc.so.6", EntryPoint = "malloc_trim")]
        private static extern int MallocTrim(nuint pad);

        /// <summary>One reading of the process's resources.</summary>
        public readonly struct Reading
        {
            public Reading(int descriptors, int threads, long rssBytes)
            {
                Descriptors = descriptors;
                Threads = threads;
                RssBytes = rssBytes;
            }

            public int Descriptors { get; }

            public int Threads { get; }

            public long RssBytes { get; }

            public double RssMegabytes => RssBytes / (1024.0 * 1024.0);

            public override string ToString() => $"fds {Descriptors}, threads {Threads}, RSS {RssMegabytes:F1} MB";
        }
    }
}
