using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// The CPU time one thread has used: on Linux read from <c>/proc/self/task/&lt;tid&gt;/stat</c> (user plus system time,
    /// in clock ticks of 10 ms), so that other tests running meanwhile do not count; elsewhere the whole process's.
    /// </summary>
    public sealed class ThreadCpuTime
    {
        /// <summary>Linux's USER_HZ, the unit of the times in /proc (100 on every architecture .NET runs on).</summary>
        private const int TicksPerSecond = 100;

        private readonly int? _tid;

        private ThreadCpuTime(int? tid) => _tid = tid;

        /// <summary>Whether the measure is the thread's alone (Linux) rather than the whole process's.</summary>
        public bool IsPerThread => _tid is not null;

        /// <summary>The calling thread's measure (remember it on the thread to be measured, read it from any thread).</summary>
        public static ThreadCpuTime OfCurrentThread()
        {
            if (!OperatingSystem.IsLinux())
            {
                return new ThreadCpuTime(null);
            }

            // /proc/thread-self links to "<pid>/task/<tid>" of the thread that resolves it.
            string target = new DirectoryInfo("/proc/thread-self").LinkTarget
                ?? throw new InvalidOperationException("/proc/thread-self is not a link");
            return new ThreadCpuTime(int.Parse(Path.GetFileName(target), CultureInfo.InvariantCulture));
        }

        /// <summary>The CPU time used so far.</summary>
        public TimeSpan Used()
        {
            if (_tid is null)
            {
                return Process.GetCurrentProcess().TotalProcessorTime;
            }

            // "tid (comm) state ppid ...": the name may hold spaces and parentheses, so count fields from the last ')'.
            // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
            string stat = File.ReadAllText("/proc/self/task/" + _tid.Value.ToString(CultureInfo.InvariantCulture) + "/stat");
            string[] fields = stat.Substring(stat.LastIndexOf(')') + 2).Split(' ');
            long ticks = long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture);
            return TimeSpan.FromSeconds((double)ticks / TicksPerSecond);
        }
    }
}
