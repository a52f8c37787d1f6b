using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>One child process to start: a program and its arguments.</summary>
/// <param name="Environment">Variables set for this child only (on top of the runner's), or null.</param>
public readonly record struct ChildCommand(string Program, IReadOnlyList<string> Arguments, IReadOnlyDictionary<string, string>? Environment = null);

/// <summary>
/// What --native and --netmq share: two sides of a cell run as fresh child processes in interleaved rounds (first, second,
/// first, second, ...), so that both see the same machine state; medians over the rounds. On a shared VM, ratios built from
/// numbers taken minutes apart are not trustworthy.
/// </summary>
public sealed class Interleaved
{
    public static readonly TimeSpan ChildTimeout = TimeSpan.FromMinutes(2);

    private readonly bool _pin;
    private readonly IReadOnlyDictionary<string, string>? _environment;

    public Interleaved(bool pin, IReadOnlyDictionary<string, string>? environment = null)
    {
        _pin = pin;
        _environment = environment;
    }

    public int Failures { get; private set; }

    /// <summary>Where the per-round lines go: the console by default, a run's log file when the console shows progress instead.</summary>
    public TextWriter Log { get; set; } = Console.Out;

    /// <summary>Counts a failure that happened outside <see cref="Run"/> (a pilot run).</summary>
    public void Fail() => Failures++;

    /// <summary>Prints the table's rows and, if runs failed, says so; returns the mode's exit code (3 if any run failed).</summary>
    public int PrintRows(List<string> rows)
    {
        rows.ForEach(Console.WriteLine);
        if (Failures > 0)
        {
            Console.WriteLine();
            Console.WriteLine(Failures + " run(s) failed; see the messages above. Medians are over the successful runs only.");
        }

        return Failures == 0 ? 0 : 3;
    }

    /// <summary>Runs <paramref name="rounds"/> interleaved rounds of the two sides, printing one progress line per round.</summary>
    public (List<ChildResult> First, List<ChildResult> Second) Run(
        string label, int rounds, ChildCommand first, ChildCommand second, string firstName, string secondName, string field = "msg_per_sec", double scale = 1e-6, string unit = " M")
    {
        var a = new List<ChildResult>();
        var b = new List<ChildResult>();
        for (int round = 1; round <= rounds; round++)
        {
            ChildResult x = Start(first);
            ChildResult y = Start(second);
            Keep(x, first, a);
            Keep(y, second, b);
            Log.WriteLine($"  {label} round {round}/{rounds}: {firstName} {Show(x, field, scale, unit)}  {secondName} {Show(y, field, scale, unit)}");
        }

        return (a, b);
    }

    /// <summary>
    /// Runs <paramref name="rounds"/> rounds of any number of sides, one after the other in each round, printing one progress
    /// line per round; returns every run, failed ones included, as [round][side], so that per-round ratios stay paired.
    /// </summary>
    public ChildResult[][] RunRounds(string label, int rounds, IReadOnlyList<(string Name, ChildCommand Command)> sides)
    {
        var results = new ChildResult[rounds][];
        for (int round = 0; round < rounds; round++)
        {
            results[round] = sides.Select(side => Start(side.Command)).ToArray();
            for (int i = 0; i < sides.Count; i++)
            {
                Keep(results[round][i], sides[i].Command, new List<ChildResult>());
            }

            Log.WriteLine($"  {label} round {round + 1}/{rounds}: " + string.Join("  ", sides.Select((side, i) => side.Name + " " + Show(results[round][i], "msg_per_sec", 1e-6, " M"))));
        }

        return results;
    }

    public ChildResult Start(ChildCommand command) => ChildProcess.Run(command.Program, command.Arguments, _pin, ChildTimeout, Merge(_environment, command.Environment));

    private static IReadOnlyDictionary<string, string>? Merge(IReadOnlyDictionary<string, string>? a, IReadOnlyDictionary<string, string>? b)
    {
        if (a is null || b is null)
        {
            return a ?? b;
        }

        var merged = new Dictionary<string, string>(a);
        foreach (KeyValuePair<string, string> variable in b)
        {
            merged[variable.Key] = variable.Value;
        }

        return merged;
    }

    /// <summary>The median (and spread) of one field over the successful runs.</summary>
    public static Stats Of(IEnumerable<ChildResult> results, string field) =>
        Stats.Of(results.Select(r => r.Field(field)).Where(v => v is not null).Select(v => v!.Value).ToList());

    /// <summary>a / b with two decimals, or "-" when either is missing.</summary>
    public static string Ratio(double a, double b) => a > 0 && b > 0 ? (a / b).ToString("F2", CultureInfo.InvariantCulture) : "-";

    /// <summary>How to start this program again: the apphost itself, or "dotnet NetZeroMQ.Benchmarks.dll".</summary>
    public static ChildCommand Self(IEnumerable<string> arguments)
    {
        string process = Environment.ProcessPath ?? "dotnet";
        return Path.GetFileNameWithoutExtension(process) == "dotnet"
            ? new ChildCommand(process, arguments.Prepend(typeof(Interleaved).Assembly.Location).ToList())
            : new ChildCommand(process, arguments.ToList());
    }

    public static string Invariant(double value) => value.ToString(CultureInfo.InvariantCulture);

    private void Keep(ChildResult result, ChildCommand command, List<ChildResult> results)
    {
        if (result.Ok)
        {
            results.Add(result);
            return;
        }

        Failures++;
        string failure = $"run failed (exit {result.ExitCode}): {ChildProcess.CommandLine(command.Program, command.Arguments, _pin)}\n  " +
            result.Error.Replace("\n", "\n  ", StringComparison.Ordinal);
        Console.Error.WriteLine(failure);
        if (Log != Console.Out)
        {
            Log.WriteLine(failure);
        }
    }

    private static string Show(ChildResult result, string field, double scale, string unit) =>
        result.Field(field) is double value ? (value * scale).ToString("F3", CultureInfo.InvariantCulture) + unit : "FAILED";
}
