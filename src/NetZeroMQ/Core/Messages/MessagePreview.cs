using System;
using System.Globalization;
using System.Text;

namespace NetZeroMQ
{
    /// <summary>
    /// The text of <see cref="Message.ToString"/>: the size and the first bytes, as text when they are printable UTF-8 (what a
    /// newcomer sends first), as hex otherwise. Never throws on any content.
    /// </summary>
    internal static class MessagePreview
    {
        // Throws on invalid bytes instead of replacing them, so that binary content is shown as hex, not as U+FFFD.
        private static readonly UTF8Encoding s_strict = new UTF8Encoding(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

        /// <summary>Describes <paramref name="content"/>, showing at most <paramref name="limit"/> of its bytes.</summary>
        internal static string Describe(ReadOnlySpan<byte> content, int limit)
        {
            string size = "Message(" + content.Length.ToString(CultureInfo.InvariantCulture) + (content.Length == 1 ? " byte" : " bytes");
            if (content.IsEmpty)
            {
                return size + ")";
            }

            bool cut = content.Length > limit;
            ReadOnlySpan<byte> shown = cut ? content.Slice(0, limit) : content;
            string more = cut ? "...)" : ")";
            return TryText(shown, cut) is string text
                ? size + ": \"" + text + "\"" + more
                : size + ": " + Hex(shown) + more;
        }

        /// <summary>The bytes as text when they are valid UTF-8 without control characters; null otherwise. When the content
        /// was cut, a character cut in two at the end is left out.</summary>
        private static string? TryText(ReadOnlySpan<byte> bytes, bool cut)
        {
            if (cut)
            {
                bytes = bytes.Slice(0, bytes.Length - IncompleteTail(bytes));
            }

            string text;
            try
            {
                text = s_strict.GetString(bytes.ToArray());
            }
            catch (ArgumentException)
            {
                return null; // DecoderFallbackException: not UTF-8
            }

            foreach (char c in text)
            {
                if (char.IsControl(c) || c == '\uFEFF')
                {
                    return null;
                }
            }

            return text.Length == 0 ? null : text;
        }

        /// <summary>How many bytes at the end start a UTF-8 sequence that the cut left incomplete (0 to 3).</summary>
        private static int IncompleteTail(ReadOnlySpan<byte> bytes)
        {
            for (int back = 1; back <= Math.Min(4, bytes.Length); back++)
            {
                byte b = bytes[bytes.Length - back];
                if ((b & 0xC0) == 0x80)
                {
                    continue; // a continuation byte: its lead is further back
                }

                int length = b < 0x80 ? 1 : (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 1;
                return length > back ? back : 0;
            }

            return 0;
        }

        private static string Hex(ReadOnlySpan<byte> bytes)
        {
            var text = new StringBuilder(bytes.Length * 3);
            foreach (byte b in bytes)
            {
                if (text.Length != 0)
                {
                    text.Append(' ');
                }

                text.Append(b.ToString("X2", CultureInfo.InvariantCulture));
            }

            return text.ToString();
        }
    }
}
