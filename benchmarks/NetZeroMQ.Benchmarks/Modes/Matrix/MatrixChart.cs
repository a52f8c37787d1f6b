using System.Collections.Generic;
using System.Linq;
using ScottPlot;

namespace NetZeroMQ.Benchmarks.Modes.Matrix;

/// <summary>
/// The achievement ratios as a bar chart (ScottPlot): one group of bars per pattern, within it one colour per transport and the
/// sizes in increasing order, with one standard deviation of the per-round ratios (cv x ratio) as an error bar and lines at
/// 0.90 (the bar) and 1.00 (native).
/// A cell that was not measured gets no bar, only a grey cross at 0: the chart shows nothing the run did not measure.
/// </summary>
public static class MatrixChart
{
    private static readonly Color[] s_transportColors = { Colors.SteelBlue, Colors.DarkOrange, Colors.SeaGreen, Colors.Purple };

    public static void Save(MatrixResults results, string path)
    {
        List<MatrixCell> cells = results.Cells;
        List<string> patterns = cells.Select(c => c.Pattern).Distinct().ToList();
        List<string> transports = cells.Select(c => c.Transport).Distinct().ToList();
        List<int> sizes = cells.Select(c => c.Size).Distinct().OrderBy(s => s).ToList();
        int perGroup = transports.Count * sizes.Count;

        var plot = new Plot();
        var bars = new List<Bar>();
        var tickPositions = new List<double>();
        var tickLabels = new List<string>();
        double position = 0;
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
                        bars.Add(new Bar
                        {
                            Position = position,
                            Value = ratio,
                            Error = (cell.Variation() ?? 0) * ratio,
                            ErrorPositive = true,
                            ErrorNegative = true,
                            ErrorSize = 0.6,
                            FillColor = s_transportColors[t % s_transportColors.Length],
                            LineWidth = 1, // the outline and the error bar
                            LineColor = Colors.Black,
                        });
                    }
                    else if (cell is not null)
                    {
                        plot.Add.Marker(position, 0.02, MarkerShape.Cross, 6, Colors.Gray);
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
        plot.Add.HorizontalLine(MatrixReport.Bar, 1.5f, Colors.Red, LinePattern.Dashed);
        plot.Add.HorizontalLine(1.0, 1, Colors.Black, LinePattern.Dotted);
        plot.Axes.Bottom.TickGenerator = new ScottPlot.TickGenerators.NumericManual(tickPositions.ToArray(), tickLabels.ToArray());
        plot.Axes.Bottom.MajorTickStyle.Length = 0;
        plot.Axes.SetLimitsY(0, System.Math.Max(1.3, bars.Count == 0 ? 0 : bars.Max(b => b.Value + b.Error) + 0.05));
        plot.Axes.SetLimitsX(-1.5, position - 0.5);
        plot.YLabel("NetZeroMQ / native libzmq (msg/s)");
        // Two lines: on one, the run's details were cut off at the image's edge.
        plot.Title($"Achievement ratio per cell, {results.Api} API, median of {results.Rounds} interleaved rounds\n" +
            $"({results.Started}, {results.Cpus} CPUs, load average {results.LoadAtStart.Split(' ')[0]} at the start)");
        plot.XLabel($"sizes {MatrixReport.SizeName(sizes[0])} to {MatrixReport.SizeName(sizes[^1])} left to right; error bar: ±1 sd of the per-round ratios; " +
            "dashed 0.90, dotted 1.00; grey cross: not measured");
        plot.Axes.Bottom.Label.FontSize = 13;
        plot.Axes.Title.Label.FontSize = 15;
        foreach ((string transport, int t) in transports.Select((t, i) => (t, i)))
        {
            plot.Legend.ManualItems.Add(new LegendItem { LabelText = transport, FillColor = s_transportColors[t % s_transportColors.Length] });
        }

        plot.Legend.Alignment = Alignment.UpperRight;
        plot.ShowLegend();
        plot.SavePng(path, System.Math.Max(1100, 60 + (perGroup + 3) * patterns.Count * 9), 560);
    }
}
