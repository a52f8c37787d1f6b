using System;
using System.Globalization;
using System.IO;

namespace NetZeroMQ.Benchmarks.Reporting;

/// <summary>
/// One progress line per finished step ("[ 3/27] PUSH/PULL inproc 64 B: 1.02 | 0:34 elapsed, about 4:40 left"). The time left
/// is the planned cost of the steps still to run, scaled by how long the finished steps took against their plan, so it
/// follows the machine's real speed after the first step. Plain lines, one per step: readable in a terminal and in a CI log
/// alike, and written by the parent process only, between measurements (the measuring happens in child processes).
/// </summary>
public sealed class Progress
{
    private readonly TextWriter _output;
    private readonly Func<TimeSpan> _elapsed;
    private readonly int _steps;
    private readonly double _plannedSeconds;
    private double _doneSeconds;
    private int _done;

    /// <param name="output">Where the lines go.</param>
    /// <param name="steps">How many steps there are.</param>
    /// <param name="plannedSeconds">The planned cost of all steps, in the unit <see cref="Step"/> is given.</param>
    /// <param name="elapsed">The time since the start (a stopwatch, or recorded durations when a run is replayed).</param>
    public Progress(TextWriter output, int steps, double plannedSeconds, Func<TimeSpan> elapsed)
    {
        _output = output;
        _steps = steps;
        _plannedSeconds = plannedSeconds;
        _elapsed = elapsed;
    }

    /// <summary>The estimate of the time left: the plan until a step finished, then the plan scaled by the observed pace.</summary>
    public TimeSpan Left
    {
        get
        {
            double remaining = Math.Max(0, _plannedSeconds - _doneSeconds);
            double pace = _doneSeconds > 0 ? _elapsed().TotalSeconds / _doneSeconds : 1;
            return TimeSpan.FromSeconds(remaining * pace);
        }
    }

    /// <summary>Counts a finished step of the given planned cost and writes its line; returns the line.</summary>
    public string Step(string text, double plannedSeconds)
    {
        _done++;
        _doneSeconds += plannedSeconds;
        string width = _steps.ToString(CultureInfo.InvariantCulture);
        string line = $"[{_done.ToString(CultureInfo.InvariantCulture).PadLeft(width.Length)}/{width}] {text} | {Clock(_elapsed())} elapsed, " +
            (_done == _steps ? "done" : $"about {Clock(Left)} left");
        _output.WriteLine(line);
        return line;
    }

    /// <summary>"4:05" or "1:02:03".</summary>
    public static string Clock(TimeSpan time) =>
        time.TotalHours >= 1
            ? ((int)time.TotalHours).ToString(CultureInfo.InvariantCulture) + time.ToString(@"\:mm\:ss", CultureInfo.InvariantCulture)
            : ((int)time.TotalMinutes).ToString(CultureInfo.InvariantCulture) + time.ToString(@"\:ss", CultureInfo.InvariantCulture);

    /// <summary>"about 5 min", "about 1 h 10 min", "about 40 s": a duration announced before a run.</summary>
    public static string About(TimeSpan time) =>
        time.TotalMinutes < 1 ? $"about {Math.Max(1, (int)Math.Round(time.TotalSeconds))} s"
        : time.TotalHours < 1 ? $"about {(int)Math.Round(time.TotalMinutes)} min"
        : $"about {(int)time.TotalHours} h {time.Minutes} min";
}
