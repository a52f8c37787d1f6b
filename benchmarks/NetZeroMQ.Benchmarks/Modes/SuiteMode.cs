using System;
using System.Collections.Generic;
using System.CommandLine;
using System.CommandLine.Parsing;
using System.Linq;
using System.Reflection;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.ConsoleArguments;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using NetZeroMQ.Benchmarks.Cli;
using NetZeroMQ.Benchmarks.Configs;
using NetZeroMQ.Benchmarks.Reporting;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>
/// The BenchmarkDotNet suite: what runs when no mode is given. Its options are --quick and --job (which choose the job of
/// BenchmarkConfig) and the BenchmarkDotNet options this tool supports, which this tool's parser checks and then hands to
/// BenchmarkSwitcher unchanged. A selection that matches no benchmark is an error, not an empty run.
/// </summary>
public static class SuiteMode
{
    /// <summary>The benchmark classes: public, in the root namespace (their published names), named *Benchmarks.</summary>
    public static IReadOnlyList<Type> BenchmarkTypes { get; } = typeof(SuiteMode).Assembly.GetTypes()
        .Where(t => t.Namespace == "NetZeroMQ.Benchmarks" && t.IsClass && t.IsPublic && !t.IsAbstract && t.Name.EndsWith("Benchmarks", StringComparison.Ordinal))
        .OrderBy(t => t.Name, StringComparer.Ordinal)
        .ToList();

    private static readonly string[] s_categories = typeof(Categories).GetFields(BindingFlags.Public | BindingFlags.Static)
        .Where(f => f.IsLiteral)
        .Select(f => (string)f.GetRawConstantValue()!)
        .ToArray();

    // BenchmarkDotNet 0.14's exporter names; its own parser would reject any other.
    private static readonly string[] s_exporters =
    {
        "csv", "csvmeasurements", "html", "markdown", "atlassian", "stackoverflow", "github", "plain", "rplot", "json", "briefjson",
        "fulljson", "asciidoc", "xml", "briefxml", "fullxml",
    };

    private static readonly Option<bool> s_quick = CliOptions.Flag(
        "--quick", "1 launch, 1 warm-up and 3 iterations of 200 ms: the whole suite in a few minutes; differences under ~10 % are noise");

    private static readonly Option<string?> s_job = CliOptions.OptionalOneOf(
        "--job", "BenchmarkDotNet's run-length presets instead of the full default job (dry: one iteration, to check that cases run)", BenchmarkJobs.Names, "-j");

    private static readonly Option<string[]> s_filter = CliOptions.Many(
        "--filter", "glob", "the cases whose full name matches one of the globs, e.g. '*Throughput*PushPull*'", null, "-f");

    private static readonly Option<string?> s_list = CliOptions.OptionalOneOf(
        "--list", "list the selected benchmarks (BenchmarkDotNet's listing, then every case with its parameters) and run nothing", new[] { "flat", "tree" });

    private static readonly Option<string[]> s_anyCategories = CliOptions.Many(
        "--anyCategories", "category", "the cases in any of these categories: " + string.Join(", ", s_categories), s_categories);

    private static readonly Option<string[]> s_allCategories = CliOptions.Many(
        "--allCategories", "category", "the cases in all of these categories: " + string.Join(", ", s_categories), s_categories);

    private static readonly Option<string[]> s_exportersOption = CliOptions.Many(
        "--exporters", "name", "result files besides the default csv, html and GitHub markdown: " + string.Join(", ", s_exporters), s_exporters, "-e");

    private static readonly Option<string?> s_artifacts = new("--artifacts", "-a")
    {
        Description = "folder for BenchmarkDotNet's results and generated projects [default: ./BenchmarkDotNet.Artifacts]",
        HelpName = "dir",
    };

    private static readonly Option<bool> s_join = CliOptions.Flag("--join", "one summary table for all classes instead of one per class");
    private static readonly Option<bool> s_stopOnFirstError = CliOptions.Flag("--stopOnFirstError", "stop at the first case that fails");

    /// <summary>The suite's options, in the order the help lists them.</summary>
    public static IReadOnlyList<Option> Options { get; } = new Option[]
    {
        s_quick, s_job, s_filter, s_anyCategories, s_allCategories, s_list, s_exportersOption, s_artifacts, s_join, s_stopOnFirstError,
    };

    /// <summary>Errors the parser cannot see option by option: two job choices at once.</summary>
    public static void Validate(CommandResult result)
    {
        if (result.GetResult(s_quick) is { Implicit: false } && result.GetResult(s_job) is { Implicit: false })
        {
            result.AddError("--quick and --job both choose the job: give one of them");
        }
    }

