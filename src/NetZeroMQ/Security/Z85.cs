using System;

namespace NetZeroMQ
{
    /// <summary>
    /// Z85, ZeroMQ's text encoding of binary data (RFC 32), used for CURVE keys: 4 bytes become 5 printable characters, so a
    /// 32-byte key is 40 characters. Input is checked in managed code first (length, alphabet, value range) and then encoded or
    /// decoded by libzmq's own <c>zmq_z85_encode</c> / <c>zmq_z85_decode</c>.
    /// See <see href="http://api.zeromq.org/4-3:zmq-z85-encode">zmq_z85_encode</see> and
    /// <see href="https://rfc.zeromq.org/spec/32/">RFC 32</see>.
    /// </summary>
    /// <remarks>
    /// Exception messages never quote the input (it may be a secret key): they give its length or the position of the first bad
    /// character. Buffers this class uses internally are cleared before it returns.
    /// </remarks>
    public static unsafe class Z85
    {
        /// <summary>The 85 characters of the Z85 alphabet, in value order.</summary>
        public const string Alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

        private const int StackLimit = 256;

        /// <summary>Value of each ASCII character 0-127 in the alphabet, or -1.</summary>
        private static readonly sbyte[] s_values = BuildValues();

        /// <summary>The number of characters <paramref name="byteCount"/> bytes encode to.</summary>
        /// <param name="byteCount">A multiple of 4.</param>
        /// <returns><paramref name="byteCount"/> * 5 / 4.</returns>
        /// <exception cref="ArgumentException"><paramref name="byteCount"/> is negative or not a multiple of 4.</exception>
        public static int GetEncodedLength(int byteCount)
        {
            if (byteCount < 0 || byteCount % 4 != 0 || byteCount > int.MaxValue / 5 * 4)
            {
                throw new ArgumentException("Z85 encodes a multiple of 4 bytes, not " + byteCount + ".", nameof(byteCount));
            }

            return byteCount / 4 * 5;
        }

        /// <summary>The number of bytes <paramref name="charCount"/> Z85 characters decode to.</summary>
        /// <param name="charCount">A multiple of 5.</param>
        /// <returns><paramref name="charCount"/> * 4 / 5.</returns>
        /// <exception cref="ArgumentException"><paramref name="charCount"/> is negative or not a multiple of 5.</exception>
        public static int GetDecodedLength(int charCount)
        {
            if (charCount < 0 || charCount % 5 != 0)
            {
                throw new ArgumentException("Z85 text is a multiple of 5 characters long, not " + charCount + ".", nameof(charCount));
            }

            return charCount / 5 * 4;
        }

        /// <summary>Encodes <paramref name="data"/> as Z85 text (<c>zmq_z85_encode</c>).</summary>
        /// <param name="data">The bytes; their count must be a multiple of 4 (empty gives an empty string).</param>
        /// <returns>The text, 5 characters per 4 bytes.</returns>
        /// <exception cref="ArgumentException">The length of <paramref name="data"/> is not a multiple of 4.</exception>
        public static string Encode(ReadOnlySpan<byte> data)
        {
            int length = GetEncodedLength(data.Length);
            if (length == 0)
            {
                return string.Empty;
            }

            Libzmq.EnsureUsable();
            Span<byte> text = length + 1 <= StackLimit ? stackalloc byte[StackLimit] : new byte[length + 1];
            try
            {
                fixed (byte* source = data)
                fixed (byte* dest = text)
                {
                    if (Interop.Zmq.zmq_z85_encode(dest, source, (nuint)data.Length) == null)
                    {
                        throw new ArgumentException("libzmq could not encode " + data.Length + " bytes as Z85.", nameof(data));
                    }

                    return Ascii(text.Slice(0, length));
                }
            }
            finally
            {
                SecretMemory.Clear(text);
            }
        }

