// Zero-copy sends: libzmq sends the caller's memory where it is, and gives it back when it no longer needs it.
//  1. Arrays rented from an ArrayPool: SendZeroCopy returns each array to its pool once libzmq is done with it.
//  2. Native memory: SendZeroCopy calls the release callback exactly once per buffer (here: FreeHGlobal and a count).
// Over tcp the release happens on libzmq's I/O thread after the bytes have left, so the counts are awaited, with a timeout.
using System;
using System.Buffers;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Threading;
using NetZeroMQ;
// System.Net.Sockets has a Socket and a SocketType too: these aliases keep the file compiling where both are imported.
using Socket = NetZeroMQ.Socket;
using SocketType = NetZeroMQ.SocketType;

var timeout = TimeSpan.FromSeconds(5);
const int Count = 10;
const int Size = 64 * 1024;

using var context = new Context();
using var receiver = new Socket(context, SocketType.Pull) { ReceiveTimeout = timeout };
receiver.Bind("tcp://127.0.0.1:*");
using var sender = new Socket(context, SocketType.Push) { SendTimeout = timeout };
sender.Connect(receiver.LastEndpoint);

// 1. Pooled arrays: rent, fill, hand over. From the call on, the array belongs to libzmq until it is returned to the pool.
var pool = new CountingPool();
for (int i = 0; i < Count; i++)
{
    byte[] array = pool.Rent(Size);
    array.AsSpan(0, Size).Fill((byte)i);
    sender.SendZeroCopy(array, Size, pool);
}

long total = 0;
for (int i = 0; i < Count; i++)
{
    using PooledBuffer frame = receiver.RecvPooled();
    total += frame.Length;
}

WaitFor(() => pool.Returned == Count, timeout);
Console.WriteLine($"pooled arrays: sent {Count} x {Size} bytes, received {total} bytes, returned to the pool {pool.Returned}/{Count}");

// 2. Native memory with a release callback. A static lambda (no captures) costs no allocation per message.
for (int i = 0; i < Count; i++)
{
    IntPtr buffer = Marshal.AllocHGlobal(Size);
    unsafe
    {
        new Span<byte>((void*)buffer, Size).Fill((byte)i);
    }

    sender.SendZeroCopy(buffer, Size, static p =>
    {
        Marshal.FreeHGlobal(p);
        Interlocked.Increment(ref Released.Count);
    });
}

using (var message = new Message())
{
    for (int i = 0; i < Count; i++)
    {
        receiver.Recv(message);
        if (message.Size != Size || message.Data[0] != (byte)i)
        {
            throw new InvalidOperationException("unexpected frame " + i);
        }
    }
}

WaitFor(() => Volatile.Read(ref Released.Count) == Count, timeout);
Console.WriteLine($"native buffers: sent {Count} x {Size} bytes, release callback ran {Released.Count}/{Count} times");
Console.WriteLine($"outstanding zero-copy buffers: {ZeroCopyDiagnostics.OutstandingBuffers}, release failures: {ZeroCopyDiagnostics.ReleaseFailureCount}");

static void WaitFor(Func<bool> condition, TimeSpan timeout)
{
    var clock = Stopwatch.StartNew();
    while (!condition())
    {
        if (clock.Elapsed > timeout)
        {
            throw new TimeoutException("zero-copy buffers were not released in time");
        }

        Thread.Sleep(1);
    }
}

/// <summary>Counts the native buffers whose release callback ran.</summary>
internal static class Released
{
    public static int Count;
}

/// <summary>ArrayPool.Shared, counting returns (they happen on libzmq's I/O thread, hence the interlocked count).</summary>
internal sealed class CountingPool : ArrayPool<byte>
{
    private int _returned;

    public int Returned => Volatile.Read(ref _returned);

    public override byte[] Rent(int minimumLength) => Shared.Rent(minimumLength);

    public override void Return(byte[] array, bool clearArray = false)
    {
        Shared.Return(array, clearArray);
        Interlocked.Increment(ref _returned);
    }
}
