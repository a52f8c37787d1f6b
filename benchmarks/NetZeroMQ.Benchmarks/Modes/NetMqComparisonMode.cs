using System;
using System.Collections.Generic;
using System.CommandLine;
using System.Globalization;
using System.Linq;
using NetZeroMQ.Benchmarks.Cli;
using NetZeroMQ.Benchmarks.Reporting;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>
/// --netmq: NetZeroMQ against NetMQ (pure managed, run in-process in its own child) with the same method: for each cell,
/// interleaved rounds (NetMQ, NetZeroMQ, NetMQ, ...) of fresh child processes with the same count and the same untimed
/// warm-up batches, medians; prints msg/s of each side, the ratio NetZeroMQ / NetMQ and the managed bytes per message of
/// each (the whole process, during the timed batch). API pairs: buf (NetZeroMQ spans) with NetMQ's SendFrame /
/// ReceiveFrameBytes, msg (a reused NetZeroMQ Message) with NetMQ's pooled Msg. --latency: round trips, as --native --latency.
/// NetMQ's ipc:// is tcp over loopback, so ipc cells are skipped with that reason.
/// </summary>
public static class NetMqComparisonMode
{
    /// <summary>Why no ipc cell runs against NetMQ.</summary>
    public const string NoIpc = "NetMQ has no real ipc transport: its ipc:// is tcp over loopback (its IpcListener is its TcpListener), not a Unix-domain socket";

    private static readonly Option<bool> s_pin = CliOptions.Flag("--pin", "run both sides under taskset -c 0 (every thread on CPU 0): the reproducible ratio");
    private static readonly Option<bool> s_latency = CliOptions.Flag(
        "--latency", "round trips (reqrep, dealerrouter ping-pong; p50/p99 in µs) instead of streams; --sizes defaults to 64, --patterns/--apis do not apply");
    private static readonly Option<int> s_rounds = CliOptions.Int("--rounds", 5, "interleaved rounds per cell; the table shows medians");
    private static readonly Option<IReadOnlyList<int>> s_sizes = CliOptions.IntList("--sizes", "64,1024,65536", "message sizes in bytes");
    private static readonly Option<IReadOnlyList<string>> s_patterns = CliOptions.ListOf("--patterns", "pushpull,pubsub", "socket pairs (NetMQ cells)", "pushpull", "pubsub");
    private static readonly Option<IReadOnlyList<string>> s_transports = CliOptions.ListOf("--transports", "inproc,tcp", "transports (ipc is skipped: NetMQ has none)", "inproc", "ipc", "tcp");
    private static readonly Option<IReadOnlyList<string>> s_apis = CliOptions.ListOf(
        "--apis", "buf,msg", "buf: NetZeroMQ spans vs NetMQ SendFrame/ReceiveFrameBytes; msg: reused Message vs NetMQ pooled Msg", "buf", "msg");
    private static readonly Option<int?> s_count = CliOptions.OptionalInt("--count", "messages (round trips) per run, the same for both sides [default: from a NetMQ pilot run]");
    // 1 s, not --native's 0.3: NetZeroMQ runs the same count up to ~15x faster, and its timed batch should not shrink to milliseconds.
    private static readonly Option<double> s_seconds = CliOptions.PositiveDouble("--seconds", 1.0, "NetMQ seconds of work that the pilot run sizes the count for");
    private static readonly Option<double> s_warmupSeconds = CliOptions.PositiveDouble(
        "--warmup-seconds", 2.0, "both sides run untimed batches of count messages on their sockets for at least this long before timing");

    public static Command Command { get; } = Build();

    private static Command Build()
    {
        Command command = CliOptions.Mode(
            "--netmq",
            "NetZeroMQ against NetMQ 4.0.4.5: interleaved child processes, ratio and B/msg of each, markdown table; exit 3 if a run failed",
            Run,
            s_pin,
            s_latency,
            s_rounds,
            s_sizes,
            s_patterns,
            s_transports,
            s_apis,
            s_count,
            s_seconds,
            s_warmupSeconds);
        command.Validators.Add(result => NativeComparisonMode.RejectWithLatency(result, s_latency, s_patterns, s_apis));
        return command;
    }

