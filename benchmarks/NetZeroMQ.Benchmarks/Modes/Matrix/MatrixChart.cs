using System.Collections.Generic;
using System.Linq;
using ScottPlot;

namespace NetZeroMQ.Benchmarks.Modes.Matrix;

/// <summary>
/// The achievement ratios as a bar chart (ScottPlot): one group of bars per pattern, within it one colour per transport and the
/// sizes in increasing order (each bar labelled with its size at the foot), with one standard deviation of the per-round
/// ratios (cv x ratio) as an error bar, lines at 0.90 (the bar) and 1.00 (native), and NetMQ / native as a black diamond where
/// NetMQ ran. Unreliable ratios (<see cref="Reporting.Reliability"/>) are drawn faded. The y-axis is held to the band that
/// matters (<see cref="Axis"/>); a value beyond it is drawn at the edge with its number, so one outlier cannot squeeze the
/// band around 1.00 into a thin strip.
/// A cell that was not measured gets no bar, only a grey cross at the foot: the chart shows nothing the run did not measure.
/// </summary>
public static class MatrixChart
{
    /// <summary>The y-axis never shows less than this band: the bar (0.90) and native parity (1.00) with room either side.</summary>
    public const double BandLow = 0.8;

    public const double BandHigh = 1.2;

    /// <summary>How far the axis may widen to show every value; beyond, values are outliers marked at the edge.</summary>
    public const double AxisFloor = 0.5;

    public const double AxisCeiling = 1.5;

    private static readonly Color[] s_transportColors = { Colors.SteelBlue, Colors.DarkOrange, Colors.SeaGreen, Colors.Purple };

    /// <summary>
    /// The y-axis limits for these values: at least <see cref="BandLow"/> to <see cref="BandHigh"/>, widened in steps of 0.1 to
    /// show every value, but never beyond <see cref="AxisFloor"/> and <see cref="AxisCeiling"/>.
    /// </summary>
    public static (double Low, double High) Axis(IEnumerable<double> values)
    {
        List<double> list = values.ToList();
        double low = System.Math.Min(BandLow, list.Count == 0 ? BandLow : System.Math.Floor((list.Min() - 0.02) * 10) / 10);
        double high = System.Math.Max(BandHigh, list.Count == 0 ? BandHigh : System.Math.Ceiling((list.Max() + 0.02) * 10) / 10);
        return (System.Math.Max(AxisFloor, low), System.Math.Min(AxisCeiling, high));
    }

