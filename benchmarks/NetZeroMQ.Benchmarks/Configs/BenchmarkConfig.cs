using System;
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
    public static IConfig Create(Job job) =>
        DefaultConfig.Instance
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
