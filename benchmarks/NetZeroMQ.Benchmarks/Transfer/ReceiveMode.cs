using System;

namespace NetZeroMQ.Benchmarks.Transfer;

/// <summary>How the receiving thread waits for the next frame. Sends always block.</summary>
public enum ReceiveMode
{
    /// <summary>Blocking Recv for every frame.</summary>
    Blocking,

    /// <summary>TryRecv in a burst until empty, then Thread.Yield (sched_yield on Linux) and try again. No sleep.</summary>
    NonBlocking,

    /// <summary>TryRecv until empty, then Poller.Poll on the one socket, then drain again (native "poller").</summary>
    Poller,

    /// <summary>A blocking Recv for the first frame, then TryRecv until empty (no wait while frames are queued).</summary>
    BlockingBatch,

    /// <summary>TryRecv in a busy loop that never yields. Burns a core; on 2 cores it competes with libzmq's I/O thread.</summary>
    NonBlockingSpin,

    /// <summary>
    /// An async loop of <c>await RecvAsync</c> (completing synchronously while frames are queued, through the reactor when
    /// not); the benchmark thread waits once per batch for the loop's task. Non-routed patterns only.
    /// </summary>
    Async,
}

/// <summary>Which receive modes apply to a pattern.</summary>
public static class ReceiveModes
{
    /// <summary>
    /// Every mode, except Async for routed receivers (the async loop reads single-frame messages); only Blocking for a pattern
    /// whose receiver waits in a Poller before every message (it has its own wait). The draft patterns' thread-safe sockets
    /// wait asynchronously through a draft poller's descriptor, so they have every mode.
    /// </summary>
    public static ReceiveMode[] For(Pattern pattern) =>
        Patterns.PollsEachMessage(pattern)
            ? new[] { ReceiveMode.Blocking }
            : Array.FindAll(
                Enum.GetValues<ReceiveMode>(), mode => mode != ReceiveMode.Async || !Patterns.ReceiverRouted(pattern));
}
