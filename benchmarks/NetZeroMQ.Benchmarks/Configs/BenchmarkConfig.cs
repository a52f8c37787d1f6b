using System;
using System.Linq;
using BenchmarkDotNet.EventProcessors;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Order;
using NetZeroMQ.Benchmarks.Configs.Columns;

namespace NetZeroMQ.Benchmarks.Configs;

/// <summary>The one place benchmark policy lives: job, diagnosers, columns, order.</summary>
public static class BenchmarkConfig
{
    /// <summary>The suite's config; with a log, BenchmarkDotNet writes to it instead of the console, and the events go to progress.</summary>
    public static IConfig Create(Job job, ILogger? log = null, EventProcessor? progress = null)
    {
        ManualConfig config = log is null ? ManualConfig.Create(DefaultConfig.Instance) : WithoutConsole(log);
        if (progress is not null)
        {
            config.AddEventProcessor(progress);
        }

        return Policy(config, job);
    }

    /// <summary>DefaultConfig's columns, exporters, analysers and validators, with <paramref name="log"/> as its only logger.</summary>
    private static ManualConfig WithoutConsole(ILogger log) =>
        ManualConfig.CreateEmpty()
            .AddColumnProvider(DefaultConfig.Instance.GetColumnProviders().ToArray())
            .AddExporter(DefaultConfig.Instance.GetExporters().ToArray())
            .AddAnalyser(DefaultConfig.Instance.GetAnalysers().ToArray())
            .AddValidator(DefaultConfig.Instance.GetValidators().ToArray())
            .AddLogger(log);

    private static IConfig Policy(ManualConfig config, Job job) =>
        config
            .AddJob(job.AsDefault())
            .AddDiagnoser(MemoryDiagnoser.Default)
            .AddColumn(CategoriesColumn.Default)
            .AddColumn(new LatencyColumn(), new MessagesPerSecondColumn(), new MegabytesPerSecondColumn())
            .WithOrderer(new DefaultOrderer(SummaryOrderPolicy.Declared, MethodOrderPolicy.Declared))
            .WithOptions(ConfigOptions.DisableLogFile)

            // BenchmarkDotNet builds a copy of this project before running; its default limit of 2 minutes was reached on
            // this 2-core VM under load (load average 37: restore 47 s, the build cut off), which failed the whole suite.
            .WithBuildTimeout(TimeSpan.FromMinutes(10));
}