    private static int Run(ParseResult options)
    {
        bool pin = options.GetValue(s_pin);
        bool latency = options.GetValue(s_latency);
        int rounds = options.GetValue(s_rounds);
        IReadOnlyList<int> sizes = NativeComparisonMode.Sizes(options, s_sizes, latency);
        IReadOnlyList<string> patterns = latency ? new[] { "reqrep", "dealerrouter" } : options.GetValue(s_patterns)!;
        IReadOnlyList<string> transports = options.GetValue(s_transports)!;
        // Round trips: both sides block, then both await (NetMQ: its NetMQRuntime and ReceiveFrameBytesAsync).
        IReadOnlyList<string> apis = latency ? NativeComparisonMode.RoundTripModes : options.GetValue(s_apis)!;
        int? fixedCount = options.GetValue(s_count);
        double seconds = options.GetValue(s_seconds);
        double warmupSeconds = options.GetValue(s_warmupSeconds);
        if (pin && !NativeProgram.OnPath("taskset"))
        {
            Console.Error.WriteLine("error: --pin needs taskset (Debian: util-linux)");
            return 2;
        }

        var runner = new Interleaved(pin);
        Console.WriteLine($"rounds={rounds} pin={(pin ? "taskset -c 0" : "none")} netmq={typeof(NetMQ.Msg).Assembly.GetName().Version} warmup_seconds={Interleaved.Invariant(warmupSeconds)} cpus={Environment.ProcessorCount} load=\"{Reporting.Load.Text()}\" started={DateTime.UtcNow:yyyy-MM-dd HH:mm:ss}Z");
        if (transports.Contains("ipc"))
        {
            Console.WriteLine("skipped ipc: " + NoIpc + ".");
        }

        int cells = patterns.Count * transports.Count(t => t != "ipc") * sizes.Count * apis.Count;
        using var progress = new ComparisonProgress(latency ? "--netmq --latency" : "--netmq", runner, cells, rounds, seconds, warmupSeconds, pin);
        var rows = new List<string>();
        foreach (string pattern in patterns)
        foreach (string transport in transports.Where(t => t != "ipc"))
        foreach (int size in sizes)
        foreach (string api in apis)
        {
            string netmqApi = api == "buf" ? "frame" : "msg";
            string s = Interleaved.Invariant(size);
            string[] netmqCell = latency
                ? new[] { "--rtt-cell", "--impl", "netmq", "--mode", api, "--pattern", pattern, "--transport", transport, "--size", s }
                : new[] { "--netmq-cell", "--pattern", pattern, "--transport", transport, "--size", s, "--api", netmqApi };
            string[] ourCell = latency
                ? new[] { "--rtt-cell", "--impl", "netzeromq", "--mode", api, "--pattern", pattern, "--transport", transport, "--size", s }
                : new[] { "--cell", "--pattern", pattern, "--transport", transport, "--size", s, "--mode", "blocking", "--api", api };
            int count = fixedCount ?? PilotCount(runner, netmqCell, seconds, latency);
            if (count <= 0)
            {
                rows.Add($"| {pattern} | {transport} | {size} | {(latency ? api + " | " : api + " | " + netmqApi + " | ")}- | pilot failed | | | | |");
                progress.Skipped($"{pattern} {transport} {size} {api}", "pilot failed");
                continue;
            }

            string n = Interleaved.Invariant(count);
            string w = Interleaved.Invariant(warmupSeconds);
            ChildCommand netmq = Interleaved.Self(netmqCell.Concat(new[] { "--count", n, "--warmup", n, "--warmup-seconds", w }));
            ChildCommand ours = Interleaved.Self(ourCell.Concat(latency
                ? new[] { "--count", n, "--warmup", n, "--warmup-seconds", w }
                : new[] { "--count", n, "--jit-warmup", n, "--jit-warmup-seconds", w }));
            string label = $"{pattern} {transport} {size} {(latency ? api + " round trip" : api + "/" + netmqApi)} count={count}";
            if (latency)
            {
                (List<ChildResult> mr, List<ChildResult> zr) = runner.Run(label, rounds, netmq, ours, "NetMQ p50", "NetZeroMQ p50", "rtt_p50_us", 1, " µs");
                rows.Add(NativeComparisonMode.LatencyRow(pattern, transport, size, api, count, mr, zr) + Allocations(zr, mr));
                progress.Cell($"{pattern} {transport} {size} {api} round trip", mr, zr, "rtt_p50_us", "p50 NetZeroMQ / NetMQ");
                continue;
            }

            (List<ChildResult> netmqRuns, List<ChildResult> ourRuns) = runner.Run(label, rounds, netmq, ours, "NetMQ", "NetZeroMQ");
            progress.Cell($"{pattern} {transport} {size} {api}/{netmqApi}", netmqRuns, ourRuns, "msg_per_sec", "NetZeroMQ / NetMQ");
            Stats ms = Interleaved.Of(netmqRuns, "msg_per_sec");
            Stats zs = Interleaved.Of(ourRuns, "msg_per_sec");
            rows.Add($"| {pattern} | {transport} | {size} | {api} | {netmqApi} | {count:N0} | {zs.Median:N0} | {zs.Spread:P0} | {ms.Median:N0} | {ms.Spread:P0} | {Interleaved.Ratio(zs.Median, ms.Median)} |" + Allocations(ourRuns, netmqRuns));
        }

        Console.WriteLine();
        string placement = pin ? "all threads on CPU 0 via taskset -c 0" : "unpinned";
        string warm = $"both sides after at least {Interleaved.Invariant(warmupSeconds)} s of untimed batches of count on the same sockets";
        string bytes = "B/msg: managed bytes the whole process allocated per message (round trip) during the timed batch, median.";
        if (latency)
        {
            Console.WriteLine($"Round trips, 64 B unless --sizes: median over {rounds} interleaved rounds of each run's p50 and p99 ({placement}; {warm}).");
            Console.WriteLine("Ratios are NetZeroMQ / NetMQ latency: below 1.00 is faster. Spread = (max - min) / median of the p50s. " + bytes);
            Console.WriteLine();
            Console.WriteLine("Mode: both sides block, or both await (NetZeroMQ: SendAsync/RecvAsync; NetMQ: NetMQRuntime, ReceiveFrameBytesAsync, SendFrame).");
            Console.WriteLine();
            Console.WriteLine("| pattern | transport | size | mode | round trips | NetMQ p50 µs | NetMQ spread | NetZeroMQ p50 µs | NetZeroMQ spread | p50 NetZeroMQ / NetMQ | NetMQ p99 µs | NetZeroMQ p99 µs | p99 NetZeroMQ / NetMQ | NetZeroMQ B/msg | NetMQ B/msg |");
            Console.WriteLine("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        }
        else
        {
            Console.WriteLine($"Median msg/s over {rounds} interleaved rounds ({placement}; {warm}); spread = (max - min) / median. {bytes}");
            Console.WriteLine("NetMQ PubSub runs with both high-water marks at 0: NetMQ has no XPUB_NODROP, and its PUB would drop at the limit.");
            Console.WriteLine();
            Console.WriteLine("| pattern | transport | size | NetZeroMQ api | NetMQ api | count | NetZeroMQ msg/s | NetZeroMQ spread | NetMQ msg/s | NetMQ spread | NetZeroMQ / NetMQ | NetZeroMQ B/msg | NetMQ B/msg |");
            Console.WriteLine("|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        }

        int exit = runner.PrintRows(rows);
        progress.Finish();
        return exit;
    }

    private static string Allocations(List<ChildResult> ours, List<ChildResult> netmq) => string.Create(
        CultureInfo.InvariantCulture,
        $" {Interleaved.Of(ours, "alloc_bytes_per_msg").Median:F1} | {Interleaved.Of(netmq, "alloc_bytes_per_msg").Median:F1} |");

    /// <summary>Count for about <paramref name="seconds"/> of NetMQ work, from a short NetMQ run without warm-up.</summary>
    private static int PilotCount(Interleaved runner, string[] netmqCell, double seconds, bool roundTrips)
    {
        ChildResult result = runner.Start(Interleaved.Self(netmqCell.Concat(new[] { "--count", roundTrips ? "2000" : "20000", "--warmup", "0" })));
        if (!result.Ok)
        {
            runner.Fail();
            Console.Error.WriteLine($"pilot failed (exit {result.ExitCode}): {result.Error}");
            return -1;
        }

        return (int)Math.Clamp(result.MessagesPerSecond!.Value * seconds, 1_000, 50_000_000);
    }
}
