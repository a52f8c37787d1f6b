using System;
using System.Diagnostics;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>
/// The warm-up every side of a comparison runs before its timed batch, the same on both sides (the native program has it as
/// --warmup/--warmup-seconds): batches of N messages on the same sockets, untimed, until S seconds have passed (at least one).
/// .NET needs it for tiered compilation: the JIT promotes the hot paths after a delay that keeps being extended while new
/// methods are compiled (measured here: 0.3 s still left Socket.Send/Recv in tier-0 code). The C side runs it too, so that
/// both time connections and allocators in the same state.
/// </summary>
public static class UntimedBatches
{
    /// <summary>Runs <paramref name="batch"/>(<paramref name="count"/>) until <paramref name="seconds"/> have passed; returns how many ran (0 when count is 0).</summary>
    public static int Run(int count, double seconds, Action<int> batch)
    {
        if (count <= 0)
        {
            return 0;
        }

        var clock = Stopwatch.StartNew();
        int batches = 0;
        do
        {
            batch(count);
            batches++;
        }
        while (clock.Elapsed.TotalSeconds < seconds);
        return batches;
    }

    /// <summary>Managed bytes the whole process allocated while <paramref name="timed"/> ran (every thread, NetMQ's own too).</summary>
    public static long ProcessAllocated(Action timed)
    {
        long before = GC.GetTotalAllocatedBytes(precise: true);
        timed();
        return GC.GetTotalAllocatedBytes(precise: true) - before;
    }
}
