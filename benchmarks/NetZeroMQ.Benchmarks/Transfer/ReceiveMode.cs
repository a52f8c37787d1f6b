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
}
