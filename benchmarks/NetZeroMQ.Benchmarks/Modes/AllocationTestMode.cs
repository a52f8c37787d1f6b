using System;
using System.Diagnostics;
using System.Linq;
using System.CommandLine;
using NetZeroMQ.Benchmarks.Cli;
using NetZeroMQ.Benchmarks.Transfer;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>
/// --alloc-test: managed bytes allocated per message on each thread involved (the sender thread and the receiving thread,
/// each measured with GC.GetAllocatedBytesForCurrentThread around its own loop), for every pattern, transport, buffer strategy
/// and receive mode, after two untimed batches (JIT, pools and lazily made objects settle), the least of three measured batches. Exit code 1 if a path documented as
/// allocation-free allocated anything. Native (malloc) allocations are not measured; see <see cref="NativeAllocationNote"/>.
/// </summary>
public static class AllocationTestMode
{
    private const int SmallMessage = 64;
    private const int LargeMessage = 131072;
    private const int MeasuredBatches = 3;

    public static Command Command { get; } = CliOptions.Mode(
        "--alloc-test",
        "managed bytes per message on the sender and the receiving thread, for every strategy and mode; exit 1 if an allocation-free path allocates",
        Run);

    private static int Run(ParseResult options)
    {
        int failures = 0;
        Console.WriteLine("Managed bytes per message (GC.GetAllocatedBytesForCurrentThread on the sender thread and on the receiving thread; each side's least of three batches).");
        Console.WriteLine("Allocation-free by design: Span (span send, span receive), Message (reused Message), ArrayPool; ByteArray allocates by design.");
        Console.WriteLine();
        Console.WriteLine("| pattern | transport | size | strategy | mode | messages | sender B/msg | receiver B/msg | expected | result |");
        Console.WriteLine("|---|---|---:|---|---|---:|---:|---:|---|---|");
        // The draft patterns are not part of this check: they need a draft libzmq, and the RADIO sends only Messages.
        foreach (Pattern pattern in Enum.GetValues<Pattern>().Where(p => !Patterns.IsDraft(p)))
        {
            foreach (Transport transport in new[] { Transport.Inproc, Transport.Tcp })
            {
                foreach (BufferStrategy strategy in Enum.GetValues<BufferStrategy>())
                {
                    foreach (ReceiveMode mode in ReceiveModes.For(pattern))
                    {
                        if (mode != ReceiveMode.Async)
                        {
                            failures += Measure(pattern, transport, SmallMessage, strategy, mode, count: 20_000);
                        }
                        else if (strategy is BufferStrategy.Span or BufferStrategy.Message)
                        {
                            failures += MeasureAsync(pattern, transport, SmallMessage, strategy, count: 100_000);
                        }
                    }

                    failures += Measure(pattern, transport, LargeMessage, strategy, ReceiveMode.Blocking, count: 500);
                }
            }
        }

        failures += MeasureThreadSafeAsync();
        failures += MeasureTracedSend();
        Console.WriteLine();
        Console.WriteLine(NativeAllocationNote.Text);
        Console.WriteLine();
        Console.WriteLine(failures == 0 ? "alloc-test: every allocation-free path allocated 0 bytes" : $"alloc-test: {failures} allocation-free path(s) allocated");
        return failures == 0 ? 0 : 1;
    }

    private static int Measure(Pattern pattern, Transport transport, int size, BufferStrategy strategy, ReceiveMode mode, int count)
    {
        using var rig = new TransferRig(new RigOptions(pattern, transport, size, mode, strategy));
        rig.WarmUp();
        rig.RunTimedBatch(count);
        rig.RunTimedBatch(count);

        long sender = long.MaxValue, receiver = long.MaxValue;
        for (int i = 0; i < MeasuredBatches; i++)
        {
            TimedBatch batch = rig.RunTimedBatch(count);
            sender = Math.Min(sender, batch.SenderAllocatedBytes);
            receiver = Math.Min(receiver, batch.ReceiverAllocatedBytes);
        }

        bool mustBeFree = strategy != BufferStrategy.ByteArray;
        bool allocated = sender != 0 || receiver != 0;
        string result = mustBeFree ? (allocated ? "FAIL" : "ok") : (allocated ? "ok (allocates by design)" : "unexpected: 0");
        Console.WriteLine(
            $"| {Name(pattern)} | {Name(transport)} | {size} | {strategy} | {mode} | {count:N0} | " +
            $"{PerMessage(sender, count)} | {PerMessage(receiver, count)} | " +
            $"{(mustBeFree ? "0" : "> 0")} | {result} |");
        return mustBeFree && allocated ? 1 : 0;
    }

