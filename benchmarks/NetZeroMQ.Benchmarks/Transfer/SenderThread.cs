using System;
using System.Diagnostics;
using System.Threading;

namespace NetZeroMQ.Benchmarks.Transfer;

/// <summary>
/// The long-lived sending thread: created once (in [GlobalSetup] or at the start of a mode), it owns the sending socket and
/// sends a batch each time it is asked to. A failure is kept and rethrown to the thread that asks for the next batch or waits.
/// </summary>
public sealed class SenderThread : IDisposable
{
    private readonly PayloadSender _sender;
    private readonly TimeSpan _timeout;
    private readonly Thread _thread;
    private readonly SemaphoreSlim _go = new(0, int.MaxValue);
    private volatile bool _stopping;
    private volatile bool _warmupReceived;
    private volatile bool _warmupRequested;
    private volatile Exception? _failure;
    private int _nextBatch;
    private int _requested;
    private int _completed;
    private long _lastStart;
    private long _lastEnd;
    private long _lastAllocated;

    public SenderThread(PayloadSender sender, TimeSpan timeout)
    {
        _sender = sender;
        _timeout = timeout;
        _thread = new Thread(Run) { IsBackground = true, Name = "nzmq-bench-sender" };
        _thread.Start();
    }

    /// <summary>Stopwatch timestamp taken just before the first send of the last batch.</summary>
    public long LastBatchStart => Volatile.Read(ref _lastStart);

    /// <summary>Stopwatch timestamp taken just after the last send of the last batch.</summary>
    public long LastBatchEnd => Volatile.Read(ref _lastEnd);

    /// <summary>Managed bytes this thread allocated during the last batch (GC.GetAllocatedBytesForCurrentThread).</summary>
    public long LastBatchAllocatedBytes => Volatile.Read(ref _lastAllocated);

    /// <summary>Starts sending zero-length messages about once a millisecond until <see cref="AcknowledgeWarmup"/>.</summary>
    public void StartWarmup()
    {
        _warmupRequested = true;
        Interlocked.Increment(ref _requested);
        _go.Release();
    }

    /// <summary>The receiver has seen a warm-up message: the connection (and any subscription) is up.</summary>
    public void AcknowledgeWarmup() => _warmupReceived = true;

    public void StartBatch(int count)
    {
        ThrowIfFailed();
        Volatile.Write(ref _nextBatch, count);
        Interlocked.Increment(ref _requested);
        _go.Release();
    }

    /// <summary>Waits until every requested batch (and the warm-up) has been sent; rethrows a sender failure.</summary>
    public void WaitUntilIdle()
    {
        var clock = Stopwatch.StartNew();
        var spin = new SpinWait();
        while (Volatile.Read(ref _completed) != Volatile.Read(ref _requested))
        {
            ThrowIfFailed();
            if (clock.Elapsed > _timeout)
            {
                throw new TransferFailedException("the sender did not finish within " + _timeout);
            }

            spin.SpinOnce();
        }

        ThrowIfFailed();
    }

    public void ThrowIfFailed()
    {
        if (_failure is { } failure)
        {
            throw new TransferFailedException("the sender failed: " + failure.Message, failure);
        }
    }

    /// <summary>Wraps a receiving-side failure with the sender's, which is usually the cause.</summary>
    public Exception Explain(Exception receiverFailure) =>
        _failure is { } failure
            ? new TransferFailedException("the sender failed: " + failure.Message + " (then the receiver: " + receiverFailure.Message + ")", failure)
            : receiverFailure;

    /// <summary>Stops the thread. Dispose the sending socket first if it may be blocked in a send.</summary>
    public void Dispose()
    {
        _stopping = true;
        _warmupReceived = true;
        _go.Release();
        _thread.Join(TimeSpan.FromSeconds(5));
    }

    private void Run()
    {
        try
        {
            while (true)
            {
                _go.Wait();
                if (_stopping)
                {
                    return;
                }

                if (_warmupRequested)
                {
                    _warmupRequested = false;
                    SendWarmup();
                }
                else
                {
                    int count = Volatile.Read(ref _nextBatch);
                    long allocated = GC.GetAllocatedBytesForCurrentThread();
                    Volatile.Write(ref _lastStart, Stopwatch.GetTimestamp());
                    _sender.SendBatch(count);
                    Volatile.Write(ref _lastEnd, Stopwatch.GetTimestamp());
                    Volatile.Write(ref _lastAllocated, GC.GetAllocatedBytesForCurrentThread() - allocated);
                }

                Interlocked.Increment(ref _completed);
            }
        }
        catch (Exception e)
        {
            // Decided here, not in a 'when' filter (src/NetZeroMQ/README.md, "Exception filters"). When stopping, the socket
            // was closed under a send on purpose.
            if (!_stopping)
            {
                _failure = e;
            }
        }
    }

    private void SendWarmup()
    {
        var clock = Stopwatch.StartNew();
        while (!_warmupReceived)
        {
            _sender.TrySendWarmup();

            // About one message per millisecond (.NET cannot sleep less; the native program polls a flag 20 x 50 us).
            Thread.Sleep(1);
            if (!_warmupReceived && clock.Elapsed > _timeout)
            {
                throw new TransferFailedException("warm-up: no message arrived within " + _timeout);
            }
        }
    }
}
