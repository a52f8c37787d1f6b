using System;
using System.CommandLine;
using System.Diagnostics;
using System.Globalization;
using NetZeroMQ.Benchmarks.Cli;
using NetZeroMQ.Benchmarks.Reporting;
using NetZeroMQ.Benchmarks.Transfer.WakeUp;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>
/// --wake-cell (run by --native --latency and --netmq --latency, one child process per cell and round): single wake-ups of a
/// receive that really waits, blocking (the reference) or awaited with --sockets receives pending in the reactor (see
/// <see cref="WakeUpRig"/>). Untimed wake-ups first (--warmup, --warmup-seconds), then --count each timed alone. Prints one
/// key=value line: wake_p50_us, wake_p99_us (nearest rank), wake_mean_us, msg_per_sec and alloc_bytes_per_msg.
/// </summary>
public static class WakeUpCellMode
{
    private static readonly Option<string> s_mode = CliOptions.OneOf(
        "--mode", "async", "blocking: a thread blocked in Recv; async: awaited RecvAsync; observed: RecvAsync's completion seen by a spinning sender (no continuation)", "blocking", "async", "observed");
    private static readonly Option<int> s_sockets = CliOptions.Int("--sockets", 1, "async: DEALERs with a receive pending in the reactor (blocking: always 1)");
    private static readonly Option<int> s_count = CliOptions.Int("--count", 20_000, "timed wake-ups");
    private static readonly Option<int> s_timeoutMs = CliOptions.Int("--timeout-ms", 20_000, "send/receive timeout, in milliseconds");
    private static readonly Option<int?> s_warmup = CliOptions.OptionalInt("--warmup", "wake-ups per untimed batch before the timed ones, 0 for none [default: --count]", minimum: 0);
    private static readonly Option<double> s_warmupSeconds = CliOptions.PositiveDouble("--warmup-seconds", 2.0, "untimed batches go on for at least this long");

    public static Command Command { get; } = CliOptions.Mode(
        "--wake-cell",
        "(run by --native --latency and --netmq --latency) single wake-ups of a waiting receive, blocking or awaited; prints one key=value line",
        Run,
        s_mode,
        s_sockets,
        s_count,
        s_timeoutMs,
        s_warmup,
        s_warmupSeconds);

    private static int Run(ParseResult options)
    {
        string mode = options.GetValue(s_mode)!;
        int sockets = mode == "blocking" ? 1 : options.GetValue(s_sockets);
        int count = options.GetValue(s_count);
        var timeout = TimeSpan.FromMilliseconds(options.GetValue(s_timeoutMs));
        int warmup = options.GetValue(s_warmup) ?? count;
        double warmupSeconds = options.GetValue(s_warmupSeconds);

        WakeUpRig rig;
        try
        {
            rig = new WakeUpRig(mode == "async", sockets, timeout, observed: mode == "observed");
        }
        catch (Exception e)
        {
            Console.Error.WriteLine("setup failed: " + e);
            return 2;
        }

        using (rig)
        {
            try
            {
                int batches = UntimedBatches.Run(warmup, warmupSeconds, rig.Run);
                var ticks = new long[count];
                long start = Stopwatch.GetTimestamp();
                long allocated = UntimedBatches.ProcessAllocated(() => rig.Measure(ticks));
                double seconds = (Stopwatch.GetTimestamp() - start) / (double)Stopwatch.Frequency;
                double mean = 0;
                foreach (long t in ticks)
                {
                    mean += t;
                }

                Array.Sort(ticks);
                Console.WriteLine(string.Create(
                    CultureInfo.InvariantCulture,
                    $"pattern=wakeup transport=inproc size=64 count={count} mode={mode} sockets={sockets} seconds={seconds:F6} msg_per_sec={count / seconds:F0} " +
                    $"wake_p50_us={TickPercentile.Microseconds(ticks, 50):F2} wake_p99_us={TickPercentile.Microseconds(ticks, 99):F2} wake_mean_us={mean * 1e6 / Stopwatch.Frequency / count:F2} " +
                    $"alloc_bytes_per_msg={allocated / (double)count:F1} setup_ms={rig.SetupMilliseconds:F1} cpus={Environment.ProcessorCount} " +
                    $"reactor={Reactor.Current?.Kind ?? "none"} runtime=.NET{Environment.Version} warmup={warmup}x{batches}"));
                return 0;
            }
            catch (Exception e)
            {
                Console.Error.WriteLine("run failed: " + e);
                return 3;
            }
        }
    }
}
