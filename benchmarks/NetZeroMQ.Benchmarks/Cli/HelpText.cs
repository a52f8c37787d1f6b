using System;
using System.Collections;
using System.Collections.Generic;
using System.CommandLine;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;

namespace NetZeroMQ.Benchmarks.Cli;

/// <summary>
/// The tool's help, written from the parser's own command tree, so it lists every option of every mode and nothing else.
/// (System.CommandLine's help describes one command at a time; this tool's modes are commands, and one text should show all.)
/// </summary>
public static class HelpText
{
    private const int Width = 118;
    private const int Indent = 2;

    public static void Write(TextWriter output)
    {
        WriteUsage(output);
        RootCommand root = BenchmarkCommandLine.Root;
        WriteSection(output, "BenchmarkDotNet suite (no mode):", root.Options.Where(o => o != BenchmarkCommandLine.Help));
        foreach (Command mode in BenchmarkCommandLine.Modes.Where(m => m.Options.Count > 0))
        {
            WriteSection(output, mode.Name + " (mode first, then its options):", mode.Options);
        }

        WriteSection(output, "Everywhere:", new[] { BenchmarkCommandLine.Help });
        output.WriteLine();
        output.WriteLine("Exit codes: 0 ok; 1 a benchmark, --test or --alloc-test failed; 2 usage error, nothing selected or a missing");
        output.WriteLine("prerequisite (gcc, libzmq headers, taskset); 3 a --native, --netmq, --matrix or cell (--cell, --netmq-cell,");
        output.WriteLine("--rtt-cell, --wake-cell) measurement failed.");
    }

    /// <summary>The start of the help: how to call the tool and its modes. Printed under a usage error.</summary>
    public static void WriteUsage(TextWriter output)
    {
        output.WriteLine(BenchmarkCommandLine.Root.Description);
        output.WriteLine();
        output.WriteLine("From the repository root, on a quiet 2-CPU machine:");
        output.WriteLine("  ./build.sh bench          the suite with --quick (about 6 min), then --matrix --with-netmq (126 cells, about");
        output.WriteLine("                            25 min): about 30 minutes; a line per class or cell with the time left, then a summary");
        output.WriteLine("  ./build.sh bench quick    the matrix's short form against native C and NetMQ (18 cells): about 5 minutes");
        output.WriteLine("  ./build.sh bench <args>   this tool with these arguments");
        output.WriteLine("Results, chart and logs go to artifacts/bench/<date>-<commit>-<what>.{md,json,png,log}. A ratio is unreliable");
        output.WriteLine("(marked, left out of means) when the load per CPU exceeds 1.0 or its rounds' coefficient of variation exceeds 10%.");
        output.WriteLine();
        output.WriteLine("Usage (in benchmarks/NetZeroMQ.Benchmarks):");
        output.WriteLine("  dotnet run -c Release -- [suite options]          the BenchmarkDotNet suite; without --filter, every case");
        output.WriteLine("  dotnet run -c Release -- <mode> [mode options]    one diagnostic mode");
        output.WriteLine();
        output.WriteLine("Modes:");
        WriteRows(output, BenchmarkCommandLine.Modes.Select(m => (m.Name, m.Description ?? "")).ToList());
    }

    private static void WriteSection(TextWriter output, string title, IEnumerable<Option> options)
    {
        output.WriteLine();
        output.WriteLine(title);
        WriteRows(output, options.Select(o => (Label(o), Description(o))).ToList());
    }

    private static void WriteRows(TextWriter output, IReadOnlyList<(string Label, string Text)> rows)
    {
        int column = Indent + Math.Min(rows.Max(r => r.Label.Length), 32) + 2;
        foreach ((string label, string text) in rows)
        {
            var line = new StringBuilder(new string(' ', Indent) + label);
            if (line.Length + 2 > column)
            {
                output.WriteLine(line);
                line.Clear();
            }

            foreach (string word in text.Split(' ', StringSplitOptions.RemoveEmptyEntries))
            {
                if (line.Length < column)
                {
                    line.Append(' ', column - line.Length);
                }
                else if (line.Length + 1 + word.Length > Width)
                {
                    output.WriteLine(line);
                    line.Clear().Append(' ', column);
                }
                else
                {
                    line.Append(' ');
                }

                line.Append(word);
            }

            output.WriteLine(line);
        }
    }

    private static string Label(Option option)
    {
        string names = string.Join(", ", BenchmarkCommandLine.Names(option).OrderBy(n => n.Length));
        if (option.Arity.MaximumNumberOfValues == 0)
        {
            return names;
        }

        return $"{names} <{option.HelpName ?? "value"}>{(option.Arity.MaximumNumberOfValues > 1 ? "..." : "")}";
    }

    private static string Description(Option option)
    {
        string text = option.Description ?? "";
        object? fallback = option.HasDefaultValue ? option.GetDefaultValue() : null;
        string? shown = fallback switch
        {
            null or bool => null,
            string s => s,
            IEnumerable values => string.Join(",", values.Cast<object>().Select(Format)),
            _ => Format(fallback),
        };
        return shown is null ? text : $"{text} [default: {shown}]";
    }

    private static string Format(object value) => value switch
    {
        Enum e => e.ToString().ToLowerInvariant(),
        IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "",
    };
}