    /// <summary>
    /// The async loop's continuations run on pool threads, so it is measured process-wide (GC.GetTotalAllocatedBytes, nothing
    /// else running). Its one fixed cost is the loop's own async state machine, once per batch, so the bar is "less than one
    /// byte per 10 messages", never a byte per message.
    /// </summary>
    private static int MeasureAsync(Pattern pattern, Transport transport, int size, BufferStrategy strategy, int count)
    {
        using var rig = new TransferRig(new RigOptions(pattern, transport, size, ReceiveMode.Async, strategy));
        rig.WarmUp();
        for (int i = 0; i < 5; i++)
        {
            rig.RunTimedBatch(count); // the thread pool settles its worker count, which allocates per new thread
        }

        long bytes = LeastProcessWide(() => rig.RunTimedBatch(count));
        bool mustBeFree = strategy != BufferStrategy.ByteArray;
        bool allocatesPerMessage = bytes * 10 >= count;
        string result = mustBeFree ? (allocatesPerMessage ? "FAIL" : "ok") : (allocatesPerMessage ? "ok (allocates by design)" : "unexpected: 0");
        Console.WriteLine(
            $"| {Name(pattern)} | {Name(transport)} | {size} | {strategy} | Async (process-wide) | {count:N0} | " +
            $"{PerMessage(bytes, count)} | (included) | {(mustBeFree ? "< 0.1" : "> 0")} | {result} |");
        return mustBeFree && allocatesPerMessage ? 1 : 0;
    }

    /// <summary>
    /// Async send and receive on a thread-safe CLIENT/SERVER pair (draft API), as a ping-pong so that nearly every receive
    /// waits (through the socket's draft poller in the reactor): the client sends a span and awaits the reply into a span; the
    /// server awaits a reused Message and sends it back by its routing id. Measured process-wide like the other async rows, with
    /// the same bar. Without the draft API the row says so and counts as no failure: there is nothing to measure.
    /// </summary>
    private static int MeasureThreadSafeAsync()
    {
        const int RoundTrips = 20_000;
        if (!NetZeroMQ.Draft.DraftApi.IsAvailable)
        {
            Console.WriteLine(
                $"| client/server (thread-safe, draft) | inproc, tcp | {SmallMessage} | Span/Message | Async | - | not measured | not measured | < 0.1 | " +
                $"not measured: the loaded libzmq {Libzmq.Version} has no draft API (CLIENT and SERVER need one built with drafts) |");
            return 0;
        }

        int failures = 0;
        foreach (string transport in new[] { "inproc", "tcp" })
        {
            using var context = new Context { DefaultLinger = TimeSpan.Zero };
            using Socket server = NetZeroMQ.Draft.DraftSockets.Create(context, NetZeroMQ.Draft.DraftSocketType.Server);
            using Socket client = NetZeroMQ.Draft.DraftSockets.Create(context, NetZeroMQ.Draft.DraftSocketType.Client);
            server.Bind(transport == "inproc" ? "inproc://alloc-test-thread-safe" : "tcp://127.0.0.1:*");
            client.Connect(server.LastEndpoint!);
            using var request = new Message();
            byte[] payload = new byte[SmallMessage];
            byte[] reply = new byte[SmallMessage];
            for (int batch = 0; batch < 6; batch++)
            {
                PingPong(client, server, request, payload, reply, 2_000).GetAwaiter().GetResult(); // JIT, pools, pool threads
            }

            long bytes = LeastProcessWide(() => PingPong(client, server, request, payload, reply, RoundTrips).GetAwaiter().GetResult());
            int messages = RoundTrips * 2;
            bool allocatesPerMessage = bytes * 10 >= messages;
            Console.WriteLine(
                $"| client/server (thread-safe, draft) | {transport} | {SmallMessage} | Span/Message | Async ping-pong (process-wide) | {messages:N0} | " +
                $"{PerMessage(bytes, messages)} | (included) | < 0.1 | {(allocatesPerMessage ? "FAIL" : "ok")} |");
            failures += allocatesPerMessage ? 1 : 0;
        }

        return failures;
    }

