using System;
using System.Collections.Generic;
using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;
using System.Linq;
using NetZeroMQ.Benchmarks.Cli;
using NetZeroMQ.Benchmarks.Reporting;
using NetZeroMQ.Benchmarks.Transfer;
using NetZeroMQ.Draft;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>
/// --native: NetZeroMQ against plain C on the same libzmq. Builds benchmarks/native, then for each cell runs interleaved rounds
/// (native, .NET, native, .NET, ...), each a fresh child process with the same count and the same warm-up (untimed batches of
/// count messages on the same sockets for at least --warmup-seconds, on both sides), both under "taskset -c 0" with --pin.
/// Prints the median msg/s of each side, their spread ((max - min) / median) and the ratio .NET / native. The count comes
/// from a native pilot run (--seconds of work, default 0.3) unless --count is given.
/// --latency: round trips instead of streams (REQ/REP and DEALER/ROUTER ping-pong, the C program's --roundtrip against
/// --rtt-cell, blocking and awaited): median p50 and p99 of each side and their ratios (.NET / native: above 1 is slower); then
/// single wake-ups of an awaited receive with 1 to 10,000 receives pending (--wake-cell) against a blocking wake-up.
/// </summary>
public static class NativeComparisonMode
{
    private static readonly Option<bool> s_pin = CliOptions.Flag("--pin", "run both sides under taskset -c 0 (every thread on CPU 0): the reproducible ratio");
    private static readonly Option<bool> s_mallocNeutral = CliOptions.Flag(
        "--malloc-neutral", "set MALLOC_TRIM_THRESHOLD_ and MALLOC_MMAP_THRESHOLD_ to 1e9 for both processes (removes glibc's trimming noise at 64 KiB+)");
    private static readonly Option<bool> s_latency = CliOptions.Flag(
        "--latency", "round trips (reqrep, dealerrouter ping-pong; p50/p99 in µs) instead of streams; --sizes defaults to 64, --patterns/--apis/--modes do not apply");
    private static readonly Option<int> s_rounds = CliOptions.Int("--rounds", 5, "interleaved rounds per cell; the table shows medians");
    private static readonly Option<IReadOnlyList<int>> s_sizes = CliOptions.IntList("--sizes", "64,1024,65536", "message sizes in bytes");
    private static readonly Option<IReadOnlyList<string>> s_patterns = CliOptions.ListOf(
        "--patterns", "pushpull,pubsub,routerrouter", "socket pairs", Enum.GetValues<Pattern>().Select(CliOptions.NameOf).ToArray());
    private static readonly Option<IReadOnlyList<string>> s_transports = CliOptions.ListOf(
        "--transports", "inproc,tcp", "transports", Enum.GetValues<Transport>().Select(CliOptions.NameOf).ToArray());
    private static readonly Option<IReadOnlyList<string>> s_apis = CliOptions.ListOf(
        "--apis", "msg,buf", "msg: Message vs zmq_msg_*; buf: spans vs zmq_send/zmq_recv; zc: SendZeroCopy vs zmq_msg_init_data", "msg", "buf", "zc");
    private static readonly Option<IReadOnlyList<string>> s_modes = CliOptions.ListOf(
        "--modes", "blocking", "receive modes (the ones the native program has)", "blocking", "nonblocking", "poller");
    private static readonly Option<IReadOnlyList<int>> s_wakeSockets = CliOptions.IntList(
        "--wake-sockets", "1,1000,10000", "--latency: awaited wake-ups with this many receives pending, against a blocking wake-up");
    private static readonly Option<int?> s_count = CliOptions.OptionalInt("--count", "messages (round trips) per run, the same for both sides [default: from a native pilot run]");
    private static readonly Option<double> s_seconds = CliOptions.PositiveDouble("--seconds", 0.3, "native seconds of work that the pilot run sizes the count for");
    private static readonly Option<double> s_warmupSeconds = CliOptions.PositiveDouble(
        "--warmup-seconds", 2.0, "both sides run untimed batches of count messages on their sockets for at least this long before timing");