    public static int Run(ParseResult options)
    {
        Job job = options.GetValue(s_job) is { } name ? BenchmarkJobs.Named(name) : options.GetValue(s_quick) ? BenchmarkJobs.Quick : BenchmarkJobs.Full;
        IConfig config = BenchmarkConfig.Create(job);
        string[] arguments = BenchmarkDotNetArguments(options);
        IReadOnlyList<BenchmarkRunInfo>? selection = Select(arguments, config);
        if (selection is null)
        {
            return BenchmarkCli.UsageError;
        }

        if (selection.Count == 0)
        {
            Console.Error.WriteLine("error: no benchmark matches " + string.Join(" ", arguments));
            Console.Error.WriteLine("'--list flat' lists every case with its categories (" + string.Join(", ", s_categories) + ");");
            Console.Error.WriteLine("a --filter glob matches the full name, e.g. '*ThroughputBenchmarks.PushPull*' or '*Tcp*'.");
            return BenchmarkCli.UsageError;
        }

        if (options.GetValue(s_list) is not null)
        {
            BenchmarkSwitcher.FromTypes(BenchmarkTypes.ToArray()).Run(arguments, config);
            CaseListing.Print(selection);
            return 0;
        }

        // Running: BenchmarkDotNet's output goes to the log, the console gets a line per class and the end.
        int cases = selection.Sum(s => s.BenchmarksCases.Length);
        double perCase = BenchmarkJobs.SecondsPerCase(job);
        RunFiles files = RunFiles.Create("suite-" + job.Id.ToLowerInvariant());
        using var log = new SuiteLog(files.Log);
        var progress = new SuiteProgress(Console.Out, selection.Count, cases, perCase);
        Console.WriteLine(
            $"BenchmarkDotNet suite: {cases} cases in {selection.Count} classes, job {job.Id}: " +
            $"{Progress.About(TimeSpan.FromSeconds(SuiteProgress.BuildSeconds + cases * perCase))} on a quiet 2-CPU machine; {Load.Describe(Load.Text(), Environment.ProcessorCount)}.");
        Console.WriteLine("Log (BenchmarkDotNet's output: every iteration, the summary table of each class): " + RunFiles.Show(files.Log));
        OtherWork.Sample? started = OtherWork.Take();
        Summary[] summaries = BenchmarkSwitcher.FromTypes(BenchmarkTypes.ToArray()).Run(arguments, BenchmarkConfig.Create(job, log, progress)).ToArray();
        log.Flush();

        if (summaries.Length == 0)
        {
            Console.Error.WriteLine("error: BenchmarkDotNet ran nothing for " + string.Join(" ", arguments));
            return 1;
        }

        bool failed = summaries.Any(s => s.HasCriticalValidationErrors || s.Reports.Any(r => !r.Success));
        int failedCases = summaries.Sum(s => s.Reports.Count(r => !r.Success));
        double? otherCpus = OtherWork.CpusBetween(started, OtherWork.Take());
        Console.WriteLine(
            $"Suite done in {Progress.Clock(progress.Elapsed)}: {summaries.Sum(s => s.BenchmarksCases.Length)} cases, {(failedCases == 0 ? "none failed" : failedCases + " FAILED")}" +
            $"{(summaries.Any(s => s.HasCriticalValidationErrors) ? ", validation errors (see the log)" : "")}; {OtherWork.Describe(otherCpus)} on average" +
            $"{(otherCpus > Reliability.MaxOtherCpus ? ": above " + Reliability.MaxOtherCpus.ToString("F2", System.Globalization.CultureInfo.InvariantCulture) + ", differences between cases are not reliable" : "")}.");
        Console.WriteLine("Summary tables: " + RunFiles.Show(files.Log) + "; BenchmarkDotNet's reports (csv, html, GitHub markdown per class): " +
            RunFiles.Show(summaries.Select(s => s.ResultsDirectoryPath).FirstOrDefault() ?? "BenchmarkDotNet.Artifacts/results"));
        return failed ? 1 : 0;
    }

    /// <summary>The options handed to BenchmarkSwitcher, as BenchmarkDotNet spells them.</summary>
    private static string[] BenchmarkDotNetArguments(ParseResult options)
    {
        var arguments = new List<string>();
        string[] filters = options.GetValue(s_filter) ?? Array.Empty<string>();
        string[] any = options.GetValue(s_anyCategories) ?? Array.Empty<string>();
        string[] all = options.GetValue(s_allCategories) ?? Array.Empty<string>();

        // No selection means the whole suite, not BenchmarkDotNet's interactive menu.
        if (filters.Length == 0 && any.Length == 0 && all.Length == 0)
        {
            filters = new[] { "*" };
        }

        AddMany(arguments, "--filter", filters);
        AddMany(arguments, "--anyCategories", any);
        AddMany(arguments, "--allCategories", all);
        AddMany(arguments, "--exporters", options.GetValue(s_exportersOption) ?? Array.Empty<string>());
        if (options.GetValue(s_artifacts) is { } artifacts)
        {
            arguments.Add("--artifacts");
            arguments.Add(artifacts);
        }

        if (options.GetValue(s_list) is { } list)
        {
            arguments.Add("--list");
            arguments.Add(list);
        }

        if (options.GetValue(s_join))
        {
            arguments.Add("--join");
        }

        if (options.GetValue(s_stopOnFirstError))
        {
            arguments.Add("--stopOnFirstError");
        }

        return arguments.ToArray();
    }

    /// <summary>
    /// The cases BenchmarkSwitcher will run: BenchmarkDotNet's own parser and converter with the same arguments and config, so
    /// the selection is BenchmarkDotNet's, known before anything is built. Null (after BenchmarkDotNet said why) if it rejects
    /// the arguments, which this tool's parser should have prevented.
    /// </summary>
    private static IReadOnlyList<BenchmarkRunInfo>? Select(string[] arguments, IConfig config)
    {
        (bool ok, IConfig parsed, _) = ConfigParser.Parse(arguments, ConsoleLogger.Default, config);
        if (!ok)
        {
            Console.Error.WriteLine("error: BenchmarkDotNet rejected " + string.Join(" ", arguments));
            return null;
        }

        IConfig effective = ManualConfig.Union(config, parsed);
        return BenchmarkTypes
            .Select(type => BenchmarkConverter.TypeToBenchmarks(type, effective))
            .Where(info => info.BenchmarksCases.Length > 0)
            .ToList();
    }

    private static void AddMany(List<string> arguments, string name, string[] values)
    {
        if (values.Length > 0)
        {
            arguments.Add(name);
            arguments.AddRange(values);
        }
    }
}
