using System;
using System.Buffers;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

namespace NetZeroMQ.Benchmarks.Transfer;

/// <summary>
/// The receiving side: one loop per <see cref="ReceiveMode"/>, frames read with a <see cref="BufferStrategy"/>. Every frame is
/// checked: a truncated frame, a payload of the wrong size or a routing id that is not 1 byte fails the run; zero-length frames
/// are leftovers of the warm-up and are skipped; the payload bytes of a batch must add up to count * size. No wait can hang:
/// blocking receives have the socket's ReceiveTimeout, the other modes fail after the same time without progress.
/// </summary>
public sealed class PayloadReceiver : IDisposable
{
    private const int RoutingIdBufferSize = 256;

    private readonly Socket _socket;
    private readonly bool _routed;
    private readonly BufferStrategy _strategy;
    private readonly ReceiveMode _mode;
    private readonly int _size;
    private readonly int _bufferSize;
    private readonly int _timeoutMs;
    private readonly byte[] _buffer;
    private readonly byte[] _idBuffer = new byte[RoutingIdBufferSize];
    private readonly Message? _message;
    private readonly Poller? _poller;
    private readonly bool _pollEach;

    /// <param name="pollEach">
    /// Wait in a Poller on the socket before every message, then receive it blocking (what an application serving several
    /// sockets from one poller does; the native program's routerrouterpoller). Needs <see cref="ReceiveMode.Blocking"/>.
    /// </param>
    public PayloadReceiver(Socket socket, bool routed, bool pollEach, BufferStrategy strategy, ReceiveMode mode, int messageSize, TimeSpan timeout)
    {
        if (pollEach && mode != ReceiveMode.Blocking)
        {
            throw new ArgumentException($"polling before every message has its own wait: the receive mode must be Blocking, not {mode}", nameof(mode));
        }

        _socket = socket;
        _pollEach = pollEach;
        _routed = routed;
        _strategy = strategy;
        _mode = mode;
        _size = messageSize;

        // Larger than the message, so that a frame bigger than expected is seen as such and not silently cut to size.
        _bufferSize = messageSize + Math.Max(64, messageSize / 8);
        _buffer = strategy == BufferStrategy.Span ? new byte[_bufferSize] : Array.Empty<byte>();
        _timeoutMs = (int)timeout.TotalMilliseconds;
        if (strategy == BufferStrategy.Message || strategy == BufferStrategy.MessageZeroCopy)
        {
            _message = new Message();
        }

        if (mode == ReceiveMode.Poller || pollEach)
        {
            _poller = new Poller();
            _poller.Add(socket, PollEvents.In);
        }
    }

    /// <summary>Receives until the first zero-length (warm-up) message; fails on anything else.</summary>
    public void ReceiveWarmup()
    {
        int size;
        while ((size = ReceiveMessage(wait: true)) != 0)
        {
            throw new TransferFailedException("warm-up: expected a zero-length message, got " + size + " bytes");
        }
    }

    /// <summary>Receives <paramref name="count"/> timed messages and returns their payload bytes (already checked).</summary>
    public long ReceiveBatch(int count)
    {
        long bytes = _pollEach ? ReceivePollingEach(count) : _mode switch
        {
            ReceiveMode.Blocking => ReceiveBlocking(count),
            ReceiveMode.BlockingBatch => ReceiveBlockingBatch(count),
            ReceiveMode.NonBlocking => ReceiveNonBlocking(count, yield: true),
            ReceiveMode.NonBlockingSpin => ReceiveNonBlocking(count, yield: false),
            ReceiveMode.Poller => ReceivePolling(count),
            ReceiveMode.Async => ReceiveAsyncLoop(count).GetAwaiter().GetResult(),
            _ => throw new ArgumentOutOfRangeException(nameof(_mode), _mode, null),
        };
        if (bytes != (long)count * _size)
        {
            throw new TransferFailedException($"received {bytes} payload bytes, expected {count} x {_size} = {(long)count * _size}");
        }

        return bytes;
    }

    public void Dispose()
    {
        _poller?.Dispose();
        _message?.Dispose();
    }

    private long ReceiveBlocking(int count)
    {
        long bytes = 0;
        int received = 0;
        while (received < count)
        {
            Account(ReceiveMessage(wait: true), ref bytes, ref received);
        }

        return bytes;
    }

    private long ReceivePollingEach(int count)
    {
        long bytes = 0;
        int received = 0;
        while (received < count)
        {
            if (_poller!.Poll(_timeoutMs) == 0)
            {
                throw Stalled(received, count);
            }

            Account(ReceiveMessage(wait: true), ref bytes, ref received);
        }

        return bytes;
    }

    private long ReceiveBlockingBatch(int count)
    {
        long bytes = 0;
        int received = 0;
        while (received < count)
        {
            Account(ReceiveMessage(wait: true), ref bytes, ref received);
            int size;
            while (received < count && (size = ReceiveMessage(wait: false)) >= 0)
            {
                Account(size, ref bytes, ref received);
            }
        }

        return bytes;
    }

