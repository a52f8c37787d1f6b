using System;
using System.Linq;
using Xunit;

namespace NetZeroMQ.Tests.Security
{
    public class Z85Tests
    {
        [Fact]
        public void Encode_Rfc32Vector_GivesHelloWorld()
        {
            byte[] data = { 0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B };

            Assert.Equal("HelloWorld", Z85.Encode(data));
            Assert.Equal(data, Z85.Decode("HelloWorld"));
        }

        [Theory]
        [InlineData(0)]
        [InlineData(4)]
        [InlineData(32)]
        [InlineData(200)]
        [InlineData(4096)] // past the stack buffer
        public void EncodeDecode_RandomBytes_RoundTrip(int length)
        {
            var data = new byte[length];
            new Random(length).NextBytes(data);

            string text = Z85.Encode(data);

            Assert.Equal(length / 4 * 5, text.Length);
            Assert.All(text, c => Assert.Contains(c, Z85.Alphabet));
            Assert.Equal(data, Z85.Decode(text));
            var into = new byte[length + 3];
            Assert.Equal(length, Z85.Decode(text.AsSpan(), into));
            Assert.Equal(data, into.Take(length).ToArray());
        }

        [Fact]
        public void Encode_AllZeroAndAllOnes_MatchAlphabetEnds()
        {
            Assert.Equal("00000", Z85.Encode(new byte[4]));
            Assert.Equal("%nSc0", Z85.Encode(new byte[] { 0xFF, 0xFF, 0xFF, 0xFF }));
        }

        [Theory]
        [InlineData(1)]
        [InlineData(2)]
        [InlineData(3)]
        [InlineData(5)]
        [InlineData(31)]
        [InlineData(33)]
        public void Encode_LengthNotMultipleOf4_ThrowsArgumentException(int length)
        {
            var e = Assert.Throws<ArgumentException>(() => Z85.Encode(new byte[length]));
            Assert.Contains("multiple of 4", e.Message);
        }

        [Theory]
        [InlineData("0")]
        [InlineData("0000")]
        [InlineData("000000")]
        [InlineData("HelloWorld0")]
        public void Decode_LengthNotMultipleOf5_ThrowsArgumentException(string text)
        {
            var e = Assert.Throws<ArgumentException>(() => Z85.Decode(text));
            Assert.Contains("multiple of 5", e.Message);
        }

        [Theory]
        [InlineData(' ')]
        [InlineData('"')]
        [InlineData('\'')]
        [InlineData(',')]
        [InlineData(';')]
        [InlineData('\\')]
        [InlineData('_')]
        [InlineData('`')]
        [InlineData('|')]
        [InlineData('~')]
        [InlineData('\0')]
        [InlineData('é')]
        [InlineData('\u2603')]
        public void Decode_CharacterOutsideAlphabet_ThrowsArgumentExceptionNamingPosition(char bad)
        {
            string text = "Hello" + "Wor" + bad + "d";

            var e = Assert.Throws<ArgumentException>(() => Z85.Decode(text));

            Assert.Contains("Character 8", e.Message);
            Assert.DoesNotContain("Wor", e.Message); // the input (possibly a secret) is never quoted
        }

        [Theory]
        [InlineData("#####")]
        [InlineData("%nSc1")]
        [InlineData("00000%nSc1")]
        public void Decode_GroupAbove32Bits_ThrowsArgumentException(string text)
        {
            var e = Assert.Throws<ArgumentException>(() => Z85.Decode(text));
            Assert.Contains("above 2^32", e.Message);
        }

        [Fact]
        public void Decode_DestinationTooShort_ThrowsArgumentException()
        {
            Assert.Throws<ArgumentException>(() => Z85.Decode("HelloWorld".AsSpan(), new byte[7]));
        }

        [Fact]
        public void Decode_Null_ThrowsArgumentNullException()
        {
            Assert.Throws<ArgumentNullException>(() => Z85.Decode(null!));
        }

        [Fact]
        public void Decode_Empty_GivesEmpty()
        {
            Assert.Empty(Z85.Decode(string.Empty));
            Assert.Equal(string.Empty, Z85.Encode(ReadOnlySpan<byte>.Empty));
        }
    }
}
