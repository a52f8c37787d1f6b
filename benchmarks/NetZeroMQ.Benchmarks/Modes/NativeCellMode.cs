using System;
using System.CommandLine;
using System.Globalization;
using NetZeroMQ.Benchmarks.Cli;
using NetZeroMQ.Draft;
using NetZeroMQ.Benchmarks.Transfer;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>
/// --cell (run by --native, one child process per cell and round): one cell measured with the method of the native program
/// (benchmarks/native/nzmq_native.c, described in its README): one context, two threads (this one receives, the sender thread
/// sends), the receiver binds, LINGER 0, send/receive timeouts, default HWM, XPUB_NODROP; zero-length warm-up until one
/// arrives; clock from the sender's first timed send to the receiver's last timed receive; payload bytes checked. Prints one
/// key=value line in the native program's format.
/// Before the timed batch, untimed batches of --jit-warmup messages (default: count) on the same sockets for at least
/// --jit-warmup-seconds, so that the JIT has tiered the hot paths up (without it the first ~100 ms run unoptimised code);
/// --native gives the C program the same untimed batches (its --warmup, --warmup-seconds). alloc_bytes_per_msg: managed bytes
/// the whole process allocated during the timed batch, per message.
/// --api msg: Message.Rebuild(payload) + Send(Message), Recv into one reused Message (native "msg").
/// --api buf: Send(span), Recv(span) into a buffer larger than the message (native "buf").
/// --api zc: SendZeroCopy(ReadOnlyMemory), Recv into one reused Message (native "zc").
/// Exit codes: 0 ok, 2 usage or setup error, 3 run failed, 4 not run (a draft pattern and the libzmq has no draft API, as the
/// C program) (the C program uses 1 for usage errors; --native treats every
/// non-zero code as a failed run).
/// </summary>
public static class NativeCellMode
{
    private static readonly Option<Pattern> s_pattern = CliOptions.Enum("--pattern", Pattern.PushPull, "socket pair");
    private static readonly Option<Transport> s_transport = CliOptions.Enum("--transport", Transport.Tcp, "transport");
    private static readonly Option<int> s_size = CliOptions.Int("--size", 64, "message size in bytes");
    private static readonly Option<int> s_count = CliOptions.Int("--count", 100_000, "timed messages");
    private static readonly Option<ReceiveMode> s_mode = CliOptions.Enum("--mode", ReceiveMode.Blocking, "how the receiving thread waits");
    private static readonly Option<string> s_api = CliOptions.OneOf("--api", "msg", "which calls move the payload (see --native --apis)", "msg", "buf", "zc");
    private static readonly Option<int> s_timeoutMs = CliOptions.Int("--timeout-ms", 20_000, "send/receive timeout and longest wait without progress, in milliseconds");
    private static readonly Option<int?> s_jitWarmup = CliOptions.OptionalInt(
        "--jit-warmup", "messages per untimed batch before the timed one, 0 for none [default: --count]", minimum: 0);
    private static readonly Option<double> s_jitWarmupSeconds = CliOptions.PositiveDouble(
        "--jit-warmup-seconds", 2.0, "untimed batches go on for at least this long, so that the JIT has tiered up");

    public static Command Command { get; } = CliOptions.Mode(
        "--cell",
        "(run by --native) one cell with the native program's method; prints one key=value line",
        Run,
        s_pattern,
        s_transport,
        s_size,
        s_count,
        s_mode,
        s_api,
        s_timeoutMs,
        s_jitWarmup,
        s_jitWarmupSeconds);

    private static int Run(ParseResult options)
    {
        Pattern pattern = options.GetValue(s_pattern);
        Transport transport = options.GetValue(s_transport);
        int size = options.GetValue(s_size);
        int count = options.GetValue(s_count);
        ReceiveMode mode = options.GetValue(s_mode);
        string api = options.GetValue(s_api)!;
        BufferStrategy strategy = api switch
        {
            "msg" => BufferStrategy.Message,
            "buf" => BufferStrategy.Span,
            "zc" => BufferStrategy.MessageZeroCopy,
            _ => throw new InvalidOperationException("--api accepted '" + api + "'"), // the parser admits only the three above
        };
        if (!Array.Exists(Patterns.Strategies(pattern), s => s == strategy))
        {
            Console.Error.WriteLine($"--pattern {CliOptions.NameOf(pattern)} needs --api msg (every RADIO message carries its group on a Message)");
            return 2;
        }

        if (Patterns.NotRunReason(pattern) is string reason)
        {
            Console.Error.WriteLine($"{reason} ({Libzmq.LoadedFrom}, libzmq {Context.Version})");
            return Patterns.NoDraftExitCode;
        }

        int timeoutMs = options.GetValue(s_timeoutMs);
        int jitWarmup = options.GetValue(s_jitWarmup) ?? count;

        // Tiered compilation promotes the hot paths after a delay that keeps being extended while new methods are compiled:
        // measured here, a 0.3 s warm-up still left Socket.Send/Recv in tier-0 code (0.80 of native at inproc 64 B, against
        // 0.88 after 2 s or with tiering off). The steady state is what users run, so the untimed batches go on for at least
        // this long; --native runs the same untimed batches in the C program.
        double warmupSeconds = options.GetValue(s_jitWarmupSeconds);

        TransferRig rig;
        try
        {
            rig = new TransferRig(new RigOptions(pattern, transport, size, mode, strategy) { Timeout = TimeSpan.FromMilliseconds(timeoutMs) });
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
                int warmupBatches = UntimedBatches.Run(jitWarmup, warmupSeconds, n => rig.RunTimedBatch(n));
                TimedBatch batch = default;
                long allocated = UntimedBatches.ProcessAllocated(() => batch = rig.RunTimedBatch(count));
                Console.WriteLine(string.Create(
                    CultureInfo.InvariantCulture,
                    $"pattern={CliOptions.NameOf(pattern)} transport={CliOptions.NameOf(transport)} size={size} count={count} mode={CliOptions.NameOf(mode)} api={api} hwm=default " +
                    $"seconds={batch.Seconds:F6} msg_per_sec={batch.MessagesPerSecond:F0} mb_per_sec={batch.MessagesPerSecond * size / 1e6:F1} " +
                    $"send_seconds={batch.SendSeconds:F6} alloc_bytes_per_msg={allocated / (double)count:F1} cpus={Environment.ProcessorCount} libzmq={Context.Version} " +
                    $"runtime=.NET{Environment.Version} jit_warmup={jitWarmup}x{warmupBatches} draft={(DraftApi.IsAvailable ? 1 : 0)} libzmq_path={Libzmq.LoadedFrom}"));
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
