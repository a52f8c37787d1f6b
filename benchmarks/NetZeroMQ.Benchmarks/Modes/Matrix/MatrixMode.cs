using System;
using System.Collections.Generic;
using System.CommandLine;
using System.CommandLine.Parsing;
using System.IO;
using System.Linq;
using System.Text.Json;
using NetZeroMQ.Benchmarks.Cli;
using NetZeroMQ.Benchmarks.Reporting;
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
    private static readonly Option<double?> s_warmupSeconds = CliOptions.OptionalPositiveDouble(
        "--warmup-seconds",
        "every side runs untimed batches of count messages on its sockets for at least this long before timing [default: 1, with --pin 2]");
    private static readonly Option<bool> s_withNetMq = CliOptions.Flag(
        "--with-netmq", "also run NetMQ 4.0.4.5 in the cells it has (pushpull, pubsub over inproc, tcp; buf or msg), for the .NET / NetMQ column");
    private static readonly Option<string?> s_results = new("--results")
    {
        Description = "folder for the results (<date>-<commit>-matrix.md, .json, .png, .log) [default: artifacts/bench in the repository]",
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

    /// <summary>
    /// The untimed warm-up when --warmup-seconds is not given. Pinned, the .NET side's background JIT shares the one CPU with
    /// the timed threads and tiers the hot paths up later: after 1 s the 64 B cells still ran partly unoptimised code and read
    /// 0.68 to 0.84 of native where 2 s read 0.82 to 0.95 (PUSH/PULL and ROUTER/ROUTER poller, inproc 64 B, 2026-11-28); unpinned
    /// it has the other CPU, and 1 s keeps the whole matrix near half an hour.
    /// </summary>
    private static double DefaultWarmupSeconds(bool pin) => pin ? 2.0 : 1.0;

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

        RunFiles files = RunFiles.Create(pin ? "matrix-pin" : "matrix", options.GetValue(s_results));
        var results = new MatrixResults
        {
            Started = DateTime.UtcNow.ToString("yyyy-MM-dd HH:mm:ss'Z'", System.Globalization.CultureInfo.InvariantCulture),
            Command = "dotnet run -c Release -- " + string.Join(" ", Environment.GetCommandLineArgs().Skip(1)),
            Api = options.GetValue(s_api)!,
            Rounds = options.GetValue(s_rounds),
            Seconds = options.GetValue(s_seconds),
            WarmupSeconds = options.GetValue(s_warmupSeconds) ?? DefaultWarmupSeconds(pin),
            Pinned = pin,
            Cpus = Environment.ProcessorCount,
            LoadAtStart = Load.Text(),
        };
        using var log = new StreamWriter(files.Log) { AutoFlush = true };
        var runner = new Interleaved(pin) { Log = log };
        var plan = (
            from pattern in options.GetValue(s_patterns)!
            from transport in options.GetValue(s_transports)!
            from size in options.GetValue(s_sizes)!
            select new MatrixCell { Pattern = pattern, Transport = transport, Size = size }).ToList();
        foreach (MatrixCell cell in plan)
        {
            cell.NetMqNotRun = NetMqMissing(cell, results.Api, options.GetValue(s_withNetMq));
        }

        double planned = plan.Sum(c => PlannedSeconds(c, results));
        int withNetMq = plan.Count(c => c.NetMqNotRun is null);
        Console.WriteLine(
            $"--matrix: {plan.Count} cells x {results.Rounds} interleaved rounds (native, .NET{(withNetMq > 0 ? $", NetMQ in {withNetMq} cells" : "")}), api={results.Api}, " +
            $"{(pin ? "pinned: taskset -c 0" : "unpinned (no --pin)")}, {Load.Describe(results.LoadAtStart, results.Cpus)}, {OtherWork.Describe(OtherWork.Now(TimeSpan.FromSeconds(1)))} in the last second, started {results.Started}");
        Console.WriteLine($"Estimated duration: {Progress.About(TimeSpan.FromSeconds(planned))} (longer on a loaded machine; the estimate follows the real pace after each cell).");
        Console.WriteLine($"Reliability: {Reliability.Rule}.");
        Console.WriteLine("Log (every round of every run): " + RunFiles.Show(files.Log));
        log.WriteLine($"--matrix {results.Command} started {results.Started}, load \"{results.LoadAtStart}\"");
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var progress = new Progress(Console.Out, plan.Count, planned, () => clock.Elapsed);
        OtherWork.Sample? runStart = OtherWork.Take();
        foreach (MatrixCell cell in plan)
        {
            TimeSpan cellStart = clock.Elapsed;
            OtherWork.Sample? before = OtherWork.Take();
            Measure(runner, native, cell, options, results.WarmupSeconds);
            cell.OtherCpus = OtherWork.CpusBetween(before, OtherWork.Take());
            cell.Seconds = Math.Round((clock.Elapsed - cellStart).TotalSeconds, 1);
            results.Cells.Add(cell);
            progress.Step(CellLine(cell, results), PlannedSeconds(cell, results));
        }

        results.Finished = DateTime.UtcNow.ToString("yyyy-MM-dd HH:mm:ss'Z'", System.Globalization.CultureInfo.InvariantCulture);
        results.LoadAtEnd = Load.Text();
        results.OtherCpus = OtherWork.CpusBetween(runStart, OtherWork.Take());
        File.WriteAllText(files.Json, JsonSerializer.Serialize(results, new JsonSerializerOptions { WriteIndented = true }));
        Publish(results, files, chart);
        Console.WriteLine($"{Progress.Clock(clock.Elapsed)} for {plan.Count} cells.");
        if (runner.Failures > 0)
        {
            Console.WriteLine(runner.Failures + " run(s) failed; see the messages above and the log. Medians are over the successful rounds only.");
        }

        return runner.Failures == 0 ? 0 : 3;
    }

    /// <summary>
    /// The planned cost of a cell in seconds: the pilot, then per round each side's start, warm-up and timed run. The constants
    /// are what a cell took on the 2-CPU machine when it was quiet (process start of a .NET child about 0.8 s, NetMQ about three
    /// times slower than native); the progress line scales the plan by the observed pace, so they only have to be about right.
    /// </summary>
    public static double PlannedSeconds(MatrixCell cell, MatrixResults results)
    {
        double native = 0.3 + results.WarmupSeconds + results.Seconds;
        double dotnet = 0.8 + results.WarmupSeconds + results.Seconds;
        double netmq = cell.NetMqNotRun is null ? 0.8 + results.WarmupSeconds + 3 * results.Seconds : 0;
        return 0.5 + results.Rounds * (native + dotnet + netmq);
    }

    /// <summary>A cell's progress text: "PUSH/PULL inproc 64 B: 1.02 (cv 3%), NetMQ 0.35" and why it is unreliable.</summary>
    public static string CellLine(MatrixCell cell, MatrixResults results)
    {
        string name = MatrixReport.Name(cell);
        if (cell.Missing() is { } missing)
        {
            return $"{name}: not measured ({missing})";
        }

        string line = $"{name}: .NET / native {MatrixReport.Fixed(cell.Achievement(), "F2")} (cv {MatrixReport.Percent(cell.Variation())})";
        if (cell.NetMqRatios().Count > 0)
        {
            line += $", .NET / NetMQ {MatrixReport.Fixed(MatrixCell.Median(cell.NetMqRatios()), "F2")}";
        }

        return cell.Unreliable(results) is { } why ? $"{line}, unreliable: {why}" : line;
    }

    /// <summary>Pilot, then the interleaved rounds of one cell; fills the cell in.</summary>
    private static void Measure(Interleaved runner, string native, MatrixCell cell, ParseResult options, double warmupSeconds)
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
        string w = Interleaved.Invariant(warmupSeconds);
        var sides = new List<(string Name, ChildCommand Command)>
        {
            ("native", NativeProgram.Command(native, spec.Concat(new[] { "--count", n, "--warmup", n, "--warmup-seconds", w }).ToArray())),
            (".NET", Interleaved.Self(new[] { "--cell" }.Concat(spec).Concat(new[] { "--count", n, "--jit-warmup", n, "--jit-warmup-seconds", w }))),
        };
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

    /// <summary>
    /// After a run: the summary on the console, the whole report in the results file, the chart beside it (and to --chart),
    /// and where each file is. With --from (no files): the whole report on the console.
    /// </summary>
    private static void Publish(MatrixResults results, RunFiles? files, string? chart)
    {
        Console.WriteLine();
        if (files is null)
        {
            MatrixReport.Write(Console.Out, results);
        }
        else
        {
            var text = new StringWriter();
            text.WriteLine($"# --matrix, {results.Started}");
            text.WriteLine();
            MatrixReport.Write(text, results);
            File.WriteAllText(files.Results, text.ToString());
            string axis = MatrixChart.Save(results, files.Chart);
            MatrixReport.WriteSummary(Console.Out, results);
            Console.WriteLine();
            Console.WriteLine("Results (every table, unreliable cells marked): " + RunFiles.Show(files.Results));
            Console.WriteLine("Chart: " + RunFiles.Show(files.Chart) + " (" + axis + ")");
            Console.WriteLine("Raw numbers: " + RunFiles.Show(files.Json) + "; log: " + RunFiles.Show(files.Log));
            Console.WriteLine("To record this run: copy the results file into benchmarks/results/ (see its README).");
        }

        if (chart is not null)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(chart))!);
            string axis = MatrixChart.Save(results, chart);
            Console.WriteLine("chart: " + Path.GetFullPath(chart) + " (" + axis + ")");
        }
    }

    /// <summary>The progress lines of a recorded run again, from its cells' recorded durations (cells without one count 0 s).</summary>
    private static void ReplayProgress(MatrixResults results)
    {
        double elapsed = 0;
        var progress = new Progress(Console.Out, results.Cells.Count, results.Cells.Sum(c => PlannedSeconds(c, results)), () => TimeSpan.FromSeconds(elapsed));
        foreach (MatrixCell cell in results.Cells)
        {
            elapsed += cell.Seconds ?? 0;
            progress.Step(CellLine(cell, results), PlannedSeconds(cell, results));
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

        ReplayProgress(results);
        Publish(results, files: null, chart);
        return 0;
    }
}
