using System;
using System.Buffers.Binary;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;

namespace NetZeroMQ.Benchmarks.Transfer.WakeUp;

/// <summary>
/// One wake-up at a time, timed from the send to the moment the waiting receiver runs again: a ROUTER (bound, inproc) sends a
/// 64 B message to one of its DEALERs, whose receive is really waiting when the message is sent.
/// <list type="bullet">
/// <item><c>blocking</c> (the reference): one DEALER, received by a thread blocked in <c>Recv</c>; that thread reads the clock,
/// then acknowledges over a PUSH/PULL pair, and the measuring thread waits for the acknowledgement before the next send.</item>
/// <item><c>async</c>: <c>--sockets</c> DEALERs, each with an awaited <c>RecvAsync</c> pending in the reactor; one message to
/// each in turn, awaited (the clock is read in the continuation), and the receive posted again, so every message is a reactor
/// wake-up beside N - 1 armed waits (ReactorScaleBenchmarks' case, timed one message at a time).</item>
/// <item><c>observed</c> (a diagnostic): the same pending receives, but the sending thread spins on the task's
/// <c>IsCompleted</c> instead of awaiting it, so the time ends when the reactor thread has woken, received the frame and
/// completed the operation, before any continuation is scheduled: <c>async</c> minus <c>observed</c> is what the hop to
/// the thread pool and the continuation's start add.</item>
/// </list>
/// </summary>
public sealed class WakeUpRig : IDisposable
{
    private const int Size = 64;

    private readonly Context _context;
    private readonly Socket _router;
    private readonly Socket[] _dealers;
    private readonly byte[][] _ids;
    private readonly byte[][] _buffers;
    private readonly ValueTask<RecvResult>[] _pending;
    private readonly bool _awaited;
    private readonly bool _observed;
    private readonly byte[] _payload = new byte[Size];
    private readonly Socket? _ackPush;
    private readonly Socket? _ackPull;
    private readonly Thread? _waiter;
    private readonly SemaphoreSlim _go = new(0);
    private int _next;
    private int _todo;
    private long[]? _ticks;
    private long _sentAt;
    private volatile bool _stopping;
    private volatile Exception? _waiterFailure;

    public WakeUpRig(bool awaited, int sockets, TimeSpan timeout, bool observed = false)
    {
        _awaited = awaited || observed;
        _observed = observed;
        awaited = _awaited;
        int n = awaited ? sockets : 1;
        _context = new Context { DefaultLinger = TimeSpan.Zero, MaxSockets = n + 16 }; // libzmq allows 1,023 by default
        _dealers = new Socket[n];
        _ids = new byte[n][];
        _buffers = new byte[n][];
        _pending = new ValueTask<RecvResult>[n];
        _router = new Socket(_context, SocketType.Router) { SendTimeout = timeout, ReceiveTimeout = timeout };
        _router.SetOption(SocketOptions.RouterMandatory, true);
        string endpoint = Endpoints.ForBind(Transport.Inproc);
        _router.Bind(endpoint);
        for (int i = 0; i < n; i++)
        {
            _ids[i] = new byte[5];
            _ids[i][0] = (byte)'w'; // a routing id may not start with a zero byte
            BinaryPrimitives.WriteInt32BigEndian(_ids[i].AsSpan(1), i);
            _buffers[i] = new byte[Size + 64];
            _dealers[i] = new Socket(_context, SocketType.Dealer) { RoutingId = _ids[i], SendTimeout = timeout, ReceiveTimeout = timeout };
            _dealers[i].Connect(endpoint);
            _dealers[i].Send(ReadOnlySpan<byte>.Empty); // the ROUTER knows the DEALER once it has received from it
        }

        Span<byte> scratch = stackalloc byte[16];
        for (int i = 0; i < 2 * n; i++)
        {
            _router.Recv(scratch);
        }

        if (awaited)
        {
            var started = Stopwatch.StartNew();
            for (int i = 0; i < n; i++)
            {
                _pending[i] = _dealers[i].RecvAsync(_buffers[i]);
            }

            SetupMilliseconds = started.Elapsed.TotalMilliseconds;
            return;
        }

        string ack = Endpoints.ForBind(Transport.Inproc);
        _ackPull = new Socket(_context, SocketType.Pull) { ReceiveTimeout = timeout };
        _ackPull.Bind(ack);
        _ackPush = new Socket(_context, SocketType.Push) { SendTimeout = timeout };
        _ackPush.Connect(ack);
        _waiter = new Thread(Wait) { IsBackground = true, Name = "nzmq-bench-waiter" };
        _waiter.Start();
    }

