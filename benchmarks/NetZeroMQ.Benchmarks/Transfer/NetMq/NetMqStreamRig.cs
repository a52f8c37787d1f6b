using System;
using System.Diagnostics;
using System.Threading;
using NetMQ;

namespace NetZeroMQ.Benchmarks.Transfer.NetMq;

/// <summary>
/// NetMQ's side of a streaming cell, with the method of <see cref="TransferRig"/> and the native program: the receiver binds,
/// the sender (a long-lived thread) connects; zero-length warm-up messages until one arrives; a batch is timed from the
/// sender's first send to the receiver's last receive; every payload must be exactly the message size.
/// PushPull and PubSub only. NetMQ has no XPUB_NODROP, so its PUB drops at the high-water mark; to lose nothing, the PubSub
/// rig sets both high-water marks to 0 (no limit), which a libzmq PUB with XPUB_NODROP does not need.
/// </summary>
public sealed class NetMqStreamRig : IDisposable
{
    private readonly NetMQSocket _sender;
    private readonly NetMQSocket _receiver;
    private readonly NetMqApi _api;
    private readonly int _size;
    private readonly TimeSpan _timeout;
    private readonly byte[] _payload;
    private readonly Thread _thread;
    private readonly SemaphoreSlim _go = new(0);
    private readonly SemaphoreSlim _done = new(0);
    private volatile bool _stopping;
    private volatile bool _warm;
    private int _batch; // messages the sender sends next; 0 = warm-up until _warm
    private long _start;
    private Exception? _failure;
    private Msg _received;

    public NetMqStreamRig(Pattern pattern, Transport transport, int size, NetMqApi api, TimeSpan timeout)
    {
        if (pattern is not (Pattern.PushPull or Pattern.PubSub))
        {
            throw new ArgumentOutOfRangeException(nameof(pattern), pattern, "NetMQ cells are PushPull and PubSub");
        }

        _api = api;
        _size = size;
        _timeout = timeout;
        _payload = new byte[size];
        _payload.AsSpan().Fill(0x5a);
        if (api == NetMqApi.Msg)
        {
            NetMqSockets.UseBufferManagerPool(size);
        }

        bool pubsub = pattern == Pattern.PubSub;
        _receiver = NetMqSockets.Create(pubsub ? "sub" : "pull");
        _sender = NetMqSockets.Configure(NetMqSockets.Create(pubsub ? "pub" : "push"));
        if (pubsub)
        {
            _receiver.Options.ReceiveHighWatermark = 0;
            _sender.Options.SendHighWatermark = 0;
            ((NetMQ.Sockets.SubscriberSocket)_receiver).Subscribe("");
        }

        _sender.Connect(NetMqSockets.Bind(_receiver, transport));
        _received.InitEmpty();
        _thread = new Thread(Send) { IsBackground = true, Name = "nzmq-bench-netmq-sender" };
        _thread.Start();
    }

    /// <summary>Zero-length messages about once a millisecond until one arrives: the connection (and subscription) is up.</summary>
    public void WarmUp()
    {
        Volatile.Write(ref _batch, 0);
        _go.Release();
        if (!_receiver.TryReceive(ref _received, _timeout))
        {
            throw Failed("warm-up: nothing arrived within " + _timeout);
        }

        _warm = true;
        WaitForSender();
    }

    /// <summary>One batch, timed like the native program; returns its seconds.</summary>
    public double RunTimedBatch(int count)
    {
        Volatile.Write(ref _batch, count);
        _go.Release();
        long bytes = 0;
        int received = 0;
        while (received < count)
        {
            int size = Receive();
            if (size == 0)
            {
                continue; // a late warm-up message
            }

            if (size != _size)
            {
                throw Failed($"a {size}-byte frame in a stream of {_size}-byte messages");
            }

            bytes += size;
            received++;
        }

        long end = Stopwatch.GetTimestamp();
        WaitForSender();
        return (end - Volatile.Read(ref _start)) / (double)Stopwatch.Frequency;
    }

    private int Receive()
    {
        if (_api == NetMqApi.Frame)
        {
            if (!_receiver.TryReceiveFrameBytes(_timeout, out byte[]? frame))
            {
                throw Failed("receive timed out after " + _timeout);
            }

            return frame.Length;
        }

        if (!_receiver.TryReceive(ref _received, _timeout))
        {
            throw Failed("receive timed out after " + _timeout);
        }

        return _received.Size;
    }

    private void Send()
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

                int count = Volatile.Read(ref _batch);
                if (count == 0)
                {
                    while (!_warm)
                    {
                        if (!_sender.TrySendFrameEmpty(_timeout))
                        {
                            throw new TransferFailedException("warm-up send timed out");
                        }

                        Thread.Sleep(1);
                    }
                }
                else
                {
                    Volatile.Write(ref _start, Stopwatch.GetTimestamp());
                    SendBatch(count);
                }

                _done.Release();
            }
        }
        catch (Exception e)
        {
            _failure = e;
            _done.Release();
        }
    }

    private void SendBatch(int count)
    {
        for (int i = 0; i < count; i++)
        {
            bool sent;
            if (_api == NetMqApi.Frame)
            {
                sent = _sender.TrySendFrame(_timeout, _payload);
            }
            else
            {
                var msg = default(Msg);
                NetMqSockets.InitPooledCopy(ref msg, _payload);
                sent = _sender.TrySend(ref msg, _timeout, more: false);
                if (!sent)
                {
                    msg.Close();
                }
            }

            if (!sent)
            {
                throw new TransferFailedException("NetMQ send timed out after " + _timeout);
            }
        }
    }

    private void WaitForSender()
    {
        if (!_done.Wait(_timeout))
        {
            throw Failed("the sender did not finish within " + _timeout);
        }

        if (_failure is not null)
        {
            throw Failed("the sender failed");
        }
    }

    private TransferFailedException Failed(string what) =>
        new("NetMQ " + what + (_failure is null ? "" : ": sender: " + _failure.Message), _failure);

    public void Dispose()
    {
        _stopping = true;
        _go.Release();
        _sender.Dispose();
        _receiver.Dispose();
        _thread.Join(_timeout);
        if (_received.IsInitialised)
        {
            _received.Close();
        }
    }
}
