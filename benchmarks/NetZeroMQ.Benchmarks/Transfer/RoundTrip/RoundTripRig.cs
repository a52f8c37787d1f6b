using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;

namespace NetZeroMQ.Benchmarks.Transfer.RoundTrip;

/// <summary>
/// A client socket and an echoing server socket on its own thread, as the native program's --roundtrip sets them up: the server
/// binds, the client connects; the client sends the payload and waits for its echo; an empty message tells the server to stop
/// (it echoes that too). A library (NetZeroMQ, NetMQ) supplies the socket calls, blocking or awaited; the timing is here, the
/// same for both. Awaited (<c>--mode async</c>): both sides are async loops (the client's waits for the echo, the server's for
/// the next request, are real awaited waits), started on their threads by <see cref="RunAsync"/>.
/// </summary>
public abstract class RoundTripRig : IDisposable
{
    private Thread? _server;
    private volatile Exception? _serverFailure;

    protected RoundTripRig(int size, bool awaited)
    {
        Payload = new byte[size];
        Payload.AsSpan().Fill(0x5a);
        Reply = new byte[size];
        Awaited = awaited;
    }

    protected byte[] Payload { get; }

    protected byte[] Reply { get; }

    /// <summary>Whether both sides await (SendAsync/RecvAsync) instead of blocking.</summary>
    protected bool Awaited { get; }

    /// <summary>Starts the echoing thread (the derived constructor calls it once both sockets exist).</summary>
    protected void StartServer()
    {
        _server = new Thread(() =>
        {
            try
            {
                if (Awaited)
                {
                    RunAsync(EchoAsync);
                }
                else
                {
                    Echo();
                }
            }
            catch (Exception e)
            {
                _serverFailure = e;
            }
        })
        { IsBackground = true, Name = "nzmq-bench-echo" };
        _server.Start();
    }

    /// <summary><paramref name="count"/> round trips of the payload (a benchmark invocation).</summary>
    public void Run(int count)
    {
        if (Awaited)
        {
            RunAsync(async () =>
            {
                for (int i = 0; i < count; i++)
                {
                    await RoundTripAsync(Payload);
                }
            });
            return;
        }

        for (int i = 0; i < count; i++)
        {
            RoundTrip(Payload);
        }
    }

    /// <summary>
    /// <paramref name="ticks"/>.Length timed round trips, each timed alone (Stopwatch ticks); returns the Stopwatch ticks of all.
    /// </summary>
    public long Measure(long[] ticks)
    {
        long start = Stopwatch.GetTimestamp();
        if (Awaited)
        {
            RunAsync(async () =>
            {
                for (int i = 0; i < ticks.Length; i++)
                {
                    long t = Stopwatch.GetTimestamp();
                    await RoundTripAsync(Payload);
                    ticks[i] = Stopwatch.GetTimestamp() - t;
                }
            });
        }
        else
        {
            for (int i = 0; i < ticks.Length; i++)
            {
                long t = Stopwatch.GetTimestamp();
                RoundTrip(Payload);
                ticks[i] = Stopwatch.GetTimestamp() - t;
            }
        }

        return Stopwatch.GetTimestamp() - start;
    }

    /// <summary>Stops the server with the empty message and waits for it; rethrows its failure.</summary>
    public void Stop(TimeSpan timeout)
    {
        if (Awaited)
        {
            RunAsync(() => RoundTripAsync(ReadOnlyMemory<byte>.Empty).AsTask());
        }
        else
        {
            RoundTrip(ReadOnlySpan<byte>.Empty);
        }

        if (_server is not null && !_server.Join(timeout))
        {
            throw new TransferFailedException("the echo thread did not stop within " + timeout);
        }

        if (_serverFailure is not null)
        {
            throw new TransferFailedException("the echo thread failed: " + _serverFailure.Message, _serverFailure);
        }
    }

    /// <summary>Sends <paramref name="payload"/> from the client and receives its echo, checking its length.</summary>
    protected abstract void RoundTrip(ReadOnlySpan<byte> payload);

    /// <summary>
    /// The same, awaited. A <see cref="ValueTask"/> so that an implementation can pool its state machine
    /// (<c>PoolingAsyncValueTaskMethodBuilder</c>): a round trip's allocations are then the library's own.
    /// </summary>
    protected abstract ValueTask RoundTripAsync(ReadOnlyMemory<byte> payload);

    /// <summary>The server loop: echo each message (with its routing id) until an empty one, echoed too.</summary>
    protected abstract void Echo();

    /// <summary>The same, awaited.</summary>
    protected abstract Task EchoAsync();

    /// <summary>
    /// Runs an async loop to its end on the calling thread: by default the loop starts here and its continuations run where the
    /// library completes them (NetZeroMQ: the thread pool); NetMQ's async needs its runtime on the thread.
    /// </summary>
    protected virtual void RunAsync(Func<Task> loop) => loop().GetAwaiter().GetResult();

    public abstract void Dispose();

    protected static void CheckEcho(int received, int sent)
    {
        if (received != sent)
        {
            throw new TransferFailedException($"echo of {received} bytes for a {sent}-byte message");
        }
    }
}