    public static Command Command { get; } = Build();

    private static Command Build()
    {
        Command command = CliOptions.Mode(
            "--native",
            "NetZeroMQ against native C on the same libzmq: interleaved child processes, markdown table; exit 3 if a run failed",
            Run,
            s_pin,
            s_mallocNeutral,
            s_latency,
            s_rounds,
            s_sizes,
            s_patterns,
            s_transports,
            s_apis,
            s_modes,
            s_wakeSockets,
            s_count,
            s_seconds,
            s_warmupSeconds);
        command.Validators.Add(result => RejectWithLatency(result, s_latency, s_patterns, s_apis, s_modes));
        command.Validators.Add(result =>
        {
            if (result.GetResult(s_wakeSockets) is { Implicit: false } && result.GetResult(s_latency) is not { Implicit: false })
            {
                result.AddError("--wake-sockets applies only with --latency");
            }
        });
        return command;
    }

    /// <summary>Options that mean nothing for round trips are usage errors with --latency, not silently ignored.</summary>
    public static void RejectWithLatency(CommandResult result, Option<bool> latency, params Option[] streamOnly)
    {
        if (result.GetResult(latency) is not { Implicit: false })
        {
            return;
        }

        foreach (Option option in streamOnly)
        {
            if (result.GetResult(option) is { Implicit: false })
            {
                result.AddError($"{option.Name} does not apply with --latency (round trips: reqrep and dealerrouter, the span path)");
            }
        }
    }

    /// <summary>--sizes as given, or 64 alone for round trips when it was not given.</summary>
    public static IReadOnlyList<int> Sizes(ParseResult options, Option<IReadOnlyList<int>> sizes, bool latency) =>
        latency && options.GetResult(sizes) is not { Implicit: false } ? new[] { 64 } : options.GetValue(sizes)!;

