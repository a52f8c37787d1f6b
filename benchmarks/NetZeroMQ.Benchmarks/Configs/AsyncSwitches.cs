using System;
using System.Runtime.CompilerServices;

namespace NetZeroMQ.Benchmarks;

/// <summary>
/// Sets the library's async AppContext switches from environment variables: the library reads only the switches, so the
/// benchmark tool sets them before any benchmark, in its own process and in its child processes (BenchmarkDotNet's, and the
/// .NET side of <c>--native</c> and <c>--netmq</c>), which inherit the variables and load this assembly.
/// <see cref="PortableReactor"/>=1 runs the async benchmarks against the portable (zmq_poll) reactor
/// (<c>NetZeroMQ.UsePortableReactor</c>); <see cref="InlineCompletions"/>=1 runs awaited continuations on the reactor thread
/// (<c>NetZeroMQ.InlineAsyncCompletions</c>). Unset or anything else keeps the library's default.
/// </summary>
internal static class AsyncSwitches
{
    /// <summary>1 for the portable reactor.</summary>
    internal const string PortableReactor = "NETZEROMQ_BENCH_PORTABLE_REACTOR";

    /// <summary>1 for inline completions.</summary>
    internal const string InlineCompletions = "NETZEROMQ_BENCH_INLINE_COMPLETIONS";

    [ModuleInitializer]
    internal static void Apply()
    {
        if (Environment.GetEnvironmentVariable(PortableReactor) == "1")
        {
            AppContext.SetSwitch(ReactorChoice.Switch, true);
        }

        if (Environment.GetEnvironmentVariable(InlineCompletions) == "1")
        {
            AppContext.SetSwitch(NetZeroMQ.InlineCompletions.Switch, true);
        }
    }
}