    /// <summary>Draws the chart; returns one line that says the axis and the outliers marked at its edge.</summary>
    public static string Save(MatrixResults results, string path)
    {
        List<MatrixCell> cells = results.Cells;
        List<string> patterns = cells.Select(c => c.Pattern).Distinct().ToList();
        List<string> transports = cells.Select(c => c.Transport).Distinct().ToList();
        List<int> sizes = cells.Select(c => c.Size).Distinct().OrderBy(s => s).ToList();
        int perGroup = transports.Count * sizes.Count;
        var measured = cells.Where(c => c.Achievement() is not null).ToList();
        (double low, double high) = Axis(measured.Select(c => c.Achievement()!.Value));
        var outliers = new List<string>();

        var plot = new Plot();
        var bars = new List<Bar>();

        // Markers and labels go on top of the bars, so they are added after them.
        var overlays = new List<System.Action>();
        var tickPositions = new List<double>();
        var tickLabels = new List<string>();
        double position = 0;
        bool anyNetMq = false;
        bool anyUnreliable = false;
        foreach (string pattern in patterns)
        {
            double start = position;
            foreach ((string transport, int t) in transports.Select((t, i) => (t, i)))
            {
                foreach (int size in sizes)
                {
                    MatrixCell? cell = cells.FirstOrDefault(c => c.Pattern == pattern && c.Transport == transport && c.Size == size);
                    if (cell?.Achievement() is { } ratio)
                    {
                        bool reliable = cell.Unreliable(results) is null;
                        anyUnreliable |= !reliable;
                        Color fill = s_transportColors[t % s_transportColors.Length];
                        bars.Add(new Bar
                        {
                            Position = position,
                            ValueBase = low,
                            Value = System.Math.Clamp(ratio, low, high),
                            Error = ratio > high || ratio < low ? 0 : (cell.Variation() ?? 0) * ratio,
                            ErrorPositive = true,
                            ErrorNegative = true,
                            ErrorSize = 0.6,
                            FillColor = reliable ? fill : fill.WithAlpha(0.3),
                            LineWidth = 1, // the outline and the error bar
                            LineColor = reliable ? Colors.Black : Colors.Gray,
                        });
                        if (ratio > high || ratio < low)
                        {
                            outliers.Add($"{MatrixReport.Name(cell)} {ratio:F2}");
                            double at = position;
                            overlays.Add(() => Edge(plot, at, ratio, ratio > high ? high : low, ratio > high));
                        }

                        if (MatrixCell.Median(cell.NetMq) is { } netmq && MatrixCell.Median(cell.Native) is > 0 and var nativeRate)
                        {
                            anyNetMq = true;
                            double value = netmq / nativeRate;
                            double at = position;
                            overlays.Add(() => plot.Add.Marker(at, System.Math.Clamp(value, low + FootRoom, high), MarkerShape.FilledDiamond, 9, Colors.Black));
                            if (value > high || value < low)
                            {
                                overlays.Add(() => Edge(plot, at, value, value > high ? high : low, value > high));
                            }
                        }
                    }
                    else if (cell is not null)
                    {
                        plot.Add.Marker(position, low + 0.01, MarkerShape.Cross, 6, Colors.Gray);
                    }

                    if (cell is not null)
                    {
                        double at = position;
                        string name = ShortSize(size);
                        overlays.Add(() =>
                        {
                            var label = plot.Add.Text(name, at, low);
                            label.LabelFontSize = 9;
                            label.LabelRotation = -90;
                            label.LabelAlignment = Alignment.MiddleLeft;
                            label.LabelFontColor = Colors.Black;
                            label.LabelBackgroundColor = Colors.White.WithAlpha(0.8);
                        });
                    }

                    position++;
                }

                position += 0.5;
            }

            tickPositions.Add((start + position - 1.5) / 2);
            tickLabels.Add(MatrixReport.PatternName(pattern));
            position += 2;
        }

        plot.Add.Bars(bars);
        overlays.ForEach(overlay => overlay());
        plot.Add.HorizontalLine(MatrixReport.Bar, 1.5f, Colors.Red, LinePattern.Dashed);
        plot.Add.HorizontalLine(1.0, 1, Colors.Black, LinePattern.Dotted);
        plot.Axes.Bottom.TickGenerator = new ScottPlot.TickGenerators.NumericManual(tickPositions.ToArray(), tickLabels.ToArray());
        plot.Axes.Bottom.MajorTickStyle.Length = 0;
        plot.Axes.SetLimitsY(low, high + 0.04);
        plot.Axes.SetLimitsX(-1.5, position - 0.5);
        plot.YLabel("NetZeroMQ / native libzmq (msg/s)");
        // Two lines: on one, the run's details were cut off at the image's edge.
        plot.Title($"Achievement ratio per cell, {results.Api} API, median of {results.Rounds} interleaved rounds, {(results.Pinned ? "pinned (--pin)" : "unpinned")}\n" +
            $"({results.Started}, {results.Cpus} CPUs, load average {results.LoadAtStart.Split(' ')[0]} at the start)");
        plot.XLabel($"bar: size in bytes (K = KiB); error bar ±1 sd of the rounds; dashed 0.90, dotted 1.00; red: beyond the axis, value written; grey x: not measured");
        plot.Axes.Bottom.Label.FontSize = 12;
        plot.Axes.Title.Label.FontSize = 15;
        foreach ((string transport, int t) in transports.Select((t, i) => (t, i)))
        {
            plot.Legend.ManualItems.Add(new LegendItem { LabelText = transport, FillColor = s_transportColors[t % s_transportColors.Length] });
        }

        if (anyUnreliable)
        {
            plot.Legend.ManualItems.Add(new LegendItem { LabelText = "faded: unreliable", FillColor = Colors.Gray.WithAlpha(0.3) });
        }

        if (anyNetMq)
        {
            plot.Legend.ManualItems.Add(new LegendItem { LabelText = "NetMQ / native", MarkerStyle = new MarkerStyle(MarkerShape.FilledDiamond, 9, Colors.Black) });
        }

        plot.Legend.Alignment = Alignment.UpperRight;
        plot.ShowLegend();
        plot.SavePng(path, System.Math.Max(1100, 60 + (perGroup + 3) * patterns.Count * 9), 560);
        return $"chart axis {low:F1} to {high:F1}; " +
            (outliers.Count == 0 ? "no ratio beyond it" : $"{outliers.Count} beyond it, marked at the edge with their value: {string.Join("; ", outliers)}");
    }

    /// <summary>Room at the foot of the axis for the size labels: a value below the axis is marked above them.</summary>
    private const double FootRoom = 0.08;

    /// <summary>
    /// A value beyond the axis: a triangle at the edge pointing out, and the value written upright along the bar, into the
    /// plot (neighbouring outliers, one bar apart, would overwrite each other's numbers written across).
    /// </summary>
    private static void Edge(Plot plot, double position, double value, double edge, bool above)
    {
        edge = above ? edge : edge + FootRoom;
        plot.Add.Marker(position, edge, above ? MarkerShape.FilledTriangleUp : MarkerShape.FilledTriangleDown, 7, Colors.Red);
        var text = plot.Add.Text(value.ToString("F2", System.Globalization.CultureInfo.InvariantCulture), position, edge);
        text.LabelFontSize = 9;
        text.LabelFontColor = Colors.Red;
        text.LabelBackgroundColor = Colors.White;
        text.LabelRotation = -90;
        text.LabelAlignment = above ? Alignment.MiddleRight : Alignment.MiddleLeft;
        text.OffsetY = above ? 6 : -6;
    }

    private static string ShortSize(int size) =>
        size >= 1024 && size % 1024 == 0 ? (size / 1024).ToString(System.Globalization.CultureInfo.InvariantCulture) + "K" : size.ToString(System.Globalization.CultureInfo.InvariantCulture);
}
