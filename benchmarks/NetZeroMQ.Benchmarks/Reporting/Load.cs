using System;
using System.Globalization;
using System.IO;
using System.Linq;

namespace NetZeroMQ.Benchmarks.Reporting;

/// <summary>The machine's load average (/proc/loadavg), as text for the record and as the 1-minute figure per CPU.</summary>
public static class Load
{
    /// <summary>"1.02 0.98 0.75", or "?" where /proc/loadavg does not exist.</summary>
    public static string Text()
    {
        try
        {
            return string.Join(" ", File.ReadAllText("/proc/loadavg").Split(' ').Take(3));
        }
        catch (IOException)
        {
            return "?";
        }
        catch (UnauthorizedAccessException)
        {
            return "?";
        }
    }

    /// <summary>The 1-minute load average divided by the CPUs, or null when unknown.</summary>
    public static double? PerCpu() => PerCpu(Text(), Environment.ProcessorCount);

    /// <summary>The 1-minute figure of a load text ("8.50 7.00 6.00") per CPU, or null when it is not one.</summary>
    public static double? PerCpu(string text, int cpus) =>
        cpus > 0 && double.TryParse(text.Split(' ')[0], NumberStyles.Float, CultureInfo.InvariantCulture, out double load) ? load / cpus : null;

    /// <summary>"load 17.2 (8.6 per CPU)".</summary>
    public static string Describe(string text, int cpus) =>
        PerCpu(text, cpus) is { } perCpu
            ? $"load {text.Split(' ')[0]} ({perCpu.ToString("F1", CultureInfo.InvariantCulture)} per CPU, {cpus} CPUs)"
            : $"load unknown ({cpus} CPUs)";
}
