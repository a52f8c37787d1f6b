using System;
using System.Threading;

namespace NetZeroMQ.Benchmarks.Transfer;

public enum Transport
{
    Inproc,
    Ipc,
    Tcp,
}

/// <summary>Endpoints that never collide: a per-process inproc name, a wildcard ipc path, tcp loopback on a wildcard port.</summary>
public static class Endpoints
{
    private static int s_counter;

    public static string ForBind(Transport transport) => transport switch
    {
        Transport.Inproc => "inproc://nzmq-bench-" + Environment.ProcessId + "-" + Interlocked.Increment(ref s_counter),
        Transport.Ipc => "ipc://*",
        Transport.Tcp => "tcp://127.0.0.1:*",
        _ => throw new ArgumentOutOfRangeException(nameof(transport), transport, "unknown transport"),
    };
}
