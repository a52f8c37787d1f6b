using System;
using System.Diagnostics;

namespace NetZeroMQ
{
    /// <summary>
    /// A CURVE public key: exactly 32 bytes, immutable. Made from 40 characters of Z85 text (<see cref="FromZ85(string)"/>) or 32
    /// raw bytes (<see cref="FromBytes(ReadOnlySpan{byte})"/>); anything else is rejected with an
    /// <see cref="ArgumentException"/> before libzmq is called. (libzmq itself takes any 32-byte value as a binary key, so a
    /// 32-character string typed by mistake would silently become a wrong key.)
    /// </summary>
    /// <remarks>
    /// <para>This type is for <b>public</b> keys, which are meant to be shown and shared: <see cref="ToString"/> prints the Z85
    /// text. Secret keys live only in <see cref="CurveKeyPair"/>, which never prints them and clears them when disposed.</para>
    /// <para>A class rather than a struct so that no default, empty instance can exist: every <see cref="CurveKey"/> holds a
    /// validated 32-byte key. Equality compares the bytes (in constant time).</para>
    /// </remarks>
    [DebuggerDisplay("CurveKey {ToZ85(),nq}")]
    public sealed class CurveKey : IEquatable<CurveKey>
    {
        /// <summary>The size of a CURVE key in bytes.</summary>
        public const int Size = 32;

        /// <summary>The length of a CURVE key in Z85 characters.</summary>
        public const int Z85Length = 40;

        private readonly byte[] _bytes;

        private CurveKey(byte[] bytes) => _bytes = bytes;

        /// <summary>The key's 32 bytes.</summary>
        public ReadOnlySpan<byte> Bytes => _bytes;

        /// <summary>Makes a key from exactly 40 characters of Z85 text (the form libzmq, pyzmq and zcert files use).</summary>
        /// <param name="z85">40 characters of the Z85 alphabet.</param>
        /// <returns>The key.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="z85"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="z85"/> is not 40 characters (a 32-character value is refused
        /// too: it would be a binary key to libzmq), or is not valid Z85. The message never quotes the text.</exception>
        public static CurveKey FromZ85(string z85)
        {
            if (z85 is null)
            {
                throw new ArgumentNullException(nameof(z85));
            }

            if (z85.Length != Z85Length)
            {
                throw new ArgumentException(
                    "A CURVE key in Z85 is exactly " + Z85Length + " characters, not " + z85.Length + "." +
                    (z85.Length == Size ? " (32 characters would be read by libzmq as a binary key: for raw bytes use CurveKey.FromBytes.)" : string.Empty),
                    nameof(z85));
            }

            var bytes = new byte[Size];
            Z85.Decode(z85.AsSpan(), bytes);
            return new CurveKey(bytes);
        }

        /// <summary>Makes a key from exactly 32 raw bytes (copied).</summary>
        /// <param name="key">The 32 bytes.</param>
        /// <returns>The key.</returns>
        /// <exception cref="ArgumentException"><paramref name="key"/> is not 32 bytes long.</exception>
        public static CurveKey FromBytes(ReadOnlySpan<byte> key)
        {
            if (key.Length != Size)
            {
                throw new ArgumentException(
                    "A CURVE key is exactly " + Size + " bytes, not " + key.Length + "." +
                    (key.Length == Z85Length ? " (40 bytes look like Z85 text: use CurveKey.FromZ85.)" : string.Empty),
                    nameof(key));
            }

            return new CurveKey(key.ToArray());
        }

        /// <summary>The key as 40 characters of Z85 text.</summary>
        /// <returns>The text.</returns>
        public string ToZ85() => Z85.Encode(_bytes);

        /// <summary>A copy of the key's 32 bytes.</summary>
        /// <returns>A new array.</returns>
        public byte[] ToArray() => (byte[])_bytes.Clone();

        /// <summary>Whether both keys have the same bytes (compared in constant time).</summary>
        /// <param name="other">The other key.</param>
        /// <returns>True if equal.</returns>
        public bool Equals(CurveKey? other) => other is not null && SecretMemory.FixedTimeEquals(_bytes, other._bytes);

        /// <inheritdoc/>
        public override bool Equals(object? obj) => obj is CurveKey other && Equals(other);

        /// <inheritdoc/>
        public override int GetHashCode() => BitConverter.ToInt32(_bytes, 0) ^ BitConverter.ToInt32(_bytes, 28);

        /// <summary>The public key as Z85 text (a public key is meant to be shared; secrets never reach this type).</summary>
        /// <returns>The 40-character Z85 text.</returns>
        public override string ToString() => ToZ85();

        /// <summary>Whether two keys are equal (both null counts as equal).</summary>
        /// <param name="left">A key or null.</param>
        /// <param name="right">A key or null.</param>
        /// <returns>True if equal.</returns>
        public static bool operator ==(CurveKey? left, CurveKey? right) => left is null ? right is null : left.Equals(right);

        /// <summary>Whether two keys differ.</summary>
        /// <param name="left">A key or null.</param>
        /// <param name="right">A key or null.</param>
        /// <returns>True if not equal.</returns>
        public static bool operator !=(CurveKey? left, CurveKey? right) => !(left == right);
    }
}
