using System;
using NetMQ;
using NetMQ.Sockets;

namespace NetZeroMQ.Benchmarks.Transfer.NetMq;

/// <summary>
/// What the NetMQ rigs share: endpoints that never collide, LINGER 0, and the buffer pool. NetMQ runs in this process (it is
/// pure managed code); it has no send/receive timeout options, so every call is its Try form with <see cref="TimeSpan"/>.
/// </summary>
public static class NetMqSockets
{
    /// <summary>
    /// NetMQ's pooled Msg (<see cref="Msg.InitPool"/>) takes arrays from <see cref="BufferPool"/>, which by default allocates a
    /// new one each time (its GC pool); its buffer-manager pool is the one that reuses them. Set once per process, before any
    /// socket, by every NetMQ cell that uses Msg.
    /// </summary>
    public static void UseBufferManagerPool(int largestMessage) =>
        BufferPool.SetBufferManagerBufferPool(256L * 1024 * 1024, Math.Max(largestMessage, 8192));

    /// <summary>Binds <paramref name="socket"/> where this tool's endpoints bind and returns the endpoint to connect to.</summary>
    public static string Bind(NetMQSocket socket, Transport transport)
    {
        socket.Options.Linger = TimeSpan.Zero;
        if (transport == Transport.Ipc)
        {
            // NetMQ's ipc:// is tcp over loopback under another name (its IpcListener is its TcpListener), not a Unix-domain
            // socket; comparing it with libzmq's ipc would mislabel a tcp number.
            throw new NotSupportedException("NetMQ has no real ipc transport (its ipc:// is tcp over loopback)");
        }

        if (transport == Transport.Inproc)
        {
            string name = Endpoints.ForBind(Transport.Inproc);
            socket.Bind(name);
            return name;
        }

        int port = socket.BindRandomPort("tcp://127.0.0.1");
        return "tcp://127.0.0.1:" + port.ToString(System.Globalization.CultureInfo.InvariantCulture);
    }

    public static T Configure<T>(T socket)
        where T : NetMQSocket
    {
        socket.Options.Linger = TimeSpan.Zero;
        return socket;
    }

    public static void SendOrThrow(NetMQSocket socket, ref Msg msg, TimeSpan timeout, bool more)
    {
        if (!socket.TrySend(ref msg, timeout, more))
        {
            throw new TransferFailedException("NetMQ send timed out after " + timeout);
        }
    }

    public static void ReceiveOrThrow(NetMQSocket socket, ref Msg msg, TimeSpan timeout)
    {
        if (!socket.TryReceive(ref msg, timeout))
        {
            throw new TransferFailedException("NetMQ receive timed out after " + timeout);
        }
    }

    /// <summary>A NetMQ Msg holding a copy of <paramref name="payload"/> in a pooled array (NetMQ's own fast path).</summary>
    public static void InitPooledCopy(ref Msg msg, ReadOnlySpan<byte> payload)
    {
        if (payload.IsEmpty)
        {
            msg.InitEmpty();
            return;
        }

        msg.InitPool(payload.Length);
        payload.CopyTo(msg.Slice());
    }

    /// <summary>The NetMQ socket types this tool uses, by role.</summary>
    public static NetMQSocket Create(string kind) => kind switch
    {
        "push" => new PushSocket(),
        "pull" => new PullSocket(),
        "pub" => new PublisherSocket(),
        "sub" => new SubscriberSocket(),
        "req" => new RequestSocket(),
        "rep" => new ResponseSocket(),
        "dealer" => new DealerSocket(),
        "router" => new RouterSocket(),
        _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "unknown NetMQ socket kind"),
    };
}
