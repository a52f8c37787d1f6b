using System;
using System.Collections.Generic;
using System.CommandLine;
using System.Globalization;
using System.IO;
using System.Linq;
using NetZeroMQ.Benchmarks.Cli;
using NetZeroMQ.Benchmarks.Transfer;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>
/// --native: NetZeroMQ against plain C on the same libzmq. Builds benchmarks/native, then for each cell runs interleaved rounds
/// (native, .NET, native, .NET, ...), each a fresh child process with the same count, both under "taskset -c 0" with --pin.
/// Interleaving in one sitting matters on a shared VM: ratios built from numbers taken minutes apart are not trustworthy.
/// Prints the median msg/s of each side, their spread ((max - min) / median) and the ratio .NET / native. The count comes
/// from a native pilot run (--seconds of work, default 0.3) unless --count is given.
/// </summary>
public static class NativeComparisonMode
{
    private static readonly TimeSpan ChildTimeout = TimeSpan.FromMinutes(2);

    private static readonly Option<bool> s_pin = CliOptions.Flag("--pin", "run both sides under taskset -c 0 (every thread on CPU 0): the reproducible ratio");
    private static readonly Option<bool> s_unchecked = CliOptions.Flag("--unchecked", "run the .NET side with the concurrency checks off (NetZeroMQ.DisableConcurrentUseDetection)");
    private static readonly Option<bool> s_mallocNeutral = CliOptions.Flag(
        "--malloc-neutral", "set MALLOC_TRIM_THRESHOLD_ and MALLOC_MMAP_THRESHOLD_ to 1e9 for both processes (removes glibc's trimming noise at 64 KiB+)");
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
    private static readonly Option<int?> s_count = CliOptions.OptionalInt("--count", "messages per run, the same for both sides [default: from a native pilot run]");
    private static readonly Option<double> s_seconds = CliOptions.PositiveDouble("--seconds", 0.3, "native seconds of work that the pilot run sizes the count for");

    public static Command Command { get; } = CliOptions.Mode(
        "--native",
        "NetZeroMQ against native C on the same libzmq: interleaved child processes, markdown table; exit 3 if a run failed",
        Run,
        s_pin,
        s_unchecked,
        s_mallocNeutral,
        s_rounds,
        s_sizes,
        s_patterns,
        s_transports,
        s_apis,
        s_modes,
        s_count,
        s_seconds);

