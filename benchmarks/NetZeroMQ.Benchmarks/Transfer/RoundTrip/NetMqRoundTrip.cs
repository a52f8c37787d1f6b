using System;
using System.Runtime.InteropServices;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;
using NetMQ;
using NetZeroMQ.Benchmarks.Transfer.NetMq;

namespace NetZeroMQ.Benchmarks.Transfer.RoundTrip;

/// <summary>
/// NetMQ's round trip over its fastest path: the client copies the payload into a pooled Msg (InitPool, buffer-manager pool)
/// and receives the echo into one reused Msg; the server receives into reused Msgs and sends the same Msg back (NetMQ's idiom:
/// a send takes the Msg's content). tcp and inproc only: NetMQ's ipc is tcp over loopback. Awaited: NetMQ's own async, a
/// <see cref="NetMQRuntime"/> on each side's thread and <c>await ReceiveFrameBytesAsync()</c> for every frame (NetMQ has no
/// async send and no async receive into a Msg: its sends stay <c>SendFrame</c>, which does not wait below the high-water mark).
/// </summary>
public sealed class NetMqRoundTrip : RoundTripRig
{
    private readonly NetMQSocket _client;
    private readonly NetMQSocket _server;
    private readonly bool _routed;
    private readonly TimeSpan _timeout;
    private Msg _reply;

    public NetMqRoundTrip(RoundTripPattern pattern, Transport transport, int size, TimeSpan timeout, bool awaited = false)
        : base(size, awaited)
    {
        _routed = pattern == RoundTripPattern.DealerRouter;
        _timeout = timeout;
        NetMqSockets.UseBufferManagerPool(size);
        try
        {
            _server = NetMqSockets.Create(_routed ? "router" : "rep");
            _client = NetMqSockets.Configure(NetMqSockets.Create(_routed ? "dealer" : "req"));
            if (_routed)
            {
                _client.Options.Identity = SocketPair.SenderRoutingId;
            }

            _client.Connect(NetMqSockets.Bind(_server, transport));
        }
        catch
        {
            Dispose();
            throw;
        }

        _reply.InitEmpty();
        StartServer();
    }

    protected override void RoundTrip(ReadOnlySpan<byte> payload)
    {
        var msg = default(Msg);
        NetMqSockets.InitPooledCopy(ref msg, payload);
        NetMqSockets.SendOrThrow(_client, ref msg, _timeout, more: false);
        NetMqSockets.ReceiveOrThrow(_client, ref _reply, _timeout);
        CheckEcho(_reply.Size, payload.Length);
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    protected override async ValueTask RoundTripAsync(ReadOnlyMemory<byte> payload)
    {
        // The payload is the rig's own array (or empty): sent from it, as the blocking side copies from it.
        _client.SendFrame(MemoryMarshal.TryGetArray(payload, out ArraySegment<byte> array) ? array.Array! : Array.Empty<byte>(), payload.Length);
        (byte[] reply, _) = await _client.ReceiveFrameBytesAsync();
        CheckEcho(reply.Length, payload.Length);
    }

    protected override async Task EchoAsync()
    {
        while (true)
        {
            byte[]? id = null;
            if (_routed)
            {
                (id, _) = await _server.ReceiveFrameBytesAsync();
            }

            (byte[] frame, _) = await _server.ReceiveFrameBytesAsync();
            if (id is not null)
            {
                _server.SendMoreFrame(id);
            }

            _server.SendFrame(frame);
            if (frame.Length == 0)
            {
                return;
            }
        }
    }

    /// <summary>NetMQ's awaits complete on the thread that runs its runtime (a poller with a synchronization context).</summary>
    protected override void RunAsync(Func<Task> loop)
    {
        using var runtime = new NetMQRuntime();
        Task task = loop();
        runtime.Run(task);
        task.GetAwaiter().GetResult();
    }

    protected override void Echo()
    {
        var id = default(Msg);
        var msg = default(Msg);
        id.InitEmpty();
        msg.InitEmpty();
        try
        {
            while (true)
            {
                if (_routed)
                {
                    NetMqSockets.ReceiveOrThrow(_server, ref id, _timeout);
                }

                NetMqSockets.ReceiveOrThrow(_server, ref msg, _timeout);
                bool last = msg.Size == 0;
                if (_routed)
                {
                    NetMqSockets.SendOrThrow(_server, ref id, _timeout, more: true);
                }

                NetMqSockets.SendOrThrow(_server, ref msg, _timeout, more: false);
                if (last)
                {
                    return;
                }
            }
        }
        finally
        {
            id.Close();
            msg.Close();
        }
    }

    public override void Dispose()
    {
        _client?.Dispose();
        _server?.Dispose();
        if (_reply.IsInitialised)
        {
            _reply.Close();
        }
    }
}
