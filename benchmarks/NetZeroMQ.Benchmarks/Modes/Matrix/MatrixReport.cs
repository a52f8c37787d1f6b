using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;

namespace NetZeroMQ.Benchmarks.Modes.Matrix;

/// <summary>
/// The matrix as text: the achievement table (pattern x transport rows, size columns: median .NET / native and the coefficient
/// of variation over rounds), the mean over the cells that ran, the cells below the bar, the cells that did not run with the
/// reason, then the combined table (one row per cell: msg/s, ratio to native, ratio to NetMQ where NetMQ has the cell, B/msg).
/// </summary>
public static class MatrixReport
{
    /// <summary>The bar every cell is held to (issue 18: every pattern at 90% of libzmq or more).</summary>
    public const double Bar = 0.90;

    private static readonly CultureInfo s_invariant = CultureInfo.InvariantCulture;

    /// <summary>The whole report, for the results file and --from: how it was run, the tables, the summary.</summary>
    public static void Write(TextWriter output, MatrixResults results)
    {
        List<MatrixCell> cells = results.Cells;
        string placement = results.Pinned ? "all threads on CPU 0 via taskset -c 0 (--pin)" : "unpinned (no --pin)";
        output.WriteLine($"## Achievement ratios: NetZeroMQ / native libzmq ({results.Api} API)");
        output.WriteLine();
        output.WriteLine(
            $"Each cell: the median over {results.Rounds} interleaved rounds (native, .NET{(cells.Any(c => c.NetMq.Count > 0) ? ", NetMQ" : "")} in turn, each a fresh process) " +
            $"of .NET msg/s / native msg/s (same count, both after at least {Inv(results.WarmupSeconds)} s of untimed batches on the same sockets; {placement}), and in brackets the " +
            "coefficient of variation of the per-round ratios. Above 1.00: NetZeroMQ is faster. " +
            $"A \"?\" marks an unreliable ratio: {Reporting.Reliability.Rule}.");
        output.WriteLine($"Run {results.Started} to {results.Finished}, {results.Cpus} CPUs, load average \"{results.LoadAtStart}\" at the start and \"{results.LoadAtEnd}\" at the end, {Reporting.OtherWork.Describe(results.OtherCpus)} on average.");
        output.WriteLine($"Command: {results.Command}");
        output.WriteLine();

        List<int> sizes = cells.Select(c => c.Size).Distinct().OrderBy(s => s).ToList();
        output.WriteLine("| pattern | transport | " + string.Join(" | ", sizes.Select(SizeName)) + " |");
        output.WriteLine("|---|---|" + string.Concat(sizes.Select(_ => "---:|")));
        foreach (IGrouping<(string Pattern, string Transport), MatrixCell> row in cells.GroupBy(c => (c.Pattern, c.Transport)))
        {
            IEnumerable<string> columns = sizes.Select(size => row.FirstOrDefault(c => c.Size == size) is { } cell ? Achievement(cell, results) : "");
            output.WriteLine($"| {PatternName(row.Key.Pattern)} | {row.Key.Transport} | {string.Join(" | ", columns)} |");
        }

        output.WriteLine();
        WriteSummary(output, results);
        var unreliable = cells.Where(c => c.Unreliable(results) is not null).ToList();
        if (unreliable.Count > 0)
        {
            output.WriteLine($"Unreliable ({unreliable.Count}): " + string.Join("; ", unreliable.Select(c => $"{Name(c)} {Fixed(c.Achievement(), "F2")}: {c.Unreliable(results)}")) + ".");
        }

        var missing = cells.Where(c => c.Missing() is not null).ToList();
        if (missing.Count > 0)
        {
            output.WriteLine($"Not measured ({missing.Count}): " + string.Join("; ", missing.Select(c => $"{Name(c)}: {c.Missing()}")) + ".");
        }

        output.WriteLine();
        WriteCombined(output, results);
    }