    private static int Run(ParseResult options)
    {
        bool pin = options.GetValue(s_pin);
        bool unchecked_ = options.GetValue(s_unchecked);

        // glibc returns freed heap memory to the kernel once the free top exceeds 128 KiB and maps chunks of 128 KiB and
        // more; with large messages that costs page faults on every message, and how much depends on which malloc arena each
        // process's sending thread lands in, not on the binding. --malloc-neutral turns both off for both processes alike.
        IReadOnlyDictionary<string, string>? environment = options.GetValue(s_mallocNeutral)
            ? new Dictionary<string, string> { ["MALLOC_TRIM_THRESHOLD_"] = "1000000000", ["MALLOC_MMAP_THRESHOLD_"] = "1000000000" }
            : null;
        int rounds = options.GetValue(s_rounds);
        IReadOnlyList<int> sizes = options.GetValue(s_sizes)!;
        IReadOnlyList<string> patterns = options.GetValue(s_patterns)!;
        IReadOnlyList<string> transports = options.GetValue(s_transports)!;
        IReadOnlyList<string> apis = options.GetValue(s_apis)!;
        IReadOnlyList<string> modes = options.GetValue(s_modes)!;
        int? fixedCount = options.GetValue(s_count);
        double seconds = options.GetValue(s_seconds);
        if (pin && !NativeProgram.OnPath("taskset"))
        {
            Console.Error.WriteLine("error: --pin needs taskset (Debian: util-linux)");
            return 2;
        }

        string? native = NativeProgram.Build();
        if (native is null)
        {
            return 2;
        }

        (string dotnetProgram, string[] dotnetPrefix) = SelfCommand();
        Console.WriteLine($"rounds={rounds} pin={(pin ? "taskset -c 0" : "none")} concurrency_checks={(unchecked_ ? "off" : "on")} malloc={(environment is null ? "default" : "neutral")} cpus={Environment.ProcessorCount} load=\"{LoadAverage()}\" started={DateTime.UtcNow:yyyy-MM-dd HH:mm:ss}Z");
        var rows = new List<string>();
        int failures = 0;
        foreach (string pattern in patterns)
        foreach (string transport in transports)
        foreach (int size in sizes)
        foreach (string api in apis)
        foreach (string mode in modes)
        {
            string[] cell = { "--pattern", pattern, "--transport", transport, "--size", Invariant(size), "--mode", mode, "--api", api };
            int count = fixedCount ?? PilotCount(native, cell, size, seconds, pin);
            if (count <= 0)
            {
                failures++;
                rows.Add($"| {pattern} | {transport} | {size} | {api} | {mode} | - | pilot failed | | | | |");
                continue;
            }

            string[] withCount = cell.Concat(new[] { "--count", Invariant(count) }).ToArray();
            var nativeRates = new List<double>();
            var dotnetRates = new List<double>();
            for (int round = 1; round <= rounds; round++)
            {
                ChildResult n = ChildProcess.Run(native, withCount, pin, ChildTimeout, environment);
                string[] dotnetCell = dotnetPrefix.Concat(new[] { "--cell" }).Concat(withCount).Concat(unchecked_ ? new[] { "--unchecked" } : Array.Empty<string>()).ToArray();
                ChildResult d = ChildProcess.Run(dotnetProgram, dotnetCell, pin, ChildTimeout, environment);
                Report(n, native, withCount, pin, nativeRates, ref failures);
                Report(d, dotnetProgram, withCount, pin, dotnetRates, ref failures);
                Console.WriteLine($"  {pattern} {transport} {size} {api} {mode} count={count} round {round}/{rounds}: native {Rate(n)}  .NET {Rate(d)}");
            }

            Stats ns = Stats.Of(nativeRates);
            Stats ds = Stats.Of(dotnetRates);
            string ratio = ns.Median > 0 && ds.Median > 0 ? (ds.Median / ns.Median).ToString("F2", CultureInfo.InvariantCulture) : "-";
            rows.Add($"| {pattern} | {transport} | {size} | {api} | {mode} | {count:N0} | {ns.Median:N0} | {ns.Spread:P0} | {ds.Median:N0} | {ds.Spread:P0} | {ratio} |");
        }

        Console.WriteLine();
        Console.WriteLine($"Median msg/s over {rounds} interleaved rounds ({(pin ? "all threads on CPU 0 via taskset -c 0" : "unpinned")}); spread = (max - min) / median.");
        Console.WriteLine();
        Console.WriteLine("| pattern | transport | size | api | mode | count | native msg/s | native spread | .NET msg/s | .NET spread | .NET / native |");
        Console.WriteLine("|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|");
        rows.ForEach(Console.WriteLine);
        if (failures > 0)
        {
            Console.WriteLine();
            Console.WriteLine(failures + " run(s) failed; see the messages above. Medians are over the successful runs only.");
        }

        return failures == 0 ? 0 : 3;
    }

    private static void Report(ChildResult result, string program, string[] arguments, bool pin, List<double> rates, ref int failures)
    {
        if (result.Ok)
        {
            rates.Add(result.MessagesPerSecond!.Value);
            return;
        }

        failures++;
        Console.Error.WriteLine($"run failed (exit {result.ExitCode}): {ChildProcess.CommandLine(program, arguments, pin)}");
        Console.Error.WriteLine("  " + result.Error.Replace("\n", "\n  ", StringComparison.Ordinal));
    }

    /// <summary>
    /// Count for about <paramref name="seconds"/> of native work, from a short native run: long enough that the first message's
    /// latency and the clock's resolution do not matter, short enough that many interleaved rounds fit in a few minutes.
    /// </summary>
    private static int PilotCount(string native, string[] cell, int size, double seconds, bool pin)
    {
        int pilot = size <= 64 ? 100_000 : size <= 1024 ? 50_000 : 3_000;
        ChildResult result = ChildProcess.Run(native, cell.Concat(new[] { "--count", Invariant(pilot) }).ToArray(), pin, ChildTimeout);
        if (!result.Ok)
        {
            Console.Error.WriteLine($"pilot failed (exit {result.ExitCode}): {result.Error}");
            return -1;
        }

        return (int)Math.Clamp(result.MessagesPerSecond!.Value * seconds, 1_000, 50_000_000);
    }

    /// <summary>How to start this program again: the apphost itself, or "dotnet NetZeroMQ.Benchmarks.dll".</summary>
    private static (string Program, string[] Prefix) SelfCommand()
    {
        string process = Environment.ProcessPath ?? "dotnet";
        string name = Path.GetFileNameWithoutExtension(process);
        return name == "dotnet"
            ? (process, new[] { typeof(NativeComparisonMode).Assembly.Location })
            : (process, Array.Empty<string>());
    }

    private static string Rate(ChildResult result) =>
        result.Ok ? (result.MessagesPerSecond!.Value / 1e6).ToString("F3", CultureInfo.InvariantCulture) + " M" : "FAILED";

    private static string LoadAverage()
    {
        try
        {
            return string.Join(" ", File.ReadAllText("/proc/loadavg").Split(' ').Take(3));
        }
        catch (IOException)
        {
            return "?";
        }
    }

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}
