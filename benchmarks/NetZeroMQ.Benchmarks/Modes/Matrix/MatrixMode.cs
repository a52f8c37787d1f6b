using System;
using System.Collections.Generic;
using System.CommandLine;
using System.CommandLine.Parsing;
using System.IO;
using System.Linq;
using System.Text.Json;
using NetZeroMQ.Benchmarks.Cli;
using NetZeroMQ.Benchmarks.Transfer;

namespace NetZeroMQ.Benchmarks.Modes.Matrix;

/// <summary>
/// --matrix: the achievement matrix, every pattern x transport x size as NetZeroMQ / native libzmq, with --native's method
/// (per cell a native pilot run sizes the count, then interleaved rounds of fresh child processes: native, .NET, and NetMQ
/// with --with-netmq where NetMQ has the cell; the same count and the same untimed warm-up on every side). Prints the
/// achievement table (median ratio and coefficient of variation per cell), the mean, the cells below 0.90 and the combined
/// table, and writes them with a chart (PNG) and the raw numbers (JSON) to a results folder it names. --from FILE redraws
/// the tables and the chart from an earlier results file without measuring.
/// </summary>
public static class MatrixMode
{
    private static readonly string[] s_allPatterns = { "pushpull", "pair", "pubsub", "dealerdealer", "dealerrouter", "routerrouter", "routerrouterpoller" };

    private static readonly Option<bool> s_pin = CliOptions.Flag("--pin", "run every side under taskset -c 0 (every thread on CPU 0): the reproducible ratio");
    private static readonly Option<int> s_rounds = CliOptions.Int("--rounds", 3, "interleaved rounds per cell; each cell shows the median ratio and its coefficient of variation");
    private static readonly Option<IReadOnlyList<int>> s_sizes = CliOptions.IntList("--sizes", "64,256,1024,65536,131072,262144", "message sizes in bytes");
    private static readonly Option<IReadOnlyList<string>> s_patterns = CliOptions.ListOf(
        "--patterns", string.Join(",", s_allPatterns), "socket pairs (routerrouterpoller: the receiver waits in a poller before every message)", s_allPatterns);
    private static readonly Option<IReadOnlyList<string>> s_transports = CliOptions.ListOf(
        "--transports", "inproc,ipc,tcp", "transports", Enum.GetValues<Transport>().Select(CliOptions.NameOf).ToArray());
    private static readonly Option<string> s_api = CliOptions.OneOf(
        "--api", "buf", "buf: spans vs zmq_send/zmq_recv; msg: Message vs zmq_msg_*; zc: SendZeroCopy vs zmq_msg_init_data", "buf", "msg", "zc");
    private static readonly Option<int?> s_count = CliOptions.OptionalInt("--count", "messages per run, the same for every side [default: from a native pilot run]");
    private static readonly Option<double> s_seconds = CliOptions.PositiveDouble("--seconds", 0.2, "native seconds of work that the pilot run sizes each cell's count for");
    private static readonly Option<double> s_warmupSeconds = CliOptions.PositiveDouble(
        "--warmup-seconds", 1.0, "every side runs untimed batches of count messages on its sockets for at least this long before timing");
    private static readonly Option<bool> s_withNetMq = CliOptions.Flag(
        "--with-netmq", "also run NetMQ 4.0.4.5 in the cells it has (pushpull, pubsub over inproc, tcp; buf or msg), for the .NET / NetMQ column");
    private static readonly Option<string?> s_results = new("--results")
    {
        Description = "folder for the results (matrix-<time>.md, .json, .png) [default: artifacts/bench in the repository]",
        HelpName = "DIR",
    };

    private static readonly Option<string?> s_chart = new("--chart")
    {
        Description = "also write the chart to this PNG file (the benchmark README's image)",
        HelpName = "FILE",
    };

    private static readonly Option<string?> s_from = new("--from")
    {
        Description = "no measuring: print the tables of this results file (.json) again and redraw its chart (with --chart)",
        HelpName = "FILE",
    };

    public static Command Command { get; } = Build();

    private static Command Build()
    {
        Command command = CliOptions.Mode(
            "--matrix",
            "achievement ratios NetZeroMQ / native over patterns x transports x sizes, with the combined table, a results file and a chart; exit 3 if a run failed",
            Run,
            s_pin,
            s_rounds,
            s_sizes,
            s_patterns,
            s_transports,
            s_api,
            s_count,
            s_seconds,
            s_warmupSeconds,
            s_withNetMq,
            s_results,
            s_chart,
            s_from);
        command.Validators.Add(RejectMeasuringWithFrom);
        return command;
    }

