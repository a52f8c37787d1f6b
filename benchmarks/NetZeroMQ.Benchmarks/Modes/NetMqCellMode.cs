using System;
using System.CommandLine;
using System.Globalization;
using NetZeroMQ.Benchmarks.Cli;
using NetZeroMQ.Benchmarks.Transfer;
using NetZeroMQ.Benchmarks.Transfer.NetMq;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>
/// --netmq-cell (run by --netmq, one child process per cell and round): one NetMQ streaming cell (PushPull or PubSub over inproc
/// or tcp) with the method of --cell and the native program, untimed batches first (--warmup, --warmup-seconds), then one timed
/// batch. Prints one key=value line in the native program's format, plus alloc_bytes_per_msg: managed bytes the whole process
/// allocated during the timed batch, per message. Exit codes as --cell: 0 ok, 2 setup error, 3 run failed.
/// </summary>
public static class NetMqCellMode
{
    private static readonly Option<string> s_pattern = CliOptions.OneOf("--pattern", "pushpull", "socket pair", "pushpull", "pubsub");
    private static readonly Option<string> s_transport = CliOptions.OneOf("--transport", "tcp", "transport (NetMQ has no real ipc)", "inproc", "tcp");
    private static readonly Option<int> s_size = CliOptions.Int("--size", 64, "message size in bytes");
    private static readonly Option<int> s_count = CliOptions.Int("--count", 100_000, "timed messages");
    private static readonly Option<NetMqApi> s_api = CliOptions.Enum("--api", NetMqApi.Frame, "frame: SendFrame/ReceiveFrameBytes; msg: pooled Msg, reused receive Msg");
    private static readonly Option<int> s_timeoutMs = CliOptions.Int("--timeout-ms", 20_000, "send/receive timeout and longest wait without progress, in milliseconds");
    private static readonly Option<int?> s_warmup = CliOptions.OptionalInt("--warmup", "messages per untimed batch before the timed one, 0 for none [default: --count]", minimum: 0);
    private static readonly Option<double> s_warmupSeconds = CliOptions.PositiveDouble("--warmup-seconds", 2.0, "untimed batches go on for at least this long");

    public static Command Command { get; } = CliOptions.Mode(
        "--netmq-cell",
        "(run by --netmq) one NetMQ cell with the native program's method; prints one key=value line",
        Run,
        s_pattern,
        s_transport,
        s_size,
        s_count,
        s_api,
        s_timeoutMs,
        s_warmup,
        s_warmupSeconds);

    private static int Run(ParseResult options)
    {
        Pattern pattern = options.GetValue(s_pattern) == "pubsub" ? Pattern.PubSub : Pattern.PushPull;
        Transport transport = options.GetValue(s_transport) == "inproc" ? Transport.Inproc : Transport.Tcp;
        int size = options.GetValue(s_size);
        int count = options.GetValue(s_count);
        NetMqApi api = options.GetValue(s_api);
        var timeout = TimeSpan.FromMilliseconds(options.GetValue(s_timeoutMs));
        int warmup = options.GetValue(s_warmup) ?? count;
        double warmupSeconds = options.GetValue(s_warmupSeconds);

        NetMqStreamRig rig;
        try
        {
            rig = new NetMqStreamRig(pattern, transport, size, api, timeout);
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
                rig.WarmUp();
                int batches = UntimedBatches.Run(warmup, warmupSeconds, n => rig.RunTimedBatch(n));
                double seconds = 0;
                long allocated = UntimedBatches.ProcessAllocated(() => seconds = rig.RunTimedBatch(count));
                double rate = count / seconds;
                Console.WriteLine(string.Create(
                    CultureInfo.InvariantCulture,
                    $"pattern={CliOptions.NameOf(pattern)} transport={CliOptions.NameOf(transport)} size={size} count={count} mode=blocking api={CliOptions.NameOf(api)} " +
                    $"hwm={(pattern == Pattern.PubSub ? "0" : "default")} seconds={seconds:F6} msg_per_sec={rate:F0} mb_per_sec={rate * size / 1e6:F1} " +
                    $"alloc_bytes_per_msg={allocated / (double)count:F1} cpus={Environment.ProcessorCount} netmq={typeof(NetMQ.Msg).Assembly.GetName().Version} " +
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
