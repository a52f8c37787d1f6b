using System;

namespace NetZeroMQ
{
    /// <summary>
    /// The outcome of a receive into a caller's buffer: how many bytes were written, how large the message really was, and so
    /// whether it was truncated. libzmq truncates silently; NetZeroMQ always reports it.
    /// </summary>
    public readonly struct RecvResult : IEquatable<RecvResult>
    {
        /// <summary>Creates a result.</summary>
        /// <param name="bytesWritten">Bytes written into the buffer.</param>
        /// <param name="messageSize">Size of the message as it was sent.</param>
        public RecvResult(int bytesWritten, int messageSize)
        {
            BytesWritten = bytesWritten;
            MessageSize = messageSize;
        }

        /// <summary>Bytes written into the buffer: the smaller of the message size and the buffer length.</summary>
        public int BytesWritten { get; }

        /// <summary>The size of the message as it was sent, which may exceed the buffer.</summary>
        public int MessageSize { get; }

        /// <summary>Whether the message was larger than the buffer and its tail was dropped.</summary>
        public bool IsTruncated => MessageSize > BytesWritten;

        /// <inheritdoc/>
        public bool Equals(RecvResult other) => BytesWritten == other.BytesWritten && MessageSize == other.MessageSize;

        /// <inheritdoc/>
        public override bool Equals(object? obj) => obj is RecvResult other && Equals(other);

        /// <inheritdoc/>
        public override int GetHashCode() => (BytesWritten * 397) ^ MessageSize;

        /// <inheritdoc/>
        public override string ToString() =>
            IsTruncated ? BytesWritten + " of " + MessageSize + " bytes (truncated)" : BytesWritten + " bytes";

        /// <summary>Equality.</summary>
        public static bool operator ==(RecvResult left, RecvResult right) => left.Equals(right);

        /// <summary>Inequality.</summary>
        public static bool operator !=(RecvResult left, RecvResult right) => !left.Equals(right);
    }
}
