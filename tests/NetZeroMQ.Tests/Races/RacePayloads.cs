using System;

namespace NetZeroMQ.Tests.Races
{
    /// <summary>
    /// The arrays the race scenarios write: 1 MiB to about 1.5 MiB (glibc serves blocks that large with mmap and unmaps them
    /// when freed, so reading one after its release faults instead of quietly reading stale bytes), each of its own length and
    /// filled with its own ASCII letter. A read is consistent when it is exactly one of them; anything else (a mix of two, a
    /// wrong length, zeros or garbage from freed memory) is torn.
    /// </summary>
    internal static class RacePayloads
    {
        internal const int Count = 6;

        private const int Smallest = 1024 * 1024;
        private const int Step = 96 * 1024;

        internal static readonly byte[][] Arrays = Make();

        /// <summary>The payload for a loop iteration.</summary>
        internal static byte[] For(int iteration) => Arrays[(uint)iteration % Count];

        /// <summary>Null when <paramref name="bytes"/> is one whole payload; otherwise what is wrong with it.</summary>
        internal static string? Check(ReadOnlySpan<byte> bytes)
        {
            int index = IndexOfLength(bytes.Length);
            if (index < 0)
            {
                return "length " + bytes.Length + " is no payload's length";
            }

            byte letter = Letter(index);
            int wrong = bytes.IndexOfAnyExcept(letter);
            return wrong < 0 ? null : "payload " + index + " (" + bytes.Length + " bytes of '" + (char)letter + "') has byte " + bytes[wrong] + " at " + wrong;
        }

        /// <summary>Null when <paramref name="text"/> decodes one whole payload; otherwise what is wrong with it.</summary>
        internal static string? Check(string text)
        {
            int index = IndexOfLength(text.Length);
            if (index < 0)
            {
                return "text length " + text.Length + " is no payload's length";
            }

            char letter = (char)Letter(index);
            int wrong = text.AsSpan().IndexOfAnyExcept(letter);
            return wrong < 0 ? null : "text of payload " + index + " has U+" + ((int)text[wrong]).ToString("X4") + " at " + wrong;
        }

        private static int IndexOfLength(int length)
        {
            int offset = length - Smallest;
            return offset >= 0 && offset % Step == 0 && offset / Step < Count ? offset / Step : -1;
        }

        private static byte Letter(int index) => (byte)('A' + index);

        private static byte[][] Make()
        {
            var arrays = new byte[Count][];
            for (int i = 0; i < Count; i++)
            {
                arrays[i] = new byte[Smallest + (i * Step)];
                arrays[i].AsSpan().Fill(Letter(i));
            }

            return arrays;
        }
    }
}