    /// <summary>How long the first receives took to become pending (async), in milliseconds.</summary>
    public double SetupMilliseconds { get; }

    /// <summary><paramref name="count"/> wake-ups, untimed.</summary>
    public void Run(int count) => Measure(new long[count]);

    /// <summary><paramref name="ticks"/>.Length wake-ups, each timed alone (Stopwatch ticks from the send to the waiter running).</summary>
    public void Measure(long[] ticks)
    {
        if (_observed)
        {
            MeasureObserved(ticks);
            return;
        }

        if (_awaited)
        {
            MeasureAwaited(ticks).GetAwaiter().GetResult();
            return;
        }

        _ticks = ticks;
        _todo = ticks.Length;
        _go.Release();
        for (int i = 0; i < ticks.Length; i++)
        {
            Volatile.Write(ref _sentAt, Stopwatch.GetTimestamp());
            _router.Send(_ids[0], SendFlags.SendMore);
            _router.Send(_payload);
            _ackPull!.Recv(Span<byte>.Empty);
            if (_waiterFailure is { } failure)
            {
                throw new TransferFailedException("the waiting thread failed: " + failure.Message, failure);
            }
        }
    }

    private async Task MeasureAwaited(long[] ticks)
    {
        for (int k = 0; k < ticks.Length; k++)
        {
            int i = _next;
            _next = i + 1 == _dealers.Length ? 0 : i + 1;
            long sent = Stopwatch.GetTimestamp();
            _router.Send(_ids[i], SendFlags.SendMore);
            _router.Send(_payload);
            RecvResult result = await _pending[i];
            ticks[k] = Stopwatch.GetTimestamp() - sent;
            Check(result);
            _pending[i] = _dealers[i].RecvAsync(_buffers[i]);
        }
    }

    private void MeasureObserved(long[] ticks)
    {
        for (int k = 0; k < ticks.Length; k++)
        {
            int i = _next;
            _next = i + 1 == _dealers.Length ? 0 : i + 1;
            long sent = Stopwatch.GetTimestamp();
            _router.Send(_ids[i], SendFlags.SendMore);
            _router.Send(_payload);
            ValueTask<RecvResult> pending = _pending[i];
            while (!pending.IsCompleted)
            {
                // Spin: the point is to see the completion the moment the reactor thread makes it.
            }

            ticks[k] = Stopwatch.GetTimestamp() - sent;
            Check(pending.GetAwaiter().GetResult());
            _pending[i] = _dealers[i].RecvAsync(_buffers[i]);
        }
    }

    /// <summary>The blocking waiter: per batch, receive each message blocked in Recv, read the clock, acknowledge.</summary>
    private void Wait()
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

                for (int k = _todo, i = 0; i < k; i++)
                {
                    RecvResult result = _dealers[0].Recv(_buffers[0]);
                    _ticks![i] = Stopwatch.GetTimestamp() - Volatile.Read(ref _sentAt);
                    Check(result);
                    _ackPush!.Send(ReadOnlySpan<byte>.Empty);
                }
            }
        }
        catch (Exception e)
        {
            _waiterFailure = e;
            _ackPush?.TrySend(ReadOnlySpan<byte>.Empty); // wakes the measuring thread, which reports the failure
        }
    }

    private static void Check(RecvResult result)
    {
        if (result.MessageSize != Size)
        {
            throw new TransferFailedException($"received {result.MessageSize} bytes, not {Size}");
        }
    }

    public void Dispose()
    {
        _stopping = true;
        _go.Release();
        _waiter?.Join(TimeSpan.FromSeconds(5));
        _ackPush?.Dispose();
        _ackPull?.Dispose();

        // Disposing a DEALER ends its pending receive (ObjectDisposedException), which nobody awaits any more.
        foreach (Socket? dealer in _dealers)
        {
            dealer?.Dispose();
        }

        _router.Dispose();
        _context.Dispose();
        _go.Dispose();
    }
}