    /// <summary>--from measures nothing: an option that would change a measurement is a usage error, not silently ignored.</summary>
    private static void RejectMeasuringWithFrom(CommandResult result)
    {
        if (result.GetResult(s_from) is not { Implicit: false })
        {
            return;
        }

        foreach (Option option in new Option[] { s_pin, s_rounds, s_sizes, s_patterns, s_transports, s_api, s_count, s_seconds, s_warmupSeconds, s_withNetMq, s_results })
        {
            if (result.GetResult(option) is { Implicit: false })
            {
                result.AddError($"{option.Name} does not apply with --from (it measures nothing: it prints and draws the results file)");
            }
        }
    }

    private static int Run(ParseResult options)
    {
        string? chart = options.GetValue(s_chart);
        if (options.GetValue(s_from) is { } from)
        {
            return Redraw(from, chart);
        }

        bool pin = options.GetValue(s_pin);
        string? native = NativeProgram.Prepare(pin);
        if (native is null)
        {
            return 2;
        }

        string folder = options.GetValue(s_results) ?? Path.Combine(NativeProgram.FindRepositoryRoot()!, "artifacts", "bench");
        Directory.CreateDirectory(folder);
        var results = new MatrixResults
        {
            Started = DateTime.UtcNow.ToString("yyyy-MM-dd HH:mm:ss'Z'", System.Globalization.CultureInfo.InvariantCulture),
            Command = "dotnet run -c Release -- " + string.Join(" ", Environment.GetCommandLineArgs().Skip(1)),
            Api = options.GetValue(s_api)!,
            Rounds = options.GetValue(s_rounds),
            Seconds = options.GetValue(s_seconds),
            WarmupSeconds = options.GetValue(s_warmupSeconds),
            Pinned = pin,
            Cpus = Environment.ProcessorCount,
            LoadAtStart = Interleaved.LoadAverage(),
        };
        var runner = new Interleaved(pin);
        var plan = (
            from pattern in options.GetValue(s_patterns)!
            from transport in options.GetValue(s_transports)!
            from size in options.GetValue(s_sizes)!
            select new MatrixCell { Pattern = pattern, Transport = transport, Size = size }).ToList();
        Console.WriteLine($"--matrix: {plan.Count} cells x {results.Rounds} rounds, api={results.Api} pin={(pin ? "taskset -c 0" : "none")} warmup_seconds={Interleaved.Invariant(results.WarmupSeconds)} cpus={results.Cpus} load=\"{results.LoadAtStart}\" started={results.Started}");
        var clock = System.Diagnostics.Stopwatch.StartNew();
        foreach ((MatrixCell cell, int index) in plan.Select((c, i) => (c, i)))
        {
            Console.WriteLine($"cell {index + 1}/{plan.Count} ({clock.Elapsed:mm\\:ss} elapsed)");
            Measure(runner, native, cell, options);
            results.Cells.Add(cell);
        }

        results.Finished = DateTime.UtcNow.ToString("yyyy-MM-dd HH:mm:ss'Z'", System.Globalization.CultureInfo.InvariantCulture);
        results.LoadAtEnd = Interleaved.LoadAverage();
        string stem = Path.Combine(folder, "matrix-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", System.Globalization.CultureInfo.InvariantCulture));
        File.WriteAllText(stem + ".json", JsonSerializer.Serialize(results, new JsonSerializerOptions { WriteIndented = true }));
        Publish(results, stem, chart);
        Console.WriteLine($"results: {stem}.md (tables), {stem}.json (every run), {stem}.png (chart); {clock.Elapsed:h\\:mm\\:ss} for {plan.Count} cells");
        if (runner.Failures > 0)
        {
            Console.WriteLine(runner.Failures + " run(s) failed; see the messages above. Medians are over the successful rounds only.");
        }