    private static int Run(ParseResult options)
    {
        bool pin = options.GetValue(s_pin);
        bool latency = options.GetValue(s_latency);

        // glibc returns freed heap memory to the kernel once the free top exceeds 128 KiB and maps chunks of 128 KiB and
        // more; with large messages that costs page faults on every message, and how much depends on which malloc arena each
        // process's sending thread lands in, not on the binding. --malloc-neutral turns both off for both processes alike.
        IReadOnlyDictionary<string, string>? environment = options.GetValue(s_mallocNeutral)
            ? new Dictionary<string, string> { ["MALLOC_TRIM_THRESHOLD_"] = "1000000000", ["MALLOC_MMAP_THRESHOLD_"] = "1000000000" }
            : null;
        int rounds = options.GetValue(s_rounds);
        IReadOnlyList<int> sizes = Sizes(options, s_sizes, latency);
        IReadOnlyList<string> patterns = latency ? new[] { "reqrep", "dealerrouter" } : options.GetValue(s_patterns)!;
        IReadOnlyList<string> transports = options.GetValue(s_transports)!;
        IReadOnlyList<string> apis = latency ? new[] { "buf" } : options.GetValue(s_apis)!;
        IReadOnlyList<string> modes = latency ? RoundTripModes : options.GetValue(s_modes)!;
        int? fixedCount = options.GetValue(s_count);
        double seconds = options.GetValue(s_seconds);
        double warmupSeconds = options.GetValue(s_warmupSeconds);
        string? native = NativeProgram.Prepare(pin);
        if (native is null)
        {
            return 2;
        }

        var runner = new Interleaved(pin, environment);
        Console.WriteLine($"rounds={rounds} pin={(pin ? "taskset -c 0" : "none")} malloc={(environment is null ? "default" : "neutral")} warmup_seconds={Interleaved.Invariant(warmupSeconds)} cpus={Environment.ProcessorCount} load=\"{Reporting.Load.Text()}\" started={DateTime.UtcNow:yyyy-MM-dd HH:mm:ss}Z");
        // Which libzmq each side loads: the C program's own report (zmq_version's file) and this process's, which the .NET
        // children share (same environment). Draft cells run only when both have the draft API.
        ChildResult nativeLibzmq = runner.Start(NativeProgram.Command(native, new[] { "--draft-check" }));
        bool nativeDraft = nativeLibzmq.ExitCode == 0;
        bool dotnetDraft = DraftApi.IsAvailable;
        Console.WriteLine($"libzmq native ({NativeProgram.LibraryChoice}): {nativeLibzmq.Line}");
        Console.WriteLine($"libzmq .NET: libzmq={Context.Version} draft={(dotnetDraft ? 1 : 0)} libzmq_path={Libzmq.LoadedFrom}");
        IReadOnlyList<int> wakeSockets = latency ? options.GetValue(s_wakeSockets)! : Array.Empty<int>();
        int cells = patterns.Count * transports.Count * sizes.Count * apis.Count * modes.Count + wakeSockets.Count;
        using var progress = new ComparisonProgress(latency ? "--native --latency" : "--native", runner, cells, rounds, seconds, warmupSeconds, pin);
        var rows = new List<string>();
        foreach (string pattern in patterns)
        foreach (string transport in transports)
        foreach (int size in sizes)
        foreach (string api in apis)
        foreach (string mode in modes)
        {
            string[] cell = { "--pattern", pattern, "--transport", transport, "--size", Interleaved.Invariant(size), "--mode", mode, "--api", api };
            // Round trips: the C program always blocks; the .NET side blocks or awaits, against the same native baseline.
            string[] nativeCell = latency ? new[] { "--pattern", pattern, "--transport", transport, "--size", Interleaved.Invariant(size), "--mode", "blocking", "--api", api, "--roundtrip" } : cell;
            if (DraftNotRun(pattern, api, nativeDraft && dotnetDraft) is string notRun)
            {
                Console.WriteLine($"  {pattern} {transport} {size} {api} {mode}: {notRun}");
                rows.Add($"| {pattern} | {transport} | {size} | {api} | {mode} | - | {notRun} | | | | |");
                progress.Skipped($"{pattern} {transport} {size} {api} {mode}", notRun);
                continue;
            }

            int count = fixedCount ?? PilotCount(runner, native, nativeCell, size, seconds, latency);
            if (count <= 0)
            {
                rows.Add($"| {pattern} | {transport} | {size} | {(latency ? mode + " | " : api + " | " + mode + " | ")}- | pilot failed | | | | |");
                progress.Skipped($"{pattern} {transport} {size} {api} {mode}", "pilot failed");
                continue;
            }

            string n = Interleaved.Invariant(count);
            string w = Interleaved.Invariant(warmupSeconds);
            ChildCommand nativeCommand = NativeProgram.Command(native, nativeCell.Concat(new[] { "--count", n, "--warmup", n, "--warmup-seconds", w }).ToArray());
            ChildCommand dotnetCommand = latency
                ? Interleaved.Self(new[] { "--rtt-cell", "--impl", "netzeromq", "--mode", mode, "--pattern", pattern, "--transport", transport, "--size", Interleaved.Invariant(size), "--count", n, "--warmup", n, "--warmup-seconds", w })
                : Interleaved.Self(new[] { "--cell" }.Concat(cell).Concat(new[] { "--count", n, "--jit-warmup", n, "--jit-warmup-seconds", w }));
            string label = $"{pattern} {transport} {size} {(latency ? mode + " round trip" : api + " " + mode)} count={count}";
            if (latency)
            {
                (List<ChildResult> nr, List<ChildResult> dr) = runner.Run(label, rounds, nativeCommand, dotnetCommand, "native p50", ".NET " + mode + " p50", "rtt_p50_us", 1, " µs");
                rows.Add(LatencyRow(pattern, transport, size, mode, count, nr, dr));
                progress.Cell($"{pattern} {transport} {size} {mode} round trip", nr, dr, "rtt_p50_us", "p50 .NET / native");
                continue;
            }

            (List<ChildResult> nativeRuns, List<ChildResult> dotnetRuns) = runner.Run(label, rounds, nativeCommand, dotnetCommand, "native", ".NET");
            Stats ns = Interleaved.Of(nativeRuns, "msg_per_sec");
            Stats ds = Interleaved.Of(dotnetRuns, "msg_per_sec");
            progress.Cell($"{pattern} {transport} {size} {api} {mode}", nativeRuns, dotnetRuns, "msg_per_sec", ".NET / native");
            if (nativeRuns.Count > 0 && dotnetRuns.Count > 0)
            {
                runner.Log.WriteLine($"  loaded: native {nativeRuns[0].LoadedLibzmq}; .NET {dotnetRuns[0].LoadedLibzmq}");
            }

            rows.Add($"| {pattern} | {transport} | {size} | {api} | {mode} | {count:N0} | {ns.Median:N0} | {ns.Spread:P0} | {ds.Median:N0} | {ds.Spread:P0} | {Interleaved.Ratio(ds.Median, ns.Median)} |");
        }

        var wakeRows = new List<string>();
        foreach (int sockets in wakeSockets)
        {
            int count = fixedCount ?? Math.Max(20_000, 2 * sockets);
            string n = Interleaved.Invariant(count);
            string[] timing = { "--count", n, "--warmup", n, "--warmup-seconds", Interleaved.Invariant(warmupSeconds) };
            ChildCommand blocking = Interleaved.Self(new[] { "--wake-cell", "--mode", "blocking" }.Concat(timing));
            ChildCommand awaited = Interleaved.Self(new[] { "--wake-cell", "--mode", "async", "--sockets", Interleaved.Invariant(sockets) }.Concat(timing));
            (List<ChildResult> br, List<ChildResult> ar) = runner.Run($"wake-up, {sockets} pending, count={count}", rounds, blocking, awaited, "blocking p50", "awaited p50", "wake_p50_us", 1, " µs");
            wakeRows.Add(LatencyRow("wake-up", "inproc", 64, $"async, {sockets:N0} pending", count, br, ar, "wake"));
            progress.Cell($"wake-up, {sockets} pending", br, ar, "wake_p50_us", "p50 awaited / blocking");
        }

        Console.WriteLine();
        string placement = pin ? "all threads on CPU 0 via taskset -c 0" : "unpinned";
        string warm = $"both sides after at least {Interleaved.Invariant(warmupSeconds)} s of untimed batches of count on the same sockets";
        if (latency)
        {
            Console.WriteLine($"Round trips, 64 B unless --sizes: median over {rounds} interleaved rounds of each run's p50 and p99 ({placement}; {warm}).");
            Console.WriteLine("Ratios are .NET / native latency: above 1.00 is slower. Spread = (max - min) / median of the p50s.");
            Console.WriteLine();
            Console.WriteLine("Mode: how the .NET side waits (blocking calls, or awaited SendAsync/RecvAsync on both sides); native C always blocks.");
            Console.WriteLine(AwaitedContinuations());
            Console.WriteLine();
            Console.WriteLine("| pattern | transport | size | mode | round trips | native p50 µs | native spread | .NET p50 µs | .NET spread | p50 .NET / native | native p99 µs | .NET p99 µs | p99 .NET / native |");
            Console.WriteLine("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        }
        else
        {
            Console.WriteLine($"Median msg/s over {rounds} interleaved rounds ({placement}; {warm}); spread = (max - min) / median.");
            Console.WriteLine();
            Console.WriteLine("| pattern | transport | size | api | mode | count | native msg/s | native spread | .NET msg/s | .NET spread | .NET / native |");
            Console.WriteLine("|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|");
        }

        int exit = runner.PrintRows(rows);
        if (wakeRows.Count > 0)
        {
            Console.WriteLine();
            Console.WriteLine("Wake-ups (one way, from the ROUTER's send to the waiting DEALER running again), inproc 64 B: a thread blocked in Recv");
            Console.WriteLine("(the reference) against an awaited RecvAsync with N receives pending in the reactor. Ratios: awaited / blocking.");
            Console.WriteLine(AwaitedContinuations());
            Console.WriteLine();
            Console.WriteLine("| pattern | transport | size | mode | wake-ups | blocking p50 µs | blocking spread | awaited p50 µs | awaited spread | p50 awaited / blocking | blocking p99 µs | awaited p99 µs | p99 awaited / blocking |");
            Console.WriteLine("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
            wakeRows.ForEach(Console.WriteLine);
        }

        progress.Finish();
        return exit;
    }

    /// <summary>Why a draft cell is not run (no draft API on either side; a RADIO sends Messages only), or null.</summary>
    public static string? DraftNotRun(string pattern, string api, bool draftApi)
    {
        if (!Enum.TryParse(pattern, ignoreCase: true, out Pattern parsed) || !Patterns.IsDraft(parsed))
        {
            return null;
        }

        if (!draftApi)
        {
            return Patterns.NoDraftApi;
        }

        return parsed == Pattern.RadioDish && api != "msg" ? "not run: every RADIO message carries a group, so only --apis msg" : null;
    }

    /// <summary>The .NET side's ways of waiting in a round trip (--rtt-cell --mode).</summary>
    public static readonly IReadOnlyList<string> RoundTripModes = new[] { "blocking", "async" };

    /// <summary>
    /// One markdown row of latencies (<paramref name="prefix"/>_p50_us and _p99_us: round trips or wake-ups): p50 and p99
    /// medians of both sides and their ratios.
    /// </summary>
    public static string LatencyRow(string pattern, string transport, int size, string mode, int count, List<ChildResult> baseline, List<ChildResult> candidate, string prefix = "rtt")
    {
        Stats b50 = Interleaved.Of(baseline, prefix + "_p50_us");
        Stats c50 = Interleaved.Of(candidate, prefix + "_p50_us");
        Stats b99 = Interleaved.Of(baseline, prefix + "_p99_us");
        Stats c99 = Interleaved.Of(candidate, prefix + "_p99_us");
        return string.Create(
            CultureInfo.InvariantCulture,
            $"| {pattern} | {transport} | {size} | {mode} | {count:N0} | {b50.Median:F1} | {b50.Spread:P0} | {c50.Median:F1} | {c50.Spread:P0} | {Interleaved.Ratio(c50.Median, b50.Median)} | {b99.Median:F1} | {c99.Median:F1} | {Interleaved.Ratio(c99.Median, b99.Median)} |");
    }

    /// <summary>Where this run's awaited continuations ran (the child processes inherit the variable that decides it).</summary>
    private static string AwaitedContinuations() => NetZeroMQ.InlineCompletions.Enabled
        ? $"Awaited continuations ran on the reactor thread ({AsyncSwitches.InlineCompletions}=1: NetZeroMQ.InlineAsyncCompletions on)."
        : $"Awaited continuations ran on thread-pool threads (the default; {AsyncSwitches.InlineCompletions}=1 runs them on the reactor thread).";

    /// <summary>
    /// Count for about <paramref name="seconds"/> of native work, from a short native run: long enough that the first message's
    /// latency and the clock's resolution do not matter, short enough that many interleaved rounds fit in a few minutes.
    /// </summary>
    public static int PilotCount(Interleaved runner, string native, string[] cell, int size, double seconds, bool roundTrips)
    {
        int pilot = roundTrips ? 2_000 : size <= 64 ? 100_000 : size <= 1024 ? 50_000 : 3_000;
        ChildResult result = runner.Start(NativeProgram.Command(native, cell.Concat(new[] { "--count", Interleaved.Invariant(pilot) }).ToArray()));
        if (!result.Ok)
        {
            runner.Fail();
            Console.Error.WriteLine($"pilot failed (exit {result.ExitCode}): {result.Error}");
            return -1;
        }

        return (int)Math.Clamp(result.MessagesPerSecond!.Value * seconds, 1_000, 50_000_000);
    }
}