    /// <summary>
    /// The short result: the headline ratios over the reliable cells, the reliable cells below the bar, how many were left out
    /// and why, .NET / NetMQ where NetMQ ran, and the verdict. The console shows this; the results file has it too.
    /// </summary>
    public static void WriteSummary(TextWriter output, MatrixResults results)
    {
        List<MatrixCell> cells = results.Cells;
        var ran = cells.Where(c => c.Achievement() is not null).ToList();
        var reliable = ran.Where(c => c.Unreliable(results) is null).ToList();
        var unreliable = ran.Where(c => c.Unreliable(results) is not null).ToList();
        string placement = results.Pinned ? "pinned to CPU 0 (--pin)" : "unpinned";
        output.WriteLine($"Summary: .NET / native in {ran.Count} measured cells (of {cells.Count}), {results.Api} API, {placement}, interleaved rounds ({results.Rounds} per cell).");
        if (reliable.Count > 0)
        {
            output.WriteLine(
                $"Mean over the {reliable.Count} reliable cells: {reliable.Average(c => c.Achievement()!.Value):F3}; " +
                $"lowest {reliable.Min(c => c.Achievement()!.Value):F2}, highest {reliable.Max(c => c.Achievement()!.Value):F2}" +
                (unreliable.Count > 0 ? $" ({unreliable.Count} unreliable cells left out)." : "."));
        }
        else
        {
            output.WriteLine(ran.Count == 0 ? "No cell was measured: no mean." : $"No reliable cell: no mean ({unreliable.Count} unreliable cells left out).");
        }

        var below = reliable.Where(c => c.Achievement() < Bar).OrderBy(c => c.Achievement()).ToList();
        output.WriteLine(below.Count == 0
            ? $"Cells below {Bar:F2}: none of the {reliable.Count} reliable."
            : $"Cells below {Bar:F2} ({below.Count} of {reliable.Count} reliable): " + string.Join("; ", below.Select(c => $"{Name(c)} {c.Achievement():F2}")) + ".");
        if (unreliable.Count > 0)
        {
            int byLoad = unreliable.Count(c => c.Unreliable(results)!.Contains("other work", StringComparison.Ordinal));
            int bySpread = unreliable.Count(c => c.Unreliable(results)!.Contains("cv", StringComparison.Ordinal) || c.Unreliable(results)!.Contains("rounds", StringComparison.Ordinal));
            output.WriteLine(
                $"Unreliable, not counted: {unreliable.Count} ({byLoad} by other work, {bySpread} by spread); their mean, for reference only: " +
                $"{unreliable.Average(c => c.Achievement()!.Value):F2}, {unreliable.Count(c => c.Achievement() < Bar)} of them below {Bar:F2}.");
        }

        var netmq = ran.Where(c => c.NetMqRatios().Count > 0).ToList();
        if (netmq.Count > 0)
        {
            List<double> ratios = netmq.Select(c => MatrixCell.Median(c.NetMqRatios())!.Value).ToList();
            output.WriteLine($".NET / NetMQ in the {netmq.Count} cells NetMQ ran: median {Stats.Of(ratios).Median:F2}, lowest {ratios.Min():F2}, highest {ratios.Max():F2}.");
        }

        output.WriteLine("Verdict: " + Verdict(results, ran.Count, reliable.Count));
    }

    /// <summary>Whether the numbers can be trusted, and why.</summary>
    public static string Verdict(MatrixResults results, int measured, int reliable)
    {
        string load = Reporting.OtherWork.Describe(results.OtherCpus) + " on average over the run";
        if (measured == 0)
        {
            return "nothing measured.";
        }

        if (reliable == measured)
        {
            return $"the numbers can be trusted: every cell within the rule ({Reporting.Reliability.Rule}); {load}.";
        }

        if (reliable == 0)
        {
            return $"these numbers cannot be trusted: every cell is unreliable ({load}); {Reporting.Reliability.Rule}. " +
                $"Run again on a quiet machine (other work under {Reporting.Reliability.MaxOtherCpus.ToString("F2", System.Globalization.CultureInfo.InvariantCulture)} CPUs), with --pin for a reproducible ratio.";
        }

        return $"{measured - reliable} of {measured} cells are unreliable (marked \"?\" in the results file; {load}); the mean and the " +
            "cells below the bar count the reliable cells only.";
    }

