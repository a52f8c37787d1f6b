using System;
using System.Diagnostics;

namespace NetZeroMQ.Benchmarks.Transfer;

/// <summary>Everything one measured cell needs: the socket pair, the long-lived sender thread and the receiving loop.</summary>
public sealed class TransferRig : IDisposable
{
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromSeconds(20);

    private readonly PayloadSender _payloadSender;

    public TransferRig(RigOptions options, Context? sharedContext = null)
    {
        Options = options;
        Sockets = new SocketPair(options.Pattern, options.Transport, options.Timeout, sharedContext);
        try
        {
            _payloadSender = new PayloadSender(Sockets.Sender, Sockets.SenderRouted, options.Strategy, options.MessageSize, Patterns.SendGroup(options.Pattern));
            Receiver = new PayloadReceiver(
                Sockets.Receiver, Sockets.ReceiverRouted, Patterns.PollsEachMessage(options.Pattern), options.Strategy, options.Mode, options.MessageSize, options.Timeout);
            Sender = new SenderThread(_payloadSender, options.Timeout);
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    public RigOptions Options { get; }

    public SocketPair Sockets { get; }

    public SenderThread Sender { get; } = null!;

    public PayloadReceiver Receiver { get; } = null!;

    /// <summary>Zero-length messages until one arrives: the connection, and for pubsub the subscription, is up.</summary>
    public void WarmUp()
    {
        Sender.StartWarmup();
        try
        {
            Receiver.ReceiveWarmup();
        }
        catch (Exception e)
        {
            throw Sender.Explain(e);
        }

        Sender.AcknowledgeWarmup();
        Sender.WaitUntilIdle();
    }

    /// <summary>Asks the sender for <paramref name="count"/> messages and receives them on this thread; returns payload bytes.</summary>
    public long RunBatch(int count)
    {
        Sender.StartBatch(count);
        try
        {
            return Receiver.ReceiveBatch(count);
        }
        catch (Exception e)
        {
            throw Sender.Explain(e);
        }
    }

    /// <summary>A batch timed like the native program: sender's first send to the receiver's last receive.</summary>
    public TimedBatch RunTimedBatch(int count)
    {
        long receiverAllocated = GC.GetAllocatedBytesForCurrentThread();
        long bytes = RunBatch(count);
        long end = Stopwatch.GetTimestamp();
        receiverAllocated = GC.GetAllocatedBytesForCurrentThread() - receiverAllocated;
        Sender.WaitUntilIdle();
        long start = Sender.LastBatchStart;
        return new TimedBatch(
            count,
            bytes,
            Seconds: (end - start) / (double)Stopwatch.Frequency,
            SendSeconds: (Sender.LastBatchEnd - start) / (double)Stopwatch.Frequency,
            SenderAllocatedBytes: Sender.LastBatchAllocatedBytes,
            ReceiverAllocatedBytes: receiverAllocated);
    }

    public void Dispose()
    {
        // Close the sockets first: that ends a send or receive blocked on another thread; then stop the thread.
        Sockets?.Dispose();
        Sender?.Dispose();
        Receiver?.Dispose();
        _payloadSender?.Dispose();
    }
}

public sealed record RigOptions(
    Pattern Pattern,
    Transport Transport,
    int MessageSize,
    ReceiveMode Mode = ReceiveMode.Blocking,
    BufferStrategy Strategy = BufferStrategy.Span)
{
    public TimeSpan Timeout { get; init; } = TransferRig.DefaultTimeout;
}

public readonly record struct TimedBatch(
    int Count,
    long Bytes,
    double Seconds,
    double SendSeconds,
    long SenderAllocatedBytes,
    long ReceiverAllocatedBytes)
{
    public double MessagesPerSecond => Count / Seconds;
}
