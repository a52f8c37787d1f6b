using System;

namespace NetZeroMQ
{
    /// <remarks>
    /// The library's own reads and writes of a message's content. Each holds the guard for the whole access: a span taken
    /// from <see cref="Data"/> and used after the guard is released could point at memory that a <c>Rebuild</c>, a receive or a
    /// <c>Dispose</c> on another thread has freed meanwhile. Only the public <see cref="Data"/> hands a span out (documented
    /// as valid until the next change); every copy the library makes goes through here or holds the guard itself.
    /// </remarks>
    public sealed unsafe partial class Message
    {
        /// <summary>
        /// Copies the first bytes of the content into <paramref name="destination"/> (as many as fit) under the guard and
        /// returns the content's whole size, so the caller can tell a size mismatch.
        /// </summary>
        internal int CopyTo(Span<byte> destination)
        {
            Enter();
            try
            {
                Span<byte> content = UnguardedData;
                int count = Math.Min(content.Length, destination.Length);
                content.Slice(0, count).CopyTo(destination);
                return content.Length;
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Whether the content equals <paramref name="other"/>, compared under the guard.</summary>
        internal bool ContentEquals(ReadOnlySpan<byte> other)
        {
            Enter();
            try
            {
                return UnguardedData.SequenceEqual(other);
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>Overwrites the content with zeros under the guard (a password in libzmq's buffer).</summary>
        internal void ClearContent()
        {
            Enter();
            try
            {
                UnguardedData.Clear();
            }
            finally
            {
                Exit();
            }
        }
    }
}
