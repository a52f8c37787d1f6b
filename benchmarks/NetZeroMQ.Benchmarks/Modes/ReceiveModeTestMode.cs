using System;
using System.Collections.Generic;
using System.CommandLine;
using NetZeroMQ.Benchmarks.Cli;
using NetZeroMQ.Benchmarks.Transfer;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>
/// --mode-test: a quick Stopwatch comparison of the receive modes (PushPull, span buffers), timed like the native program
/// (sender's first send to receiver's last receive), median of a few rounds after an untimed batch that lets the JIT tier up.
/// Not a substitute for BenchmarkDotNet's ReceiveModeBenchmarks; good for a look in seconds.
/// </summary>
public static class ReceiveModeTestMode
{
    private static readonly Option<IReadOnlyList<Transport>> s_transports = CliOptions.EnumList<Transport>("--transports", "inproc,tcp", "transports to compare over");
    private static readonly Option<IReadOnlyList<int>> s_sizes = CliOptions.IntList("--sizes", "64,1024", "message sizes in bytes");
    private static readonly Option<int> s_rounds = CliOptions.Int("--rounds", 3, "timed batches per cell; the table shows their median");
    private static readonly Option<int?> s_count = CliOptions.OptionalInt("--count", "messages per timed batch [default: 200,000 up to 1 KiB, 20,000 above]");

    public static Command Command { get; } = CliOptions.Mode(
        "--mode-test",
        "the receive modes compared with a Stopwatch (PushPull, span buffers), markdown table; a look in seconds",
        Run,
        s_transports,
        s_sizes,
        s_rounds,
        s_count);

    private static int Run(ParseResult options)
    {
        IReadOnlyList<Transport> transports = options.GetValue(s_transports)!;
        IReadOnlyList<int> sizes = options.GetValue(s_sizes)!;
        int rounds = options.GetValue(s_rounds);
        Console.WriteLine($"PushPull, receive modes compared; median of {rounds} rounds; {Environment.ProcessorCount} CPUs visible");
        Console.WriteLine();
        Console.WriteLine("| transport | size | mode | count | msg/s (median) | spread | vs Blocking |");
        Console.WriteLine("|---|---:|---|---:|---:|---:|---:|");
        foreach (Transport transport in transports)
        {
            foreach (int size in sizes)
            {
                int count = options.GetValue(s_count) ?? (size <= 1024 ? 200_000 : 20_000);
                double blocking = 0;
                foreach (ReceiveMode mode in Enum.GetValues<ReceiveMode>())
                {
                    var results = new List<double>();
                    using (var rig = new TransferRig(new RigOptions(Pattern.PushPull, transport, size, mode)))
                    {
                        rig.WarmUp();
                        rig.RunTimedBatch(count); // untimed: JIT tier-up
                        for (int r = 0; r < rounds; r++)
                        {
                            results.Add(rig.RunTimedBatch(count).MessagesPerSecond);
                        }
                    }

                    var stats = Stats.Of(results);
                    if (mode == ReceiveMode.Blocking)
                    {
                        blocking = stats.Median;
                    }

                    Console.WriteLine($"| {transport.ToString().ToLowerInvariant()} | {size} | {mode} | {count:N0} | {stats.Median:N0} | {stats.Spread:P0} | {stats.Median / blocking:F2} |");
                }
            }
        }

        return 0;
    }
}
