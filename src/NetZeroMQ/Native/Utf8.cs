using System;
using System.Buffers;
using System.Text;

namespace NetZeroMQ
{
    /// <summary>
    /// UTF-8 helpers for the C strings libzmq takes (endpoints, option values, property names).
    /// Policy: .NET strings are encoded as UTF-8 (an unpaired surrogate becomes U+FFFD, as <see cref="Encoding.UTF8"/> does);
    /// bytes that are not valid UTF-8 decode to U+FFFD. Sizes are always byte counts.
    /// </summary>
    internal static unsafe class Utf8
    {
        /// <summary>Strings up to this many bytes are encoded on the stack; longer ones use a rented array.</summary>
        internal const int StackLimit = 512;

        internal static void ThrowIfInvalidName(string? value, string paramName)
        {
            if (value is null)
            {
                throw new ArgumentNullException(paramName);
            }

            if (value.Length == 0)
            {
                throw new ArgumentException("The value must not be empty.", paramName);
            }

            ThrowIfContainsNul(value, paramName);
        }

        internal static void ThrowIfContainsNul(string value, string paramName)
        {
            if (value.IndexOf('\0') >= 0)
            {
                throw new ArgumentException("The value must not contain a NUL character: libzmq would cut it there.", paramName);
            }
        }

        /// <summary>Writes <paramref name="value"/> as UTF-8 plus a terminating NUL; the buffer holds at least byte count + 1.</summary>
        internal static void WriteNullTerminated(string value, byte* buffer, int bufferLength)
        {
            int written;
            fixed (char* chars = value)
            {
                written = Encoding.UTF8.GetBytes(chars, value.Length, buffer, bufferLength - 1);
            }

            buffer[written] = 0;
        }

        /// <summary>Decodes a NUL-terminated UTF-8 string owned by native code, or returns null for a null pointer.</summary>
        internal static string? FromNullTerminated(byte* text)
        {
            if (text == null)
            {
                return null;
            }

            int length = 0;
            while (text[length] != 0)
            {
                length++;
            }

            return Encoding.UTF8.GetString(text, length);
        }

        internal static string Decode(ReadOnlySpan<byte> bytes)
        {
            if (bytes.IsEmpty)
            {
                return string.Empty;
            }

            fixed (byte* p = bytes)
            {
                return Encoding.UTF8.GetString(p, bytes.Length);
            }
        }

        /// <summary>
        /// A NUL-terminated UTF-8 copy of a string, on the stack when short, else in a rented array that <see cref="Dispose"/>
        /// returns. Use: <c>using var text = new Utf8.CString(value, stackalloc byte[StackLimit]);</c>
        /// </summary>
        internal ref struct CString
        {
            private byte[]? _rented;
            private readonly Span<byte> _bytes;

            internal CString(string value, Span<byte> stackBuffer)
            {
                int max = Encoding.UTF8.GetMaxByteCount(value.Length) + 1;
                if (max > stackBuffer.Length)
                {
                    max = Encoding.UTF8.GetByteCount(value) + 1;
                }

                if (max <= stackBuffer.Length)
                {
                    _rented = null;
                    _bytes = stackBuffer;
                }
                else
                {
                    _rented = ArrayPool<byte>.Shared.Rent(max);
                    _bytes = _rented;
                }

                fixed (byte* p = _bytes)
                {
                    WriteNullTerminated(value, p, _bytes.Length);
                }
            }

            /// <summary>The NUL-terminated bytes; pin with <c>fixed (byte* p = text.Bytes)</c>.</summary>
            internal readonly ref byte GetPinnableReference() => ref _bytes.GetPinnableReference();

            public void Dispose()
            {
                if (_rented is not null)
                {
                    ArrayPool<byte>.Shared.Return(_rented);
                    _rented = null;
                }
            }
        }
    }
}
