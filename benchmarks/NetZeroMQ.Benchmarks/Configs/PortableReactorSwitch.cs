using System;
using System.Runtime.CompilerServices;

namespace NetZeroMQ.Benchmarks;

/// <summary>
/// Runs the async benchmarks against the portable reactor when <see cref="Variable"/> is 1: the library reads only the
/// AppContext switch <c>NetZeroMQ.UsePortableReactor</c>, so the benchmark tool sets it before any benchmark, in its own
/// process and in BenchmarkDotNet's child processes (which inherit the variable and load this assembly).
/// </summary>
internal static class PortableReactorSwitch
{
    /// <summary>The environment variable: 1 for the portable (zmq_poll) reactor; unset or anything else keeps the default.</summary>
    internal const string Variable = "NETZEROMQ_BENCH_PORTABLE_REACTOR";

    [ModuleInitializer]
    internal static void Apply()
    {
        if (Environment.GetEnvironmentVariable(Variable) == "1")
        {
            AppContext.SetSwitch(ReactorChoice.Switch, true);
        }
    }
}
