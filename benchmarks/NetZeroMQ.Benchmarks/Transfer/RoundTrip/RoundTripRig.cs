using System;
using System.Diagnostics;
using System.Threading;

namespace NetZeroMQ.Benchmarks.Transfer.RoundTrip;

/// <summary>
/// A client socket and an echoing server socket on its own thread, as the native program's --roundtrip sets them up: the server
/// binds, the client connects; the client sends the payload and waits for its echo; an empty message tells the server to stop
/// (it echoes that too). A library (NetZeroMQ, NetMQ) supplies the three socket calls; the timing is here, the same for both.
/// </summary>
public abstract class RoundTripRig : IDisposable
{
    private Thread? _server;
    private volatile Exception? _serverFailure;

    protected RoundTripRig(int size)
    {
        Payload = new byte[size];
        Payload.AsSpan().Fill(0x5a);
        Reply = new byte[size];
    }

    protected byte[] Payload { get; }

    protected byte[] Reply { get; }

    /// <summary>Starts the echoing thread (the derived constructor calls it once both sockets exist).</summary>
    protected void StartServer()
    {
        _server = new Thread(() =>
        {
            try
            {
                Echo();
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
        for (int i = 0; i < ticks.Length; i++)
        {
            long t = Stopwatch.GetTimestamp();
            RoundTrip(Payload);
            ticks[i] = Stopwatch.GetTimestamp() - t;
        }

        return Stopwatch.GetTimestamp() - start;
    }

    /// <summary>Stops the server with the empty message and waits for it; rethrows its failure.</summary>
    public void Stop(TimeSpan timeout)
    {
        RoundTrip(ReadOnlySpan<byte>.Empty);
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

    /// <summary>The server loop: echo each message (with its routing id) until an empty one, echoed too.</summary>
    protected abstract void Echo();

    public abstract void Dispose();

    protected static void CheckEcho(int received, int sent)
    {
        if (received != sent)
        {
            throw new TransferFailedException($"echo of {received} bytes for a {sent}-byte message");
        }
    }
}