    private long ReceiveNonBlocking(int count, bool yield)
    {
        long bytes = 0;
        int received = 0;
        int idle = 0;
        long idleSince = 0;
        while (received < count)
        {
            int size = ReceiveMessage(wait: false);
            if (size >= 0)
            {
                Account(size, ref bytes, ref received);
                idle = 0;
                continue;
            }

            if (yield)
            {
                Thread.Yield();
            }

            // The clock is read only every 1024 empty attempts, as the native program does.
            if (idle++ == 0)
            {
                idleSince = Stopwatch.GetTimestamp();
            }
            else if ((idle & 1023) == 0 && Stopwatch.GetElapsedTime(idleSince).TotalMilliseconds > _timeoutMs)
            {
                throw Stalled(received, count);
            }
        }

        return bytes;
    }

    private async Task<long> ReceiveAsyncLoop(int count)
    {
        if (_routed || (_message is null && _buffer.Length == 0))
        {
            throw new NotSupportedException("The async receive mode is measured on non-routed patterns with the Span or Message strategy.");
        }

        long bytes = 0;
        int received = 0;
        while (received < count)
        {
            int size;
            if (_message is not null)
            {
                await _socket.RecvAsync(_message).ConfigureAwait(false);
                size = _message.Size;
            }
            else
            {
                RecvResult result = await _socket.RecvAsync(_buffer).ConfigureAwait(false);
                if (result.IsTruncated)
                {
                    throw new TransferFailedException($"truncated frame: {result}");
                }

                size = result.BytesWritten;
            }

            if (size == 0)
            {
                continue; // a warm-up message that was still in flight
            }

            if (size != _size)
            {
                throw new TransferFailedException($"received a {size}-byte payload, expected {_size}");
            }

            bytes += size;
            received++;
        }

        return bytes;
    }

    private long ReceivePolling(int count)
    {
        long bytes = 0;
        int received = 0;
        while (received < count)
        {
            int size = ReceiveMessage(wait: false);
            if (size >= 0)
            {
                Account(size, ref bytes, ref received);
                continue;
            }

            if (_poller!.Poll(_timeoutMs) == 0)
            {
                throw Stalled(received, count);
            }
        }

        return bytes;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Account(int size, ref long bytes, ref int received)
    {
        if (size != _size)
        {
            if (size == 0)
            {
                return; // a warm-up message that was still in flight
            }

            throw new TransferFailedException($"received a {size}-byte payload, expected {_size}");
        }

        bytes += size;
        received++;
    }

    /// <summary>One whole message (routing id frame, if any, then payload): payload size, or -1 if none was waiting.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int ReceiveMessage(bool wait)
    {
        if (_routed)
        {
            int id = ReceiveRoutingId(wait);
            if (id < 0)
            {
                return -1;
            }

            if (id != 1)
            {
                throw new TransferFailedException($"routing id frame of {id} bytes, expected 1");
            }

            // The payload frame arrives with its routing id (multipart is atomic): this receive never waits.
            wait = true;
        }

        return ReceivePayload(wait);
    }

    private int ReceiveRoutingId(bool wait)
    {
        if (_message is not null)
        {
            return ReceiveIntoMessage(wait);
        }

        return ReceiveIntoSpan(_idBuffer, wait);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int ReceivePayload(bool wait)
    {
        switch (_strategy)
        {
            case BufferStrategy.Span:
                return ReceiveIntoSpan(_buffer, wait);
            case BufferStrategy.Message:
            case BufferStrategy.MessageZeroCopy:
                return ReceiveIntoMessage(wait);
            case BufferStrategy.ByteArray:
                byte[]? bytes;
                if (wait)
                {
                    bytes = _socket.RecvBytes();
                }
                else if (!_socket.TryRecvBytes(out bytes))
                {
                    return -1;
                }

                return bytes.Length;
            default:
                byte[] rented = ArrayPool<byte>.Shared.Rent(_bufferSize);
                try
                {
                    return ReceiveIntoSpan(rented, wait);
                }
                finally
                {
                    ArrayPool<byte>.Shared.Return(rented);
                }
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int ReceiveIntoSpan(Span<byte> buffer, bool wait)
    {
        RecvResult result;
        if (wait)
        {
            result = _socket.Recv(buffer);
        }
        else if (!_socket.TryRecv(buffer, out result))
        {
            return -1;
        }

        if (result.IsTruncated)
        {
            throw new TransferFailedException($"frame of {result.MessageSize} bytes truncated to a {buffer.Length}-byte buffer");
        }

        return result.BytesWritten;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int ReceiveIntoMessage(bool wait)
    {
        if (wait)
        {
            _socket.Recv(_message!);
        }
        else if (!_socket.TryRecv(_message!))
        {
            return -1;
        }

        return _message!.Size;
    }

    private TransferFailedException Stalled(int received, int count) =>
        new($"no message for {_timeoutMs} ms after {received} of {count} ({_mode})");
}
