using System;
using System.CommandLine;
using System.Diagnostics;
using System.Globalization;
using NetZeroMQ.Benchmarks.Cli;
using NetZeroMQ.Benchmarks.Reporting;
using NetZeroMQ.Benchmarks.Transfer;
using NetZeroMQ.Benchmarks.Transfer.RoundTrip;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>
/// --rtt-cell (run by --native --latency and --netmq --latency, one child process per cell and round): round trips (ping-pong)
/// with the method of the native program's --roundtrip: the server binds and echoes on its own thread, the client connects,
/// untimed round trips first (--warmup, --warmup-seconds), then --count round trips each timed alone; --mode async awaits every
/// send and receive on both sides (see <see cref="RoundTripRig"/>). Prints one key=value line:
/// msg_per_sec (round trips per second), rtt_p50_us and rtt_p99_us (nearest rank, as the C program computes them),
/// rtt_mean_us, and alloc_bytes_per_msg (managed bytes the whole process allocated per timed round trip).
/// </summary>
public static class RoundTripCellMode
{
    private static readonly Option<string> s_impl = CliOptions.OneOf("--impl", "netzeromq", "which library: NetZeroMQ (span path) or NetMQ (pooled Msg)", "netzeromq", "netmq");
    private static readonly Option<string> s_mode = CliOptions.OneOf("--mode", "blocking", "blocking calls, or awaited ones on both sides (SendAsync/RecvAsync; NetMQ: its NetMQRuntime and ReceiveFrameBytesAsync)", "blocking", "async");
    private static readonly Option<RoundTripPattern> s_pattern = CliOptions.Enum("--pattern", RoundTripPattern.ReqRep, "client-server pair");
    private static readonly Option<Transport> s_transport = CliOptions.Enum("--transport", Transport.Tcp, "transport");
    private static readonly Option<int> s_size = CliOptions.Int("--size", 64, "message size in bytes");
    private static readonly Option<int> s_count = CliOptions.Int("--count", 20_000, "timed round trips");
    private static readonly Option<int> s_timeoutMs = CliOptions.Int("--timeout-ms", 20_000, "send/receive timeout, in milliseconds");
    private static readonly Option<int?> s_warmup = CliOptions.OptionalInt("--warmup", "round trips per untimed batch before the timed ones, 0 for none [default: --count]", minimum: 0);
    private static readonly Option<double> s_warmupSeconds = CliOptions.PositiveDouble("--warmup-seconds", 2.0, "untimed batches go on for at least this long");

    public static Command Command { get; } = CliOptions.Mode(
        "--rtt-cell",
        "(run by --native --latency and --netmq --latency) round trips with the native program's method; prints one key=value line",
        Run,
        s_impl,
        s_mode,
        s_pattern,
        s_transport,
        s_size,
        s_count,
        s_timeoutMs,
        s_warmup,
        s_warmupSeconds);

    private static int Run(ParseResult options)
    {
        string impl = options.GetValue(s_impl)!;
        string mode = options.GetValue(s_mode)!;
        bool awaited = mode == "async";
        RoundTripPattern pattern = options.GetValue(s_pattern);
        Transport transport = options.GetValue(s_transport);
        int size = options.GetValue(s_size);
        int count = options.GetValue(s_count);
        var timeout = TimeSpan.FromMilliseconds(options.GetValue(s_timeoutMs));
        int warmup = options.GetValue(s_warmup) ?? count;
        double warmupSeconds = options.GetValue(s_warmupSeconds);

        RoundTripRig rig;
        try
        {
            rig = impl == "netmq"
                ? new NetMqRoundTrip(pattern, transport, size, timeout, awaited)
                : new NetZeroMqRoundTrip(pattern, transport, size, timeout, awaited);
        }
        catch (NotSupportedException e)
        {
            Console.Error.WriteLine("error: " + e.Message); // NetMQ and ipc: a known refusal, not a crash
            return 2;
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
                long total = 0;
                long allocated = UntimedBatches.ProcessAllocated(() => total = rig.Measure(ticks));
                rig.Stop(timeout);
                Array.Sort(ticks);
                double seconds = total / (double)Stopwatch.Frequency;
                Console.WriteLine(string.Create(
                    CultureInfo.InvariantCulture,
                    $"pattern={CliOptions.NameOf(pattern)} transport={CliOptions.NameOf(transport)} size={size} count={count} mode={mode} api=buf hwm=default " +
                    $"seconds={seconds:F6} msg_per_sec={count / seconds:F0} rtt_p50_us={TickPercentile.Microseconds(ticks, 50):F2} rtt_p99_us={TickPercentile.Microseconds(ticks, 99):F2} " +
                    $"rtt_mean_us={seconds * 1e6 / count:F2} alloc_bytes_per_msg={allocated / (double)count:F1} cpus={Environment.ProcessorCount} impl={impl} " +
                    $"runtime=.NET{Environment.Version} warmup={warmup}x{batches}"));
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