    /// <summary>
    /// NetZeroMQ.Hosting's traced send with no listener on the <c>NetZeroMQ</c> activity source (issue: "no cost on the
    /// per-message path when no listener is attached"), beside the untraced send it wraps, on one thread (see
    /// <see cref="TracedSendRig"/>): both must allocate nothing. A third row sends inside an application's activity (one for
    /// the whole batch, started without any listener, as a request's activity is): the context then travels in a trace frame
    /// per message, which reuses the multipart message's spare frame and the activity's cached ids, so it must allocate nothing
    /// either.
    /// </summary>
    private static int MeasureTracedSend()
    {
        const int Count = 20_000;
        using var rig = new TracedSendRig();
        string listener = TracedSendRig.HasListener() ? "a listener is attached: the rows below do not measure the no-listener path" : "no listener";
        int failures = 0;
        foreach ((string name, bool traced, bool inActivity) in new[] { ("SendMultipartAsync (untraced)", false, false), ("SendTracedAsync, no listener", true, false), ("SendTracedAsync, no listener, inside an activity", true, true) })
        {
            using Activity? outer = inActivity ? new Activity("request").Start() : null;
            int frames = inActivity ? 2 : 1;
            rig.Run(Count, traced, frames);
            rig.Run(Count, traced, frames);
            int waitsBefore = rig.Waits;
            long least = long.MaxValue;
            for (int i = 0; i < MeasuredBatches; i++)
            {
                least = Math.Min(least, rig.Allocated(Count, traced, frames));
            }

            bool allocated = least != 0;
            string waited = rig.Waits == waitsBefore ? "" : $" ({rig.Waits - waitsBefore} sends waited)";
            string result = (allocated ? "FAIL" : "ok") + waited;
            Console.WriteLine(
                $"| pushpull (NetZeroMQ.Hosting, {listener}) | inproc | 64 | {name} | one thread, batches of {TracedSendRig.Batch} | {Count:N0} | " +
                $"{PerMessage(least, Count)} | (same thread) | 0 | {result} |");
            failures += allocated ? 1 : 0;
        }

        return failures;
    }

    /// <summary>
    /// The least of <see cref="MeasuredBatches"/> runs of <paramref name="batch"/>, in bytes the whole process allocated. Every
    /// measurement here takes the least of several batches: a cost per message shows in every batch, while a one-time cost of
    /// the runtime's shows in one of them (measured: 40 B once in 20,000 messages on one thread, in a different cell each run;
    /// 12,592 B once process-wide, a new pool thread).
    /// </summary>
    private static long LeastProcessWide(Action batch)
    {
        long least = long.MaxValue;
        for (int i = 0; i < MeasuredBatches; i++)
        {
            long before = GC.GetTotalAllocatedBytes(precise: true);
            batch();
            least = Math.Min(least, GC.GetTotalAllocatedBytes(precise: true) - before);
        }

        return least;
    }

    private static async System.Threading.Tasks.Task PingPong(Socket client, Socket server, Message request, byte[] payload, byte[] reply, int roundTrips)
    {
        System.Threading.Tasks.Task echo = Echo(server, request, roundTrips);
        for (int i = 0; i < roundTrips; i++)
        {
            await client.SendAsync(payload);
            RecvResult result = await client.RecvAsync(reply);
            if (result.MessageSize != payload.Length)
            {
                throw new InvalidOperationException($"reply of {result.MessageSize} bytes, expected {payload.Length}");
            }
        }

        await echo;
    }

    private static async System.Threading.Tasks.Task Echo(Socket server, Message request, int roundTrips)
    {
        for (int i = 0; i < roundTrips; i++)
        {
            // The received message carries the client's routing id, which addresses the reply.
            await server.RecvAsync(request);
            await server.SendAsync(request);
        }
    }

    private static string PerMessage(long bytes, int count) => bytes == 0 ? "0" : $"{(double)bytes / count:F2} ({bytes:N0} B total)";

    private static string Name<T>(T value)
        where T : struct, Enum => value.ToString().ToLowerInvariant();
}
