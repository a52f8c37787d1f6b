using System;
using NetZeroMQ.Draft;

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

    /// <summary>Draft: CLIENT (connects) to SERVER (binds); one frame per message, no routing id in this direction.</summary>
    ClientServer,

    /// <summary>
    /// Draft: RADIO with XPUB_NODROP (blocks at the HWM instead of dropping) sends every message with group "g" to DISH, which
    /// binds and joins "g". Message strategy only (the group travels on the Message); not over udp (datagrams may drop).
    /// </summary>
    RadioDish,
}

/// <summary>What each pattern's two sides send and receive.</summary>
public static class Patterns
{
    /// <summary>The sender is a ROUTER: every message goes out as [R][payload].</summary>
    public static bool SenderRouted(Pattern pattern) => pattern is Pattern.RouterRouter or Pattern.RouterRouterPoller;

    /// <summary>The receiver is a ROUTER: every message comes in as [S][payload].</summary>
    public static bool ReceiverRouted(Pattern pattern) => SenderRouted(pattern) || pattern == Pattern.DealerRouter;

    /// <summary>The group the RADIO sends to and the DISH joins.</summary>
    public const string RadioGroup = "g";

    /// <summary>Draft socket types: needs a libzmq with the draft API (Debian's has none).</summary>
    public static bool IsDraft(Pattern pattern) => pattern is Pattern.ClientServer or Pattern.RadioDish;

    /// <summary>The group every message must carry (a RADIO drops a message without one), or null.</summary>
    public static string? SendGroup(Pattern pattern) => pattern == Pattern.RadioDish ? RadioGroup : null;

    /// <summary>The buffer strategies a pattern can send with: a RADIO needs a Message (its group), the others take every one.</summary>
    public static BufferStrategy[] Strategies(Pattern pattern) =>
        SendGroup(pattern) is null ? Enum.GetValues<BufferStrategy>() : new[] { BufferStrategy.Message };

    /// <summary>Why a draft pattern cannot run in this process, or null when it can.</summary>
    public static string? NotRunReason(Pattern pattern) =>
        IsDraft(pattern) && !DraftApi.IsAvailable ? NoDraftApi : null;

    /// <summary>What the benchmark prints for a draft cell against a libzmq without the draft API.</summary>
    public const string NoDraftApi = "not run: the loaded libzmq has no draft API";

    /// <summary>The exit code of a cell (both programs) that did not run because the libzmq has no draft API.</summary>
    public const int NoDraftExitCode = 4;

    /// <summary>The receiver waits in a Poller before every message (and receives blocking once it is readable).</summary>
    public static bool PollsEachMessage(Pattern pattern) => pattern == Pattern.RouterRouterPoller;
}
