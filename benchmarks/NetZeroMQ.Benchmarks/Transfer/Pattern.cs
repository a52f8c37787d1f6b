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

    /// <summary>PAIR to PAIR.</summary>
    Pair,

    /// <summary>DEALER to DEALER.</summary>
    DealerDealer,

    /// <summary>DEALER "S" sends [payload] to ROUTER, which receives [S][payload].</summary>
    DealerRouter,

    /// <summary>As <see cref="RouterRouter"/>, but the receiver waits in a Poller on its socket before every message.</summary>
    RouterRouterPoller,
}

/// <summary>What each pattern's two sides send and receive.</summary>
public static class Patterns
{
    /// <summary>The sender is a ROUTER: every message goes out as [R][payload].</summary>
    public static bool SenderRouted(Pattern pattern) => pattern is Pattern.RouterRouter or Pattern.RouterRouterPoller;

    /// <summary>The receiver is a ROUTER: every message comes in as [S][payload].</summary>
    public static bool ReceiverRouted(Pattern pattern) => SenderRouted(pattern) || pattern == Pattern.DealerRouter;

    /// <summary>The receiver waits in a Poller before every message (and receives blocking once it is readable).</summary>
    public static bool PollsEachMessage(Pattern pattern) => pattern == Pattern.RouterRouterPoller;
}
