using System;
using Perfolizer.Horology;
using BenchmarkDotNet.Jobs;

namespace NetZeroMQ.Benchmarks.Configs;

/// <summary>
/// The run lengths: the default (BenchmarkDotNet's automatic warm-up and 15-100 iterations), --quick, and BenchmarkDotNet's
/// presets for --job.
/// </summary>
public static class BenchmarkJobs
{
    /// <summary>Statistically meaningful numbers; use this for anything published.</summary>
    public static Job Full { get; } = Job.Default.WithId("Full");

    /// <summary>
    /// A smoke run of the whole suite in a few minutes: 1 launch, 1 warm-up and 3 iterations of ~200 ms. Differences under about
    /// 10% between cases are noise at this length (the previous suite's "wins" of 4-10% from 3 iterations were exactly that).
    /// </summary>
    public static Job Quick { get; } = Job.Default
        .WithId("Quick")
        .WithLaunchCount(1)
        .WithWarmupCount(1)
        .WithIterationCount(3)
        .WithIterationTime(TimeInterval.FromMilliseconds(200));

    /// <summary>
    /// About how long one case of the job takes on the 2-CPU machine, in seconds (the suite's announced duration and the start of
    /// its estimate; the progress lines then follow the real pace). --quick: the whole suite took about 6 minutes.
    /// </summary>
    public static double SecondsPerCase(Job job) => job.Id switch
    {
        "Quick" => 3,
        "Dry" => 1,
        "ShortRun" => 8,
        "MediumRun" => 20,
        "LongRun" => 60,
        "VeryLongRun" => 120,
        _ => 30,
    };

    /// <summary>The names --job accepts (BenchmarkDotNet's own preset names; "default" is <see cref="Full"/>).</summary>
    public static string[] Names { get; } = { "default", "dry", "short", "medium", "long", "verylong" };

    /// <summary>
    /// The job of a --job name. BenchmarkDotNet's own --job cannot be handed on: a config that defines its default job, as
    /// BenchmarkConfig does, overrides it silently, so the preset is chosen here instead.
    /// </summary>
    public static Job Named(string name) => name switch
    {
        "default" => Full,
        "dry" => Job.Dry,
        "short" => Job.ShortRun,
        "medium" => Job.MediumRun,
        "long" => Job.LongRun,
        "verylong" => Job.VeryLongRun,
        _ => throw new ArgumentOutOfRangeException(nameof(name), name, "one of: " + string.Join(", ", Names)),
    };
}