    /// <summary>One row per cell: everything measured about it, side by side; NetMQ's columns only where it ran.</summary>
    public static void WriteCombined(TextWriter output, MatrixResults results)
    {
        bool anyNetMq = results.Cells.Any(c => c.NetMq.Count > 0);
        output.WriteLine("## Combined table");
        output.WriteLine();
        output.WriteLine(
            "msg/s: medians over the rounds; ratios: medians of the per-round ratios (.NET / native" + (anyNetMq ? ", .NET / NetMQ; NetMQ with the API " +
            "that matches: SendFrame/ReceiveFrameBytes for buf, its pooled Msg for msg" : "") + "); B/msg: managed bytes the whole .NET" + (anyNetMq ? " (NetMQ)" : "") + " " +
            "process allocated per message during its timed batch, median; reliable: \"yes\" or why not.");
        IEnumerable<string> reasons = results.Cells.Where(c => c.Missing() is null && c.NetMq.Count == 0 && c.NetMqNotRun is not null)
            .GroupBy(c => c.NetMqNotRun!).Select(g => $"{g.Key} ({g.Count()} cells)");
        if (anyNetMq)
        {
            output.WriteLine("NetMQ's columns are empty where it did not run: " + string.Join("; ", reasons) + ".");
        }
        else
        {
            output.WriteLine("NetMQ did not run: " + string.Join("; ", reasons) + ".");
        }

        output.WriteLine();
        string netmqHead = anyNetMq ? " NetMQ msg/s | .NET / NetMQ |" : "";
        string netmqRule = anyNetMq ? "---:|---:|" : "";
        output.WriteLine($"| pattern | transport | size | count | native msg/s | .NET msg/s | .NET / native | cv | reliable |{netmqHead} .NET B/msg |{(anyNetMq ? " NetMQ B/msg |" : "")}");
        output.WriteLine($"|---|---|---:|---:|---:|---:|---:|---:|---|{netmqRule}---:|{(anyNetMq ? "---:|" : "")}");
        foreach (MatrixCell cell in results.Cells)
        {
            string head = $"| {PatternName(cell.Pattern)} | {cell.Transport} | {SizeName(cell.Size)} |";
            if (cell.Missing() is { } reason)
            {
                output.WriteLine($"{head} {(cell.Count > 0 ? cell.Count.ToString("N0", s_invariant) : "-")} | not run: {reason} |");
                continue;
            }

            bool ran = cell.NetMq.Count > 0;
            string netmq = !anyNetMq ? "" : ran ? $" {Rate(MatrixCell.Median(cell.NetMq))} | {Fixed(MatrixCell.Median(cell.NetMqRatios()), "F2")} |" : "  |  |";
            string netmqBytes = !anyNetMq ? "" : ran ? $" {Fixed(MatrixCell.Median(cell.NetMqBytesPerMessage), "F1")} |" : "  |";
            output.WriteLine(
                $"{head} {cell.Count.ToString("N0", s_invariant)} | {Rate(MatrixCell.Median(cell.Native))} | {Rate(MatrixCell.Median(cell.Dotnet))} | " +
                $"{Fixed(cell.Achievement(), "F2")} | {Percent(cell.Variation())} | {cell.Unreliable(results) ?? "yes"} |{netmq} {Fixed(MatrixCell.Median(cell.DotnetBytesPerMessage), "F1")} |{netmqBytes}");
        }
    }

    /// <summary>How the README and the chart name a pattern: the socket types, sender first.</summary>
    public static string PatternName(string pattern) => pattern switch
    {
        "pushpull" => "PUSH/PULL",
        "pair" => "PAIR",
        "pubsub" => "PUB/SUB",
        "dealerdealer" => "DEALER/DEALER",
        "dealerrouter" => "DEALER/ROUTER",
        "routerrouter" => "ROUTER/ROUTER",
        "routerrouterpoller" => "ROUTER/ROUTER poller",
        _ => pattern,
    };

    public static string SizeName(int size) =>
        size >= 1024 && size % 1024 == 0 ? (size / 1024).ToString(s_invariant) + " KiB" : size.ToString(s_invariant) + " B";

    public static string Name(MatrixCell cell) => $"{PatternName(cell.Pattern)} {cell.Transport} {SizeName(cell.Size)}";

    /// <summary>"1.02 (3%)", "0.85? (14%)" when unreliable, "not run".</summary>
    public static string Achievement(MatrixCell cell, MatrixResults results) =>
        cell.Achievement() is { } ratio
            ? $"{ratio.ToString("F2", s_invariant)}{(cell.Unreliable(results) is null ? "" : "?")} ({Percent(cell.Variation())})"
            : "not run";

    private static string Rate(double? value) => value is { } v ? v.ToString("N0", s_invariant) : "-";

    public static string Fixed(double? value, string format) => value is { } v ? v.ToString(format, s_invariant) : "-";

    public static string Percent(double? value) => value is { } v ? (v * 100).ToString("F0", s_invariant) + "%" : "-";

    private static string Inv(double value) => value.ToString(s_invariant);
}
