using System;
using System.Globalization;
using NetZeroMQ.Benchmarks.Transfer;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>
/// --cell (hidden, used by --native): one cell measured with the method of benchmarks/native (nzmq_native.c) and
/// /work/shared/perf/README.md: one context, two threads (this one receives, the sender thread sends), the receiver binds,
/// LINGER 0, send/receive timeouts, default HWM, XPUB_NODROP; zero-length warm-up until one arrives; clock from the sender's
/// first timed send to the receiver's last timed receive; payload bytes checked. Prints one key=value line.
/// One addition the C program does not need: an untimed batch of --jit-warmup messages (default: count) on the same sockets
/// before the timed one, so that the JIT has tiered the hot paths up; without it the first ~100 ms run unoptimised code.
/// --api msg: Message.Rebuild(payload) + Send(Message), Recv into one reused Message (native "msg").
/// --api buf: Send(span), Recv(span) into a buffer larger than the message (native "buf").
/// Exit codes as the C program: 0 ok, 1 usage, 2 setup error, 3 run failed.
/// </summary>
public static class NativeCellMode
{
    public static int Run(CliArguments arguments)
    {
        if (arguments.Has("--unchecked"))
        {
            // Must happen before the first NetZeroMQ object: the switch is read once per process.
            AppContext.SetSwitch(ConcurrencyChecks.DisableSwitchName, true);
        }

        Pattern pattern = CliArguments.ParseEnum<Pattern>("--pattern", arguments.String("--pattern", "pushpull"));
        Transport transport = CliArguments.ParseEnum<Transport>("--transport", arguments.String("--transport", "tcp"));
        int size = arguments.Int("--size", 64);
        int count = arguments.Int("--count", 100_000);
        string modeName = arguments.String("--mode", "blocking");
        ReceiveMode mode = CliArguments.ParseEnum<ReceiveMode>("--mode", modeName);
        string api = arguments.String("--api", "msg");
        BufferStrategy strategy = api switch
        {
            "msg" => BufferStrategy.Message,
            "buf" => BufferStrategy.Span,
            "zc" => BufferStrategy.MessageZeroCopy,
            _ => throw new UsageException("--api: msg, buf or zc"),
        };
        int timeoutMs = arguments.Int("--timeout-ms", 20_000);
        int jitWarmup = arguments.Has("--jit-warmup") ? int.Parse(arguments.Value("--jit-warmup")!, CultureInfo.InvariantCulture) : count;

        // Tiered compilation promotes the hot paths after a delay that keeps being extended while new methods are compiled:
        // measured here, a 0.3 s warm-up still left Socket.Send/Recv in tier-0 code (0.80 of native at inproc 64 B, against
        // 0.88 after 2 s or with tiering off). The steady state is what users run, so the untimed batches go on for at least
        // this long (the C program has nothing to warm up).
        double warmupSeconds = arguments.Double("--jit-warmup-seconds", 2.0);

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
                var warming = System.Diagnostics.Stopwatch.StartNew();
                int warmupBatches = 0;
                while (jitWarmup > 0 && (warmupBatches == 0 || warming.Elapsed.TotalSeconds < warmupSeconds))
                {
                    rig.RunTimedBatch(jitWarmup);
                    warmupBatches++;
                }

                TimedBatch batch = rig.RunTimedBatch(count);
                Console.WriteLine(string.Create(
                    CultureInfo.InvariantCulture,
                    $"pattern={Name(pattern)} transport={Name(transport)} size={size} count={count} mode={modeName} api={api} hwm=default " +
                    $"seconds={batch.Seconds:F6} msg_per_sec={batch.MessagesPerSecond:F0} mb_per_sec={batch.MessagesPerSecond * size / 1e6:F1} " +
                    $"send_seconds={batch.SendSeconds:F6} cpus={Environment.ProcessorCount} libzmq={Context.Version} " +
                    $"runtime=.NET{Environment.Version} jit_warmup={jitWarmup}x{warmupBatches}"));
                return 0;
            }
            catch (Exception e)
            {
                Console.Error.WriteLine("run failed: " + e);
                return 3;
            }
        }
    }

    private static string Name<T>(T value)
        where T : struct, Enum => value.ToString().ToLowerInvariant();
}
