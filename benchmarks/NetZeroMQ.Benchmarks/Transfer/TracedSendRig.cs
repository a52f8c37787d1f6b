using System;
using System.Diagnostics;
using System.Threading.Tasks;
using NetZeroMQ.Hosting;

namespace NetZeroMQ.Benchmarks.Transfer;

/// <summary>
/// NetZeroMQ.Hosting's traced send (<see cref="ZmqTracing.SendTracedAsync"/>) against the untraced one it wraps
/// (<c>SendMultipartAsync</c>), on one thread: PUSH to PULL over inproc, a 64 B one-frame message built in one reused
/// <see cref="MultipartMessage"/>, sent (below the high-water mark, so every send completes at once) in batches of
/// <see cref="Batch"/> and received back into another reused one, checking each frame count and size. Nothing subscribes to
/// the <c>NetZeroMQ</c> activity source in this process, so the traced send finds no listener: it must cost nothing.
/// </summary>
public sealed class TracedSendRig : IDisposable
{
    /// <summary>Messages sent before they are received (below libzmq's default high-water mark of 1,000).</summary>
    public const int Batch = 100;

    private const int Size = 64;

    private readonly Context _context = new() { DefaultLinger = TimeSpan.Zero };
    private readonly Socket _push;
    private readonly Socket _pull;
    private readonly MultipartMessage _outgoing = new();
    private readonly MultipartMessage _incoming = new();
    private readonly byte[] _payload = new byte[Size];

    public TracedSendRig()
    {
        _pull = new Socket(_context, SocketType.Pull) { ReceiveTimeout = TimeSpan.FromSeconds(20) };
        string endpoint = Endpoints.ForBind(Transport.Inproc);
        _pull.Bind(endpoint);
        _push = new Socket(_context, SocketType.Push) { SendTimeout = TimeSpan.FromSeconds(20) };
        _push.Connect(endpoint);
    }

    /// <summary>Sends that did not complete at once and were waited for (a wait measures the reactor, not the tracing).</summary>
    public int Waits { get; private set; }

    /// <summary>Sends and receives <paramref name="count"/> messages (a multiple of <see cref="Batch"/>), traced or not.</summary>
    public long Run(int count, bool traced, int expectedFrames = 1)
    {
        long bytes = 0;
        for (int done = 0; done < count; done += Batch)
        {
            for (int i = 0; i < Batch; i++)
            {
                _outgoing.Add(_payload);
                ValueTask send = traced ? _push.SendTracedAsync(_outgoing) : _push.SendMultipartAsync(_outgoing);
                if (send.IsCompleted)
                {
                    send.GetAwaiter().GetResult(); // a completed operation is finished (and its object freed) by taking its result
                }
                else
                {
                    Waits++;
                    send.AsTask().GetAwaiter().GetResult();
                }
            }

            for (int i = 0; i < Batch; i++)
            {
                _pull.RecvMultipart(_incoming);
                if (_incoming.Count != expectedFrames || _incoming[0].Size != Size)
                {
                    throw new TransferFailedException($"received {_incoming.Count} frame(s), the first of {_incoming[0].Size} bytes; expected {expectedFrames}, {Size} bytes");
                }

                bytes += _incoming[0].Size;
            }
        }

        return bytes;
    }

    /// <summary>Managed bytes this thread allocated while <paramref name="count"/> messages went through <see cref="Run"/>.</summary>
    public long Allocated(int count, bool traced, int expectedFrames = 1)
    {
        long before = GC.GetAllocatedBytesForCurrentThread();
        Run(count, traced, expectedFrames);
        return GC.GetAllocatedBytesForCurrentThread() - before;
    }

    /// <summary>Whether anything listens to NetZeroMQ's activity source (the rows are about the case where nothing does).</summary>
    public static bool HasListener()
    {
        using var probe = new ActivitySource(ZmqTracing.ActivitySourceName);
        return probe.HasListeners();
    }

    public void Dispose()
    {
        _outgoing.Dispose();
        _incoming.Dispose();
        _push.Dispose();
        _pull.Dispose();
        _context.Dispose();
    }
}
