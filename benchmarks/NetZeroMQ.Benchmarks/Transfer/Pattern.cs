namespace NetZeroMQ.Benchmarks.Transfer;

/// <summary>The socket pairs measured, named sender-receiver as the native program (benchmarks/native) names them.</summary>
public enum Pattern
{
    /// <summary>PUSH (connects) to PULL (binds).</summary>
    PushPull,

    /// <summary>PUB with XPUB_NODROP (blocks at the HWM instead of dropping) to SUB subscribed to everything.</summary>
    PubSub,

    /// <summary>ROUTER "S" with ROUTER_MANDATORY sends [R][payload] to ROUTER "R", which receives [S][payload].</summary>
    RouterRouter,
}
