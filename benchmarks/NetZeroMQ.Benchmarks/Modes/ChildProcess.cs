using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Linq;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>Runs one measuring child process (optionally under taskset -c 0) and reads its key=value line.</summary>
public static class ChildProcess
{
    public static ChildResult Run(
        string program, IReadOnlyList<string> arguments, bool pin, TimeSpan timeout, IReadOnlyDictionary<string, string>? environment = null)
    {
        var start = new ProcessStartInfo(pin ? "taskset" : program)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        if (pin)
        {
            start.ArgumentList.Add("-c");
            start.ArgumentList.Add("0");
            start.ArgumentList.Add(program);
        }

        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        if (environment is not null)
        {
            foreach (KeyValuePair<string, string> variable in environment)
            {
                start.Environment[variable.Key] = variable.Value;
            }
        }

        using var process = Process.Start(start) ?? throw new InvalidOperationException("could not start " + program);
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(timeout))
        {
            process.Kill(entireProcessTree: true);
            return new ChildResult(-1, null, "timed out after " + timeout);
        }

        process.WaitForExit();
        string line = stdout.Result.Trim().Split('\n').LastOrDefault() ?? "";
        Dictionary<string, double> fields = Fields(line);
        double? rate = fields.TryGetValue("msg_per_sec", out double r) ? r : null;
        string error = stderr.Result.Trim();
        return new ChildResult(process.ExitCode, process.ExitCode == 0 ? rate : null, process.ExitCode == 0 && rate is null ? "no msg_per_sec in: " + line : error)
        {
            Fields = fields,
            Line = line,
        };
    }

    public static string CommandLine(string program, IReadOnlyList<string> arguments, bool pin) =>
        (pin ? "taskset -c 0 " : "") + program + " " + string.Join(" ", arguments);

    /// <summary>The numeric key=value pairs of a result line (both programs print one).</summary>
    private static Dictionary<string, double> Fields(string line)
    {
        var fields = new Dictionary<string, double>(StringComparer.Ordinal);
        foreach (string pair in line.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            int equals = pair.IndexOf('=', StringComparison.Ordinal);
            if (equals > 0 &&
                double.TryParse(pair.AsSpan(equals + 1), NumberStyles.Float, CultureInfo.InvariantCulture, out double value))
            {
                fields[pair[..equals]] = value;
            }
        }

        return fields;
    }
}

public readonly record struct ChildResult(int ExitCode, double? MessagesPerSecond, string Error)
{
    public bool Ok => ExitCode == 0 && MessagesPerSecond is > 0;

    /// <summary>Every numeric field of the child's result line (msg_per_sec, rtt_p50_us, alloc_bytes_per_msg, ...).</summary>
    public IReadOnlyDictionary<string, double> Fields { get; init; } = new Dictionary<string, double>();

    /// <summary>The child's last line of output (its result line when it succeeded).</summary>
    public string Line { get; init; } = "";

    /// <summary>The libzmq the child reported loading (its libzmq=, draft= and libzmq_path= fields), or "?".</summary>
    public string LoadedLibzmq =>
        string.Join(" ", Line.Split(' ').Where(f => f.StartsWith("libzmq", StringComparison.Ordinal) || f.StartsWith("draft=", StringComparison.Ordinal))) is { Length: > 0 } s ? s : "?";

    /// <summary>The field, or null when the child did not print it (or failed).</summary>
    public double? Field(string key) => Ok && Fields.TryGetValue(key, out double value) ? value : null;
}
