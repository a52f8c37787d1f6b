using System;
using System.Collections.Generic;
using System.Linq;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Running;
using NetZeroMQ.Benchmarks.Configs;
using NetZeroMQ.Benchmarks.Modes;

namespace NetZeroMQ.Benchmarks;

/// <summary>
/// Dispatches the command line: a diagnostic mode (--test, --mode-test, --alloc-test, --native, --cell) or BenchmarkDotNet.
/// Anything else (--filter, --list, --anyCategories, ...) goes to BenchmarkSwitcher unchanged.
/// </summary>
public static class BenchmarkCli
{
    public static int Run(string[] args)
    {
        var arguments = new CliArguments(args);
        if (arguments.Has("--help") || arguments.Has("-h"))
        {
            Console.WriteLine(Usage);
            return 0;
        }

        try
        {
            if (arguments.Has("--cell")) return NativeCellMode.Run(arguments);
            if (arguments.Has("--native")) return NativeComparisonMode.Run(arguments);
            if (arguments.Has("--test")) return ConnectivityTestMode.Run(arguments);
            if (arguments.Has("--mode-test")) return ReceiveModeTestMode.Run(arguments);
            if (arguments.Has("--alloc-test")) return AllocationTestMode.Run(arguments);
        }
        catch (UsageException e)
        {
            Console.Error.WriteLine("error: " + e.Message);
            Console.Error.WriteLine(Usage);
            return 1;
        }

        return RunBenchmarkDotNet(args);
    }

    private static int RunBenchmarkDotNet(string[] args)
    {
        bool quick = args.Contains("--quick");
        List<string> forwarded = args.Where(a => a != "--quick").ToList();

        // No selection means the whole suite, not BenchmarkDotNet's interactive menu.
        if (!forwarded.Any(a => a is "--filter" or "-f" or "--list" or "--anyCategories" or "--allCategories"))
        {
            forwarded.Add("--filter");
            forwarded.Add("*");
        }

        Job job = quick ? BenchmarkJobs.Quick : BenchmarkJobs.Full;
        IConfig config = BenchmarkConfig.Create(job);
        var summaries = BenchmarkSwitcher.FromAssembly(typeof(BenchmarkCli).Assembly).Run(forwarded.ToArray(), config);
        if (forwarded.Contains("--list"))
        {
            CaseListing.Print(config);
            return 0;
        }

        bool failed = summaries.Any(s => s.HasCriticalValidationErrors || s.Reports.Any(r => !r.Success));
        return failed ? 1 : 0;
    }

    private const string Usage = """
        NetZeroMQ.Benchmarks (dotnet run -c Release -- <options>)
          (no options)          the whole BenchmarkDotNet suite, full statistics
          --quick               the same with 1 launch, 1 warm-up, 3 iterations (a few minutes; noisy)
          --filter <glob>       BenchmarkDotNet selection, e.g. '*Throughput*PushPull*'; --list flat lists every case
          --test                connect every pattern over every transport, send and verify; exit 1 on any failure
          --mode-test           quick Stopwatch comparison of the receive modes (markdown table)
          --alloc-test          managed bytes per message per thread for each strategy and mode; exit 1 if an
                                allocation-free path allocates
          --native [--pin] [--rounds 5] [--sizes 64,1024,65536] [--patterns pushpull,pubsub,routerrouter]
                   [--transports inproc,tcp] [--apis msg,buf] [--modes blocking] [--count N] [--seconds 0.3]
                                interleaved runs of the native C program and of this binding, one child process each
          --cell --pattern P --transport T --size N --count C [--mode M] [--api msg|buf] [--timeout-ms N]
                                (used by --native) one cell with the native method; prints one key=value line
        """;
}
