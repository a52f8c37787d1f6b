using System;
using System.IO;
using BenchmarkDotNet.Loggers;

namespace NetZeroMQ.Benchmarks.Configs;

/// <summary>
/// BenchmarkDotNet's whole output (build, every iteration, the summary tables) into one file named before the suite starts,
/// in place of its console logger: the console keeps <see cref="SuiteProgress"/>'s lines. BenchmarkDotNet writes to its
/// loggers from the host process between the benchmark processes' runs, never from a measured thread.
/// </summary>
public sealed class SuiteLog : ILogger, IDisposable
{
    private readonly StreamWriter _writer;

    public SuiteLog(string path) => _writer = new StreamWriter(path) { AutoFlush = false };

    public string Id => nameof(SuiteLog);

    public int Priority => 0;

    public void Write(LogKind logKind, string text) => _writer.Write(text);

    public void WriteLine() => _writer.WriteLine();

    public void WriteLine(LogKind logKind, string text) => _writer.WriteLine(text);

    public void Flush() => _writer.Flush();

    public void Dispose() => _writer.Dispose();
}
