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

    public static void Write(TextWriter output, MatrixResults results)
    {
        List<MatrixCell> cells = results.Cells;
        string placement = results.Pinned ? "all threads on CPU 0 via taskset -c 0" : "unpinned";
        output.WriteLine($"## Achievement ratios: NetZeroMQ / native libzmq ({results.Api} API)");
        output.WriteLine();
        output.WriteLine(
            $"Each cell: the median over {results.Rounds} interleaved rounds of .NET msg/s / native msg/s (both fresh processes, same count, " +
            $"both after at least {Inv(results.WarmupSeconds)} s of untimed batches on the same sockets; {placement}), and in brackets the " +
            "coefficient of variation of the per-round ratios. Above 1.00: NetZeroMQ is faster.");
        output.WriteLine($"Run {results.Started} to {results.Finished}, {results.Cpus} CPUs, load average \"{results.LoadAtStart}\" at the start and \"{results.LoadAtEnd}\" at the end.");
        output.WriteLine($"Command: {results.Command}");
        output.WriteLine();

        List<int> sizes = cells.Select(c => c.Size).Distinct().OrderBy(s => s).ToList();
        output.WriteLine("| pattern | transport | " + string.Join(" | ", sizes.Select(SizeName)) + " |");
        output.WriteLine("|---|---|" + string.Concat(sizes.Select(_ => "---:|")));
        foreach (IGrouping<(string Pattern, string Transport), MatrixCell> row in cells.GroupBy(c => (c.Pattern, c.Transport)))
        {
            IEnumerable<string> columns = sizes.Select(size => row.FirstOrDefault(c => c.Size == size) is { } cell ? Achievement(cell) : "");
            output.WriteLine($"| {PatternName(row.Key.Pattern)} | {row.Key.Transport} | {string.Join(" | ", columns)} |");
        }

        output.WriteLine();
        var ran = cells.Where(c => c.Achievement() is not null).ToList();
        if (ran.Count > 0)
        {
            double mean = ran.Average(c => c.Achievement()!.Value);
            output.WriteLine($"Mean over the {ran.Count} cells measured (of {cells.Count}): {mean:F3}; lowest {ran.Min(c => c.Achievement()!.Value):F2}, highest {ran.Max(c => c.Achievement()!.Value):F2}.");
        }
        else
        {
            output.WriteLine($"No cell was measured (of {cells.Count}): no mean.");
        }

        var below = ran.Where(c => c.Achievement() < Bar).OrderBy(c => c.Achievement()).ToList();
        output.WriteLine(below.Count == 0
            ? $"Cells below {Bar:F2}: none of the {ran.Count} measured."
            : $"Cells below {Bar:F2} ({below.Count} of {ran.Count} measured): " + string.Join("; ", below.Select(c => $"{Name(c)} {c.Achievement():F2}")) + ".");
        var missing = cells.Where(c => c.Missing() is not null).ToList();
        if (missing.Count > 0)
        {
            output.WriteLine($"Not measured ({missing.Count}): " + string.Join("; ", missing.Select(c => $"{Name(c)}: {c.Missing()}")) + ".");
        }

        output.WriteLine();
        WriteCombined(output, results);
    }

    /// <summary>One row per cell: everything measured about it, side by side.</summary>
    public static void WriteCombined(TextWriter output, MatrixResults results)
    {
        output.WriteLine("## Combined table");
        output.WriteLine();
        output.WriteLine(
            "msg/s: medians over the rounds; ratios: medians of the per-round ratios (.NET / native, .NET / NetMQ; NetMQ with the API " +
            "that matches: SendFrame/ReceiveFrameBytes for buf, its pooled Msg for msg); B/msg: managed bytes the whole .NET (NetMQ) " +
            "process allocated per message during its timed batch, median. \"not run\" says why.");
        output.WriteLine();
        output.WriteLine("| pattern | transport | size | count | native msg/s | .NET msg/s | .NET / native | cv | NetMQ msg/s | .NET / NetMQ | .NET B/msg | NetMQ B/msg |");
        output.WriteLine("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        foreach (MatrixCell cell in results.Cells)
        {
            string head = $"| {PatternName(cell.Pattern)} | {cell.Transport} | {SizeName(cell.Size)} |";
            if (cell.Missing() is { } reason)
            {
                output.WriteLine($"{head} {(cell.Count > 0 ? cell.Count.ToString("N0", s_invariant) : "-")} | not run: {reason} | | | | | | | | |");
                continue;
            }

            string netmq = cell.NetMqNotRun is { } why
                ? $"not run: {why} | |"
                : $"{Rate(MatrixCell.Median(cell.NetMq))} | {Fixed(MatrixCell.Median(cell.NetMqRatios()), "F2")} |";
            output.WriteLine(
                $"{head} {cell.Count.ToString("N0", s_invariant)} | {Rate(MatrixCell.Median(cell.Native))} | {Rate(MatrixCell.Median(cell.Dotnet))} | " +
                $"{Fixed(cell.Achievement(), "F2")} | {Percent(cell.Variation())} | {netmq} {Fixed(MatrixCell.Median(cell.DotnetBytesPerMessage), "F1")} | " +
                $"{(cell.NetMqNotRun is null ? Fixed(MatrixCell.Median(cell.NetMqBytesPerMessage), "F1") : "")} |");
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

    private static string Achievement(MatrixCell cell) =>
        cell.Achievement() is { } ratio ? $"{ratio.ToString("F2", s_invariant)} ({Percent(cell.Variation())})" : "not run";

    private static string Rate(double? value) => value is { } v ? v.ToString("N0", s_invariant) : "-";

    private static string Fixed(double? value, string format) => value is { } v ? v.ToString(format, s_invariant) : "-";

    private static string Percent(double? value) => value is { } v ? (v * 100).ToString("F0", s_invariant) + "%" : "-";

    private static string Inv(double value) => value.ToString(s_invariant);
}
