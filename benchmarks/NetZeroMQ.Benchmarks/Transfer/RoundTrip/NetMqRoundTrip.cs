using System;
using NetMQ;
using NetZeroMQ.Benchmarks.Transfer.NetMq;

namespace NetZeroMQ.Benchmarks.Transfer.RoundTrip;

/// <summary>
/// NetMQ's round trip over its fastest path: the client copies the payload into a pooled Msg (InitPool, buffer-manager pool)
/// and receives the echo into one reused Msg; the server receives into reused Msgs and sends the same Msg back (NetMQ's idiom:
/// a send takes the Msg's content). tcp and inproc only: NetMQ's ipc is tcp over loopback.
/// </summary>
public sealed class NetMqRoundTrip : RoundTripRig
{
    private readonly NetMQSocket _client;
    private readonly NetMQSocket _server;
    private readonly bool _routed;
    private readonly TimeSpan _timeout;
    private Msg _reply;

    public NetMqRoundTrip(RoundTripPattern pattern, Transport transport, int size, TimeSpan timeout)
        : base(size)
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