        return runner.Failures == 0 ? 0 : 3;
    }

    /// <summary>Pilot, then the interleaved rounds of one cell; fills the cell in.</summary>
    private static void Measure(Interleaved runner, string native, MatrixCell cell, ParseResult options)
    {
        string api = options.GetValue(s_api)!;
        string s = Interleaved.Invariant(cell.Size);
        string[] spec = { "--pattern", cell.Pattern, "--transport", cell.Transport, "--size", s, "--mode", "blocking", "--api", api };
        int count = options.GetValue(s_count) ?? NativeComparisonMode.PilotCount(runner, native, spec, cell.Size, options.GetValue(s_seconds), roundTrips: false);
        if (count <= 0)
        {
            cell.NotRun = "the native pilot run failed (message above)";
            return;
        }

        cell.Count = count;
        string n = Interleaved.Invariant(count);
        string w = Interleaved.Invariant(options.GetValue(s_warmupSeconds));
        var sides = new List<(string Name, ChildCommand Command)>
        {
            ("native", NativeProgram.Command(native, spec.Concat(new[] { "--count", n, "--warmup", n, "--warmup-seconds", w }).ToArray())),
            (".NET", Interleaved.Self(new[] { "--cell" }.Concat(spec).Concat(new[] { "--count", n, "--jit-warmup", n, "--jit-warmup-seconds", w }))),
        };
        cell.NetMqNotRun = NetMqMissing(cell, api, options.GetValue(s_withNetMq));
        if (cell.NetMqNotRun is null)
        {
            string[] netmq = { "--netmq-cell", "--pattern", cell.Pattern, "--transport", cell.Transport, "--size", s, "--api", api == "buf" ? "frame" : "msg" };
            sides.Add(("NetMQ", Interleaved.Self(netmq.Concat(new[] { "--count", n, "--warmup", n, "--warmup-seconds", w }))));
        }

        ChildResult[][] rounds = runner.RunRounds($"{MatrixReport.Name(cell)} count={count}", options.GetValue(s_rounds), sides);
        cell.Native = rounds.Select(r => r[0].Field("msg_per_sec")).ToList();
        cell.Dotnet = rounds.Select(r => r[1].Field("msg_per_sec")).ToList();
        cell.DotnetBytesPerMessage = rounds.Select(r => r[1].Field("alloc_bytes_per_msg")).ToList();
        if (cell.NetMqNotRun is null)
        {
            cell.NetMq = rounds.Select(r => r[2].Field("msg_per_sec")).ToList();
            cell.NetMqBytesPerMessage = rounds.Select(r => r[2].Field("alloc_bytes_per_msg")).ToList();
        }
    }

    /// <summary>Why NetMQ has no number in a cell, or null when it runs there.</summary>
    private static string? NetMqMissing(MatrixCell cell, string api, bool asked)
    {
        if (cell.Pattern is not ("pushpull" or "pubsub"))
        {
            return "the NetMQ comparison has PUSH/PULL and PUB/SUB only";
        }

        if (cell.Transport == "ipc")
        {
            return "NetMQ has no real ipc transport";
        }

        if (api == "zc")
        {
            return "NetMQ has no zero-copy send";
        }

        return asked ? null : "not asked for (--with-netmq)";
    }

    /// <summary>Prints the tables; writes them to stem.md and the chart to stem.png unless stem is null; the chart to --chart too.</summary>
    private static void Publish(MatrixResults results, string? stem, string? chart)
    {
        var text = new StringWriter();
        MatrixReport.Write(text, results);
        Console.WriteLine();
        Console.Write(text.ToString());
        if (stem is not null)
        {
            File.WriteAllText(stem + ".md", text.ToString());
            MatrixChart.Save(results, stem + ".png");
        }

        if (chart is not null)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(chart))!);
            MatrixChart.Save(results, chart);
            Console.WriteLine("chart: " + Path.GetFullPath(chart));
        }
    }

    private static int Redraw(string from, string? chart)
    {
        MatrixResults? results;
        try
        {
            results = JsonSerializer.Deserialize<MatrixResults>(File.ReadAllText(from));
        }
        catch (Exception e)
        {
            // Decided here, not in a 'when' filter: src/NetZeroMQ/README.md, "Exception filters".
            if (!(e is IOException or JsonException or UnauthorizedAccessException))
            {
                throw;
            }

            Console.Error.WriteLine($"error: --from {from}: {e.Message}");
            return 2;
        }

        if (results is null || results.Cells.Count == 0)
        {
            Console.Error.WriteLine($"error: --from {from}: not a --matrix results file (no cells)");
            return 2;
        }

        Publish(results, stem: null, chart);
        return 0;
    }
}
