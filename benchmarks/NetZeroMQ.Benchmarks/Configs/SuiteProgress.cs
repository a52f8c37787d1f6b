using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using BenchmarkDotNet.Analysers;
using BenchmarkDotNet.EventProcessors;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains;
using BenchmarkDotNet.Toolchains.Results;
using BenchmarkDotNet.Validators;
using NetZeroMQ.Benchmarks.Reporting;

namespace NetZeroMQ.Benchmarks.Configs;

/// <summary>
/// The suite's console: a line when BenchmarkDotNet's build ends and one per benchmark class (cases, failures, elapsed time and
/// an estimate of the time left), validation errors as they come. BenchmarkDotNet raises these events in the host process
/// between benchmark processes, so nothing here runs while a case is timed.
/// </summary>
public sealed class SuiteProgress : EventProcessor
{
    /// <summary>The planned cost of BenchmarkDotNet's build of the project copy, in seconds.</summary>
    public const double BuildSeconds = 60;

    private readonly TextWriter _output;
    private readonly Stopwatch _clock = Stopwatch.StartNew();
    private readonly Progress _progress;
    private readonly double _secondsPerCase;

    public SuiteProgress(TextWriter output, int classes, int cases, double secondsPerCase)
    {
        _output = output;
        _secondsPerCase = secondsPerCase;
        _progress = new Progress(output, classes + 1, BuildSeconds + cases * secondsPerCase, () => _clock.Elapsed);
    }

    public int Cases { get; private set; }

    public int Failed { get; private set; }

    /// <summary>BenchmarkDotNet's folder of result reports (csv, html, GitHub markdown per class), once a class has finished.</summary>
    public string? ResultsDirectory { get; private set; }

    public override void OnValidationError(ValidationError validationError) =>
        _output.WriteLine((validationError.IsCritical ? "error: " : "warning: ") + validationError.Message);

    public override void OnEndBuildStage() => _progress.Step("BenchmarkDotNet built the benchmark project", BuildSeconds);

    public override void OnEndRunBenchmarksInType(Type type, Summary summary)
    {
        int failed = summary.Reports.Count(r => !r.Success);
        Cases += summary.BenchmarksCases.Length;
        Failed += failed;
        ResultsDirectory = summary.ResultsDirectoryPath;
        _progress.Step($"{type.Name}: {summary.BenchmarksCases.Length} cases{(failed > 0 ? $", {failed} FAILED" : "")}", summary.BenchmarksCases.Length * _secondsPerCase);
    }

    public TimeSpan Elapsed => _clock.Elapsed;
}
