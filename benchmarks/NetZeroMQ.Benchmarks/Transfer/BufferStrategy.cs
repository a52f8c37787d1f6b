namespace NetZeroMQ.Benchmarks.Transfer;

/// <summary>How payload bytes are held on each side.</summary>
public enum BufferStrategy
{
    /// <summary>Send a span over one prepared array; receive into one reused array larger than the message (truncation checked).</summary>
    Span,

    /// <summary>A new byte[] per message sent; RecvBytes (a new array per message) on the receiving side.</summary>
    ByteArray,

    /// <summary>Rent from ArrayPool, fill, send the span, return; receive into a rented buffer per message, then return it.</summary>
    ArrayPool,

    /// <summary>One reused Message each side: Rebuild(size) + fill + Send(Message); Recv(Message) into the same instance.</summary>
    Message,

    /// <summary>
    /// Zero-copy send of the one prepared payload (<c>SendZeroCopy(ReadOnlyMemory)</c>: pinned, sent where it is, unpinned when
    /// libzmq lets go); received into one reused Message like <see cref="Message"/>.
    /// </summary>
    MessageZeroCopy,
}
