using System;

namespace NetZeroMQ.Benchmarks.Transfer;

/// <summary>A run that did not move exactly what it should (lost, truncated or wrong-sized frames, a send failure, a stall).</summary>
public sealed class TransferFailedException : Exception
{
    public TransferFailedException(string message, Exception? inner = null)
        : base(message, inner)
    {
    }
}
