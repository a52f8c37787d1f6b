using System;
using System.Buffers;
using NetZeroMQ.Draft;

namespace NetZeroMQ.Benchmarks.Transfer;

/// <summary>
/// The sending side's message loop, one tight loop per <see cref="BufferStrategy"/>. Sends always block (bounded by the socket's
/// SendTimeout) and throw on any failure, so a message that cannot be sent fails the run; nothing is dropped silently
/// (PUB has XPUB_NODROP, the sending ROUTER has ROUTER_MANDATORY).
/// </summary>
public sealed class PayloadSender : IDisposable
{
    private readonly Socket _socket;
    private readonly bool _routed;
    private readonly BufferStrategy _strategy;
    private readonly int _size;
    private readonly byte[] _payload;
    private readonly Message? _message;
    private readonly Message? _idMessage;
    private readonly string? _group;

    /// <param name="group">The group every message carries (a RADIO's), or null; only with <see cref="BufferStrategy.Message"/>.</param>
    public PayloadSender(Socket socket, bool routed, BufferStrategy strategy, int messageSize, string? group = null)
    {
        if (group is not null && strategy != BufferStrategy.Message)
        {
            throw new ArgumentException($"A group travels on a Message: strategy {strategy} cannot carry one.", nameof(strategy));
        }

        if (messageSize < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(messageSize), messageSize, "Timed messages are never empty (empty ones are the warm-up).");
        }

        _socket = socket;
        _routed = routed;
        _strategy = strategy;
        _size = messageSize;
        _group = group;
        _payload = new byte[messageSize];
        for (int i = 0; i < _payload.Length; i++)
        {
            _payload[i] = (byte)i;
        }

        if (strategy == BufferStrategy.Message)
        {
            _message = new Message();
            _idMessage = new Message();
        }
    }

    public void SendBatch(int count)
    {
        switch (_strategy)
        {
            case BufferStrategy.Span: SendSpans(count); break;
            case BufferStrategy.ByteArray: SendNewArrays(count); break;
            case BufferStrategy.ArrayPool: SendPooledArrays(count); break;
            case BufferStrategy.Message: SendMessages(count); break;
            case BufferStrategy.MessageZeroCopy: SendZeroCopy(count); break;
            default: throw new ArgumentOutOfRangeException(nameof(_strategy), _strategy, null);
        }
    }

    /// <summary>One zero-length warm-up message. False while a ROUTER_MANDATORY peer is not connected yet (EHOSTUNREACH).</summary>
    public bool TrySendWarmup()
    {
        if (_routed)
        {
            try
            {
                _socket.Send(SocketPair.ReceiverRoutingId, SendFlags.SendMore);
            }
            catch (ZmqException e) when (e.Error == ZmqError.HostUnreachable)
            {
                return false;
            }
        }

        if (_group is not null)
        {
            _message!.Rebuild(ReadOnlySpan<byte>.Empty);
            _message.SetGroup(_group);
            _socket.Send(_message);
            return true;
        }

        _socket.Send(ReadOnlySpan<byte>.Empty);
        return true;
    }

    public void Dispose()
    {
        _message?.Dispose();
        _idMessage?.Dispose();
    }

    private void SendSpans(int count)
    {
        Socket socket = _socket;
        ReadOnlySpan<byte> payload = _payload;
        for (int i = 0; i < count; i++)
        {
            if (_routed)
            {
                socket.Send(SocketPair.ReceiverRoutingId, SendFlags.SendMore);
            }

            socket.Send(payload);
        }
    }

    private void SendNewArrays(int count)
    {
        Socket socket = _socket;
        for (int i = 0; i < count; i++)
        {
            var data = new byte[_size];
            _payload.CopyTo(data, 0);
            if (_routed)
            {
                socket.Send(SocketPair.ReceiverRoutingId, SendFlags.SendMore);
            }

            socket.Send(data);
        }
    }

    private void SendPooledArrays(int count)
    {
        Socket socket = _socket;
        ArrayPool<byte> pool = ArrayPool<byte>.Shared;
        for (int i = 0; i < count; i++)
        {
            byte[] rented = pool.Rent(_size);
            try
            {
                _payload.CopyTo(rented, 0);
                if (_routed)
                {
                    socket.Send(SocketPair.ReceiverRoutingId, SendFlags.SendMore);
                }

                socket.Send(new ReadOnlySpan<byte>(rented, 0, _size));
            }
            finally
            {
                pool.Return(rented);
            }
        }
    }

    private void SendZeroCopy(int count)
    {
        Socket socket = _socket;
        ReadOnlyMemory<byte> payload = _payload;
        for (int i = 0; i < count; i++)
        {
            if (_routed)
            {
                socket.Send(SocketPair.ReceiverRoutingId, SendFlags.SendMore);
            }

            socket.SendZeroCopy(payload);
        }
    }

    private void SendMessages(int count)
    {
        Socket socket = _socket;
        Message message = _message!;
        Message id = _idMessage!;
        ReadOnlySpan<byte> payload = _payload;
        string? group = _group;
        for (int i = 0; i < count; i++)
        {
            if (_routed)
            {
                id.Rebuild(SocketPair.ReceiverRoutingId);
                socket.Send(id, SendFlags.SendMore);
            }

            message.Rebuild(payload);
            if (group is not null)
            {
                // Rebuild starts a new zmq_msg_t without a group; as the C program, set it on every message.
                message.SetGroup(group);
            }

            socket.Send(message);
        }
    }
}