        /// <summary>Decodes Z85 text into a new array (<c>zmq_z85_decode</c>).</summary>
        /// <param name="text">The text: a multiple of 5 characters of <see cref="Alphabet"/>, each group of 5 worth less than
        /// 2^32. Empty gives an empty array.</param>
        /// <returns>The bytes, 4 per 5 characters.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="text"/> is not valid Z85 (the message says why, without quoting it).</exception>
        public static byte[] Decode(string text)
        {
            if (text is null)
            {
                throw new ArgumentNullException(nameof(text));
            }

            var bytes = new byte[GetDecodedLength(text.Length)];
            Decode(text.AsSpan(), bytes);
            return bytes;
        }

        /// <summary>Decodes Z85 text into <paramref name="destination"/> without allocating, for example a secret key into a
        /// buffer the caller clears afterwards.</summary>
        /// <param name="text">The text (see <see cref="Decode(string)"/>).</param>
        /// <param name="destination">Receives the bytes; at least <c>text.Length * 4 / 5</c> long.</param>
        /// <returns>The number of bytes written.</returns>
        /// <exception cref="ArgumentException"><paramref name="text"/> is not valid Z85, or <paramref name="destination"/> is too short.</exception>
        public static int Decode(ReadOnlySpan<char> text, Span<byte> destination)
        {
            int length = GetDecodedLength(text.Length);
            Validate(text);
            if (destination.Length < length)
            {
                throw new ArgumentException("The destination holds " + destination.Length + " bytes; the text decodes to " + length + ".", nameof(destination));
            }

            if (length == 0)
            {
                return 0;
            }

            Libzmq.EnsureUsable();
            Span<byte> ascii = text.Length + 1 <= StackLimit ? stackalloc byte[StackLimit] : new byte[text.Length + 1];
            try
            {
                for (int i = 0; i < text.Length; i++)
                {
                    ascii[i] = (byte)text[i];
                }

                ascii[text.Length] = 0;
                fixed (byte* source = ascii)
                fixed (byte* dest = destination)
                {
                    if (Interop.Zmq.zmq_z85_decode(dest, source) == null)
                    {
                        // Unreachable after Validate; kept so that a disagreement with libzmq is an exception, never garbage.
                        throw new ArgumentException("libzmq rejected the Z85 text (" + text.Length + " characters).", nameof(text));
                    }
                }

                return length;
            }
            finally
            {
                SecretMemory.Clear(ascii);
            }
        }

        /// <summary>Throws <see cref="ArgumentException"/> unless <paramref name="text"/> is valid Z85 (length, alphabet, range).</summary>
        internal static void Validate(ReadOnlySpan<char> text)
        {
            _ = GetDecodedLength(text.Length);
            for (int group = 0; group < text.Length; group += 5)
            {
                ulong value = 0;
                for (int i = group; i < group + 5; i++)
                {
                    char c = text[i];
                    int digit = c < 128 ? s_values[c] : -1;
                    if (digit < 0)
                    {
                        throw new ArgumentException(
                            "Character " + i + " of the Z85 text is not in the Z85 alphabet (0-9, a-z, A-Z and .-:+=^!/*?&<>()[]{}@%$#).", nameof(text));
                    }

                    value = value * 85 + (ulong)digit;
                }

                if (value > uint.MaxValue)
                {
                    throw new ArgumentException(
                        "Characters " + group + "-" + (group + 4) + " of the Z85 text encode a value above 2^32 - 1: not valid Z85.", nameof(text));
                }
            }
        }

        private static string Ascii(ReadOnlySpan<byte> bytes)
        {
            var chars = new char[bytes.Length];
            try
            {
                for (int i = 0; i < bytes.Length; i++)
                {
                    chars[i] = (char)bytes[i];
                }

                return new string(chars);
            }
            finally
            {
                Array.Clear(chars, 0, chars.Length); // the text may be a secret key; only the returned string keeps it
            }
        }

        private static sbyte[] BuildValues()
        {
            var values = new sbyte[128];
            for (int i = 0; i < values.Length; i++)
            {
                values[i] = -1;
            }

            for (int i = 0; i < Alphabet.Length; i++)
            {
                values[Alphabet[i]] = (sbyte)i;
            }

            return values;
        }
    }
}
