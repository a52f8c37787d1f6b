using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using NetZeroMQ.Benchmarks.Modes;
using NetZeroMQ.Benchmarks.Modes.Matrix;

namespace NetZeroMQ.Benchmarks.Reporting;

/// <summary>
/// The run conventions of --native and --netmq (and their --latency): the announced duration, a log file for every round,
/// one progress line per cell with its ratio, cv and reliability, elapsed time and time left, and a closing reliability
/// verdict. The mode's table stays on the console (a few rows) with unreliable ratios named in the verdict.
/// </summary>
public sealed class ComparisonProgress : IDisposable
{
    private readonly Stopwatch _clock = Stopwatch.StartNew();
    private readonly StreamWriter _log;
    private readonly RunFiles _files;
    private readonly Progress _progress;
    private readonly double _secondsPerCell;
    private readonly List<string> _unreliable = new();
    private int _measured;
    private OtherWork.Sample? _cellStart;

    public ComparisonProgress(string mode, Interleaved runner, int cells, int rounds, double seconds, double warmupSeconds, bool pin)
    {
        _files = RunFiles.Create(mode.TrimStart('-').Replace(' ', '-').Replace("--", "", StringComparison.Ordinal) + (pin ? "-pin" : ""));
        _log = new StreamWriter(_files.Log) { AutoFlush = true };
        runner.Log = _log;

        // Per cell: a pilot, then per round two fresh processes, each starting, warming up and running its timed batch.
        _secondsPerCell = 0.5 + rounds * (2 * (warmupSeconds + seconds) + 1.1);
        _progress = new Progress(Console.Out, cells, cells * _secondsPerCell, () => _clock.Elapsed);
        Console.WriteLine(
            $"{mode}: {cells} cells x {rounds} interleaved rounds, {(pin ? "pinned (taskset -c 0)" : "unpinned (no --pin)")}: estimated " +
            $"{Progress.About(TimeSpan.FromSeconds(cells * _secondsPerCell))} on a quiet 2-CPU machine; {Load.Describe(Load.Text(), Environment.ProcessorCount)}, {OtherWork.Describe(OtherWork.Now(TimeSpan.FromSeconds(1)))} in the last second.");
        Console.WriteLine($"Reliability: {Reliability.Rule}. Log (every round): {RunFiles.Show(_files.Log)}");
        _cellStart = OtherWork.Take();
    }

    /// <summary>
    /// A finished cell: the per-round ratios of <paramref name="field"/> (candidate / baseline, paired by round over the
    /// successful runs), their median and cv, and whether the cell is reliable.
    /// </summary>
    public void Cell(string name, IReadOnlyList<ChildResult> baseline, IReadOnlyList<ChildResult> candidate, string field, string ratioName)
    {
        OtherWork.Sample? cellEnd = OtherWork.Take();
        double? otherCpus = OtherWork.CpusBetween(_cellStart, cellEnd);
        _cellStart = cellEnd;
        List<double> ratios = candidate.Zip(baseline, (c, b) => c.Field(field) is > 0 && b.Field(field) is > 0 ? c.Field(field)!.Value / b.Field(field)!.Value : (double?)null)
            .Where(r => r is not null).Select(r => r!.Value).ToList();
        if (ratios.Count == 0)
        {
            _progress.Step($"{name}: not measured (runs failed; see the log)", _secondsPerCell);
            return;
        }

        _measured++;
        double? cv = MatrixCell.CoefficientOfVariation(ratios);
        string line = $"{name}: {ratioName} {MatrixReport.Fixed(MatrixCell.Median(ratios), "F2")} (cv {MatrixReport.Percent(cv)})";
        if (Reliability.Problem(cv, otherCpus) is { } why)
        {
            _unreliable.Add($"{name}: {why}");
            line += ", unreliable: " + why;
        }

        _progress.Step(line, _secondsPerCell);
    }

    /// <summary>A cell that did not run (draft API missing, pilot failed): counted, so that the estimate stays right.</summary>
    public void Skipped(string name, string why)
    {
        _cellStart = OtherWork.Take();
        _progress.Step($"{name}: {why}", 0);
    }

    /// <summary>The verdict and the log's path, after the mode's table.</summary>
    public void Finish()
    {
        Console.WriteLine();
        Console.WriteLine(_unreliable.Count == 0
            ? $"Verdict: the numbers can be trusted: all {_measured} measured cells within the rule ({Reliability.Rule}); {Progress.Clock(_clock.Elapsed)}."
            : $"Verdict: {_unreliable.Count} of {_measured} measured cells are unreliable, do not quote them: {string.Join("; ", _unreliable)}; {Progress.Clock(_clock.Elapsed)}.");
        Console.WriteLine("Log: " + RunFiles.Show(_files.Log));
    }

    public void Dispose() => _log.Dispose();
}
