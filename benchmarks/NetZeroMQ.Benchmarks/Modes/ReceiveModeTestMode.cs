using System;
using System.Collections.Generic;
using System.Linq;
using NetZeroMQ.Benchmarks.Transfer;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>
/// --mode-test: a quick Stopwatch comparison of the receive modes (PushPull, span buffers), timed like the native program
/// (sender's first send to receiver's last receive), median of a few rounds after an untimed batch that lets the JIT tier up.
/// Not a substitute for BenchmarkDotNet's ReceiveModeBenchmarks; good for a look in seconds.
/// Options: --transports inproc,tcp --sizes 64,1024 --rounds 3 --count N (default 200,000 for <= 1 KiB, 20,000 above).
/// </summary>
public static class ReceiveModeTestMode
{
    public static int Run(CliArguments arguments)
    {
        var transports = arguments.List("--transports", "inproc,tcp").Select(t => CliArguments.ParseEnum<Transport>("--transports", t)).ToList();
        var sizes = arguments.IntList("--sizes", "64,1024");
        int rounds = arguments.Int("--rounds", 3);
        Console.WriteLine($"PushPull, receive modes compared; median of {rounds} rounds; {Environment.ProcessorCount} CPUs visible");
        Console.WriteLine();
        Console.WriteLine("| transport | size | mode | count | msg/s (median) | spread | vs Blocking |");
        Console.WriteLine("|---|---:|---|---:|---:|---:|---:|");
        foreach (Transport transport in transports)
        {
            foreach (int size in sizes)
            {
                int count = arguments.Int("--count", size <= 1024 ? 200_000 : 20_000);
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
