using System;
using System.Collections.Generic;
using System.CommandLine;
using System.Diagnostics;
using System.Text;
using NetZeroMQ.Draft;
using NetZeroMQ.Benchmarks.Cli;
using NetZeroMQ.Benchmarks.Transfer;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>
/// --test: every pattern over every transport. Per cell: one rig per receive mode and per buffer strategy, each warmed up and
/// then moving a checked batch; finally one message with known content sent and compared byte for byte. One line per cell;
/// exit code 1 if any cell failed. The draft patterns are skipped, with the reason, when the libzmq has no draft API.
/// </summary>
public static class ConnectivityTestMode
{
    private const int BatchSize = 1000;
    private const int MessageSize = 64;

    public static Command Command { get; } = CliOptions.Mode(
        "--test", "every pattern over every transport connects and moves checked data; exit 1 on any failure", Run);

    private static int Run(ParseResult options)
    {
        int failures = 0;
        foreach (Pattern pattern in Enum.GetValues<Pattern>())
        {
            foreach (Transport transport in Enum.GetValues<Transport>())
            {
                if (Patterns.NotRunReason(pattern) is string reason)
                {
                    Console.WriteLine($"skip  {Name(pattern),-12} {Name(transport),-6} {reason}");
                    continue;
                }

                var clock = Stopwatch.StartNew();
                var checks = new List<string>();
                try
                {
                    ReceiveMode[] modes = ReceiveModes.For(pattern);
                    foreach (ReceiveMode mode in modes)
                    {
                        RunBatch(new RigOptions(pattern, transport, MessageSize, mode, Patterns.Strategies(pattern)[0]));
                    }

                    checks.Add($"modes {modes.Length}/{modes.Length}");
                    BufferStrategy[] strategies = Patterns.Strategies(pattern);
                    foreach (BufferStrategy strategy in strategies)
                    {
                        RunBatch(new RigOptions(pattern, transport, MessageSize, ReceiveMode.Blocking, strategy));
                    }

                    checks.Add($"strategies {strategies.Length}/{strategies.Length}");
                    CheckContent(pattern, transport);
                    checks.Add("content ok");
                    Console.WriteLine($"ok    {Name(pattern),-12} {Name(transport),-6} {string.Join(", ", checks)} ({clock.ElapsedMilliseconds} ms)");
                }
                catch (Exception e)
                {
                    failures++;
                    Console.WriteLine($"FAIL  {Name(pattern),-12} {Name(transport),-6} after [{string.Join(", ", checks)}]: {e.GetType().Name}: {e.Message}");
                }
            }
        }

        Console.WriteLine(failures == 0 ? "all cells passed" : failures + " cell(s) failed");
        return failures == 0 ? 0 : 1;
    }

    private static void RunBatch(RigOptions options)
    {
        using var rig = new TransferRig(options with { Timeout = TimeSpan.FromSeconds(5) });
        rig.WarmUp();
        rig.RunBatch(BatchSize);
        rig.Sender.WaitUntilIdle();
    }

    /// <summary>One message whose bytes are compared, sent from this thread (the sender thread is idle and never used again).</summary>
    private static void CheckContent(Pattern pattern, Transport transport)
    {
        using var rig = new TransferRig(new RigOptions(pattern, transport, MessageSize, ReceiveMode.Blocking, Patterns.Strategies(pattern)[0]) { Timeout = TimeSpan.FromSeconds(5) });
        rig.WarmUp();
        byte[] expected = Encoding.UTF8.GetBytes($"NetZeroMQ {pattern} over {transport}: é€ {Guid.NewGuid()}");
        Socket sender = rig.Sockets.Sender;
        Socket receiver = rig.Sockets.Receiver;
        if (rig.Sockets.SenderRouted)
        {
            sender.Send(SocketPair.ReceiverRoutingId, SendFlags.SendMore);
        }

        if (Patterns.SendGroup(pattern) is string group)
        {
            using var message = new Message(expected);
            message.SetGroup(group);
            sender.Send(message);
        }
        else
        {
            sender.Send(expected);
        }
        var buffer = new byte[expected.Length + 64];
        RecvResult result;
        do
        {
            if (rig.Sockets.ReceiverRouted)
            {
                byte[] id = receiver.RecvBytes();
                if (!id.AsSpan().SequenceEqual(SocketPair.SenderRoutingId) || !receiver.HasMore)
                {
                    throw new TransferFailedException("wrong routing id frame: " + Convert.ToHexString(id));
                }
            }

            result = receiver.Recv(buffer);
        }
        while (result.MessageSize == 0); // warm-up messages still in flight

        if (result.IsTruncated || !buffer.AsSpan(0, result.BytesWritten).SequenceEqual(expected) || receiver.HasMore)
        {
            throw new TransferFailedException($"content differs: got {result}, expected {expected.Length} bytes");
        }
    }

    private static string Name<T>(T value)
        where T : struct, Enum => value.ToString().ToLowerInvariant();
}
