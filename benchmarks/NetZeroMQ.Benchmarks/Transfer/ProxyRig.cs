using System;
using System.Threading;

namespace NetZeroMQ.Benchmarks.Transfer;

/// <summary>Which proxy forwards the messages of a <see cref="ProxyRig"/>.</summary>
public enum ProxyKind
{
    /// <summary>libzmq's <c>zmq_proxy</c> (<see cref="Proxy.Run"/>).</summary>
    Libzmq,

    /// <summary>libzmq's <c>zmq_proxy_steerable</c> with a control socket (what <see cref="SteerableProxy"/> ran before it
    /// had a loop of its own); called through the library's interop, as nothing public runs it any more.</summary>
    LibzmqSteerable,

    /// <summary><see cref="SteerableProxy"/>: NetZeroMQ's own steering loop.</summary>
    Steerable,
}

/// <summary>
/// PUSH -> [PULL frontend | proxy | PUSH backend] -> PULL over inproc, in one context: the long-lived sender thread sends
/// batches into the frontend, the proxy forwards them on its own thread, and the calling thread receives them from the backend
/// (blocking, span buffers, every message checked as in <see cref="TransferRig"/>). The proxy runs until <see cref="Dispose"/>,
/// which shuts the context down (libzmq's proxies end only so).
/// </summary>
public sealed class ProxyRig : IDisposable
{
    private readonly Context _context = new();
    private readonly Socket _producer;
    private readonly Socket _frontend;
    private readonly Socket _backend;
    private readonly Socket _consumer;
    private readonly Socket? _control;
    private readonly Socket? _controller;
    private readonly PayloadSender _payloadSender;
    private readonly PayloadReceiver _receiver;
    private readonly SenderThread _sender;
    private readonly SteerableProxy? _steerable;
    private readonly Thread? _proxyThread;
    private Exception? _proxyFailure;

    public ProxyRig(ProxyKind kind, int messageSize, TimeSpan timeout)
    {
        _context.DefaultLinger = TimeSpan.Zero;
        _producer = NewSocket(SocketType.Push, timeout);
        _frontend = NewSocket(SocketType.Pull, timeout);
        _backend = NewSocket(SocketType.Push, timeout);
        _consumer = NewSocket(SocketType.Pull, timeout);
        string input = Endpoints.ForBind(Transport.Inproc);
        string output = Endpoints.ForBind(Transport.Inproc);
        _frontend.Bind(input);
        _producer.Connect(input);
        _backend.Bind(output);
        _consumer.Connect(output);
        _payloadSender = new PayloadSender(_producer, routed: false, BufferStrategy.Span, messageSize);
        _receiver = new PayloadReceiver(_consumer, routed: false, pollEach: false, BufferStrategy.Span, ReceiveMode.Blocking, messageSize, timeout);
        _sender = new SenderThread(_payloadSender, timeout);
        switch (kind)
        {
            case ProxyKind.Libzmq:
                _proxyThread = StartThread(() => Proxy.Run(_frontend, _backend));
                break;
            case ProxyKind.LibzmqSteerable:
                _control = NewSocket(SocketType.Pair, timeout);
                _controller = NewSocket(SocketType.Pair, timeout);
                string control = Endpoints.ForBind(Transport.Inproc);
                _control.Bind(control);
                _controller.Connect(control);
                _proxyThread = StartThread(RunLibzmqSteerable);
                break;
            default:
                _steerable = new SteerableProxy(_frontend, _backend);
                _steerable.Start();
                break;
        }

        WarmUp();
    }

    /// <summary>Asks the sender for <paramref name="count"/> messages and receives them through the proxy; returns payload bytes.</summary>
    public long RunBatch(int count)
    {
        _sender.StartBatch(count);
        try
        {
            return _receiver.ReceiveBatch(count);
        }
        catch (Exception e)
        {
            throw Explain(e);
        }
    }

    public void Dispose()
    {
        // The shutdown ends libzmq's proxies (ETERM) and the steerable one, and any send or receive blocked meanwhile.
        _context.Shutdown();
        _proxyThread?.Join(TimeSpan.FromSeconds(5));
        _steerable?.Dispose();
        _sender.Dispose();
        _receiver.Dispose();
        _payloadSender.Dispose();
        foreach (Socket? socket in new[] { _producer, _frontend, _backend, _consumer, _control, _controller })
        {
            socket?.Dispose();
        }

        _context.Dispose();
    }

    private void WarmUp()
    {
        _sender.StartWarmup();
        try
        {
            _receiver.ReceiveWarmup();
        }
        catch (Exception e)
        {
            throw Explain(e);
        }

        _sender.AcknowledgeWarmup();
        _sender.WaitUntilIdle();
    }

    private Exception Explain(Exception receiverFailure) =>
        _proxyFailure is { } failure
            ? new TransferFailedException("the proxy failed: " + failure.Message + " (then the receiver: " + receiverFailure.Message + ")", failure)
            : _sender.Explain(receiverFailure);

    private void RunLibzmqSteerable()
    {
        ProxySockets sockets = ProxySockets.Enter(_frontend, _backend, capture: null, _control);
        try
        {
            // Returns -1 with ETERM when Dispose shuts the context down.
            Interop.Zmq.zmq_proxy_steerable(sockets.Frontend, sockets.Backend, 0, sockets.Control);
        }
        finally
        {
            sockets.Exit();
        }
    }

    private Thread StartThread(Action run)
    {
        var thread = new Thread(() =>
        {
            try
            {
                run();
            }
            catch (Exception e)
            {
                _proxyFailure = e;
            }
        })
        { IsBackground = true, Name = "nzmq-bench-proxy" };
        thread.Start();
        return thread;
    }

    private Socket NewSocket(SocketType type, TimeSpan timeout) =>
        new(_context, type) { Linger = TimeSpan.Zero, SendTimeout = timeout, ReceiveTimeout = timeout };
}
