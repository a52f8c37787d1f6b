using System;
using System.Globalization;
using System.IO;

namespace NetZeroMQ.Benchmarks.Reporting;

/// <summary>
/// How much CPU work outside this run took while it measured, in CPUs (0.5: half of one CPU on average): the machine's busy
/// time (<c>/proc/stat</c>) less the time of this process and of the child processes it waited for (<c>/proc/self/stat</c>:
/// every benchmark side runs in such a child). The load average cannot tell this: it counts the run's own threads, so a
/// pinned run on a quiet 2-CPU machine (two busy threads on CPU 0) shows a load of 2, 1.0 per CPU, by itself.
/// Linux only; elsewhere every figure is null ("unknown").
/// </summary>
public static class OtherWork
{
    /// <summary>Clock ticks of busy CPU time, the machine's and this process tree's, at one moment.</summary>
    public readonly record struct Sample(long MachineBusyTicks, long OwnTicks, long TakenAt);

    /// <summary>The counters now, or null where <c>/proc</c> does not have them.</summary>
    public static Sample? Take()
    {
        try
        {
            return Parse(File.ReadAllText("/proc/stat"), File.ReadAllText("/proc/self/stat"), System.Diagnostics.Stopwatch.GetTimestamp());
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>
    /// A sample from the texts of <c>/proc/stat</c> and <c>/proc/self/stat</c>; null when either is not in the expected form.
    /// Busy is every field of the "cpu" line but idle and iowait (guest time is already inside user); this process's own is
    /// utime + stime + cutime + cstime (fields 14 to 17, counted after the command name, which may hold spaces).
    /// </summary>
    public static Sample? Parse(string procStat, string selfStat, long timestamp)
    {
        string cpuLine = procStat.Split('\n')[0];
        string[] cpu = cpuLine.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (cpu.Length < 8 || cpu[0] != "cpu")
        {
            return null;
        }

        long busy = 0;
        for (int field = 1; field < cpu.Length && field <= 8; field++)
        {
            if (field is 4 or 5)
            {
                continue; // idle, iowait
            }

            if (!long.TryParse(cpu[field], NumberStyles.Integer, CultureInfo.InvariantCulture, out long ticks))
            {
                return null;
            }

            busy += ticks;
        }

        int afterName = selfStat.LastIndexOf(')');
        string[] self = selfStat[(afterName + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);

        // self[0] is field 3 (state): fields 14..17 are self[11..14].
        if (afterName < 0 || self.Length < 15)
        {
            return null;
        }

        long own = 0;
        for (int i = 11; i <= 14; i++)
        {
            if (!long.TryParse(self[i], NumberStyles.Integer, CultureInfo.InvariantCulture, out long ticks))
            {
                return null;
            }

            own += ticks;
        }

        return new Sample(busy, own, timestamp);
    }

    /// <summary>
    /// The CPUs other work kept busy on average between two samples, or null when either is unknown or no time passed.
    /// Clock ticks are 1/100 s on Linux (USER_HZ, the unit of both files).
    /// </summary>
    public static double? CpusBetween(Sample? start, Sample? end)
    {
        if (start is not { } a || end is not { } b)
        {
            return null;
        }

        double seconds = (b.TakenAt - a.TakenAt) / (double)System.Diagnostics.Stopwatch.Frequency;
        if (seconds <= 0)
        {
            return null;
        }

        long others = (b.MachineBusyTicks - a.MachineBusyTicks) - (b.OwnTicks - a.OwnTicks);
        return Math.Max(0, others / 100.0 / seconds);
    }

    /// <summary>The CPUs other work keeps busy now, measured over <paramref name="window"/> (the run's header, before it starts).</summary>
    public static double? Now(TimeSpan window)
    {
        Sample? start = Take();
        System.Threading.Thread.Sleep(window);
        return CpusBetween(start, Take());
    }

    /// <summary>"other work 0.12 CPUs", or "other work unknown".</summary>
    public static string Describe(double? cpus) =>
        cpus is { } value ? $"other work {value.ToString("F2", CultureInfo.InvariantCulture)} CPUs" : "other work unknown";
}
