using System;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

namespace NetZeroMQ.Benchmarks.Transfer.RoundTrip;

/// <summary>
/// NetZeroMQ's round trip over its span path: Send(ReadOnlySpan) and Recv(Span) on both sides, the calls the native program
/// makes (zmq_send/zmq_recv). LINGER 0 and send/receive timeouts on both sockets, as everywhere in this tool. Awaited: the same
/// calls as <c>await SendAsync(ReadOnlyMemory)</c> / <c>await RecvAsync(Memory)</c> on both sides (no cancellation token, so no
/// registration per wait; a hang ends with the child process's timeout).
/// </summary>
public sealed class NetZeroMqRoundTrip : RoundTripRig
{
    private readonly Context _context = new();
    private readonly Socket _client;
    private readonly Socket _server;
    private readonly bool _routed;
    private readonly byte[] _serverBuffer;
    private readonly byte[] _serverId = new byte[256];

    public NetZeroMqRoundTrip(RoundTripPattern pattern, Transport transport, int size, TimeSpan timeout, bool awaited = false)
        : base(size, awaited)
    {
        _routed = pattern == RoundTripPattern.DealerRouter;
        _serverBuffer = new byte[size];
        try
        {
            _server = new Socket(_context, _routed ? SocketType.Router : SocketType.Rep);
            _client = new Socket(_context, _routed ? SocketType.Dealer : SocketType.Req);
            foreach (Socket socket in new[] { _server, _client })
            {
                socket.Linger = TimeSpan.Zero;
                socket.SendTimeout = timeout;
                socket.ReceiveTimeout = timeout;
            }

            if (_routed)
            {
                _client.RoutingId = SocketPair.SenderRoutingId;
            }

            string bind = Endpoints.ForBind(transport);
            _server.Bind(bind);
            _client.Connect(transport == Transport.Inproc ? bind : _server.LastEndpoint);
        }
        catch
        {
            Dispose();
            throw;
        }

        StartServer();
    }

    protected override void RoundTrip(ReadOnlySpan<byte> payload)
    {
        _client.Send(payload);
        RecvResult result = _client.Recv(Reply);
        CheckEcho(result.MessageSize, payload.Length);
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    protected override async ValueTask RoundTripAsync(ReadOnlyMemory<byte> payload)
    {
        await _client.SendAsync(payload);
        RecvResult result = await _client.RecvAsync(Reply);
        CheckEcho(result.MessageSize, payload.Length);
    }

    protected override async Task EchoAsync()
    {
        while (true)
        {
            int idLength = 0;
            if (_routed)
            {
                RecvResult routing = await _server.RecvAsync(_serverId);
                if (routing.IsTruncated)
                {
                    throw new TransferFailedException("routing id longer than 256 bytes");
                }

                idLength = routing.BytesWritten;
            }

            RecvResult result = await _server.RecvAsync(_serverBuffer);
            if (result.IsTruncated)
            {
                throw new TransferFailedException($"frame of {result.MessageSize} bytes truncated to {_serverBuffer.Length}");
            }

            if (_routed)
            {
                await _server.SendAsync(_serverId.AsMemory(0, idLength), SendFlags.SendMore);
            }

            await _server.SendAsync(_serverBuffer.AsMemory(0, result.BytesWritten));
            if (result.BytesWritten == 0)
            {
                return;
            }
        }
    }

    protected override void Echo()
    {
        Span<byte> id = stackalloc byte[256];
        while (true)
        {
            int idLength = 0;
            if (_routed)
            {
                RecvResult routing = _server.Recv(id);
                if (routing.IsTruncated)
                {
                    throw new TransferFailedException("routing id longer than 256 bytes");
                }

                idLength = routing.BytesWritten;
            }

            RecvResult result = _server.Recv(_serverBuffer);
            if (result.IsTruncated)
            {
                throw new TransferFailedException($"frame of {result.MessageSize} bytes truncated to {_serverBuffer.Length}");
            }

            if (_routed)
            {
                _server.Send(id[..idLength], SendFlags.SendMore);
            }

            _server.Send(_serverBuffer.AsSpan(0, result.BytesWritten));
            if (result.BytesWritten == 0)
            {
                return;
            }
        }
    }

    public override void Dispose()
    {
        _client?.Dispose();
        _server?.Dispose();
        _context.Dispose();
    }
}
