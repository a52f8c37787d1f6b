using System;
using System.Diagnostics;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;

// Benchmark classes live in the root namespace so that their published names stay short: NetZeroMQ.Benchmarks.<Class>.<Method>.
namespace NetZeroMQ.Benchmarks;

/// <summary>
/// The reactor under load of registrations: 1,000 PULL sockets (inproc), each with a receive pending in the reactor, and one
/// message at a time sent to each in turn, awaited, and the receive posted again: every message is a real wait and wake-up
/// with 999 other waits armed beside it (epoll's cost does not grow with them; the portable reactor's zmq_poll does). One case.
/// The setup also reports how long the 1,000 first receives took to become pending (each registers its socket and arms it).
/// Run it once per reactor: <c>NETZEROMQ_BENCH_PORTABLE_REACTOR=1</c> selects the portable one (see <see cref="AsyncSwitches"/>).
/// </summary>
[BenchmarkCategory(Categories.Async, Categories.PushPull)]
public class ReactorScaleBenchmarks
{
    /// <summary>Sockets with a pending receive.</summary>
    public const int Sockets = 1_000;

    /// <summary>Messages per invocation: ten rounds over the 1,000 sockets, so the time column reads per message.</summary>
    public const int MessagesPerInvoke = 10_000;

    private const int MessageSize = 64;

    private readonly byte[] _payload = new byte[MessageSize];
    private Context? _context;
    private Socket[] _pulls = Array.Empty<Socket>();
    private Socket[] _pushes = Array.Empty<Socket>();
    private Message[] _messages = Array.Empty<Message>();
    private ValueTask[] _pending = Array.Empty<ValueTask>();

    [GlobalSetup]
    public void Setup()
    {
        _context = new Context { DefaultLinger = TimeSpan.Zero, MaxSockets = 2 * Sockets + 16 }; // libzmq allows 1,023 by default
        _pulls = new Socket[Sockets];
        _pushes = new Socket[Sockets];
        _messages = new Message[Sockets];
        _pending = new ValueTask[Sockets];
        for (int i = 0; i < Sockets; i++)
        {
            string endpoint = "inproc://reactor-scale-" + i;
            _pulls[i] = new Socket(_context, SocketType.Pull);
            _pulls[i].Bind(endpoint);
            _pushes[i] = new Socket(_context, SocketType.Push);
            _pushes[i].Connect(endpoint);
            _messages[i] = new Message();
        }

        var started = Stopwatch.StartNew();
        for (int i = 0; i < Sockets; i++)
        {
            _pending[i] = _pulls[i].RecvAsync(_messages[i]);
        }

        started.Stop();
        Console.WriteLine($"// reactor {NetZeroMQ.Reactor.Current?.Kind ?? "(none started)"}: {Sockets} first receives pending in {started.Elapsed.TotalMilliseconds:F1} ms");
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        // Disposing a socket ends its pending receive (ObjectDisposedException), which nobody awaits any more.
        foreach (Socket push in _pushes)
        {
            push.Dispose();
        }

        foreach (Socket pull in _pulls)
        {
            pull.Dispose();
        }

        foreach (Message message in _messages)
        {
            message.Dispose();
        }

        _context?.Dispose();
    }

    /// <summary>Send to one socket, await its pending receive, post the next receive; round-robin over the 1,000.</summary>
    [Benchmark(OperationsPerInvoke = MessagesPerInvoke)]
    public async Task<long> MessageWithThousandWaiting()
    {
        long bytes = 0;
        for (int round = 0; round < MessagesPerInvoke / Sockets; round++)
        {
            for (int i = 0; i < Sockets; i++)
            {
                _pushes[i].Send(_payload);
                await _pending[i];
                int size = _messages[i].Size;
                if (size != MessageSize)
                {
                    throw new InvalidOperationException($"socket {i} received {size} bytes, not {MessageSize}");
                }

                bytes += size;
                _pending[i] = _pulls[i].RecvAsync(_messages[i]);
            }
        }

        return bytes;
    }
}
