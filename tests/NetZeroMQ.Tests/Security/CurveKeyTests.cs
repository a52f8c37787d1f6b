using System;
using System.Linq;
using System.Text;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Security
{
    public class CurveKeyTests
    {
        // libzmq's own test keys (tests/testutil_security.cpp): a secret key and the public key it derives.
        private const string KnownPublic = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7";
        private const string KnownSecret = "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6";

        public static TheoryData<int> WrongTextLengths => new TheoryData<int> { 0, 1, 5, 32, 35, 39, 41, 45, 64, 80 };

        public static TheoryData<int> WrongByteLengths => new TheoryData<int> { 0, 1, 16, 31, 33, 40, 41, 64 };

        [Theory]
        [MemberData(nameof(WrongTextLengths))]
        public void FromZ85_WrongLength_ThrowsArgumentExceptionBeforeNativeCall(int length)
        {
            string text = new string('a', length);

            var e = Assert.Throws<ArgumentException>(() => CurveKey.FromZ85(text));

            Assert.Contains("exactly 40 characters", e.Message);
            Assert.DoesNotContain("Interop", e.StackTrace);
        }

        [Fact]
        public void FromZ85_ThirtyTwoCharacters_ExplainsBinaryKeyTrap()
        {
            var e = Assert.Throws<ArgumentException>(() => CurveKey.FromZ85("abcdefghijklmnopqrstuvwxyz012345"));

            Assert.Contains("binary key", e.Message);
            Assert.DoesNotContain("abcdef", e.Message);
        }

        [Theory]
        [InlineData(' ')]
        [InlineData('_')]
        [InlineData('"')]
        [InlineData('~')]
        [InlineData('\0')]
        [InlineData('ü')]
        public void FromZ85_FortyCharactersWithBadCharacter_ThrowsArgumentExceptionBeforeNativeCall(char bad)
        {
            string text = KnownPublic.Substring(0, 17) + bad + KnownPublic.Substring(18);

            var e = Assert.Throws<ArgumentException>(() => CurveKey.FromZ85(text));

            Assert.Contains("Character 17", e.Message);
            Assert.DoesNotContain("Interop", e.StackTrace);
        }

        [Fact]
        public void FromZ85_FortyCharactersAbove32Bits_ThrowsArgumentException()
        {
            Assert.Throws<ArgumentException>(() => CurveKey.FromZ85(new string('#', 40)));
        }

        [Fact]
        public void FromZ85_Null_ThrowsArgumentNullException()
        {
            Assert.Throws<ArgumentNullException>(() => CurveKey.FromZ85(null!));
        }

        [Theory]
        [MemberData(nameof(WrongByteLengths))]
        public void FromBytes_WrongLength_ThrowsArgumentException(int length)
        {
            var e = Assert.Throws<ArgumentException>(() => CurveKey.FromBytes(new byte[length]));

            Assert.Contains("exactly 32 bytes", e.Message);
        }

        [Fact]
        public void FromZ85_KnownKey_RoundTripsThroughBytesAndText()
        {
            CurveKey key = CurveKey.FromZ85(KnownPublic);

            Assert.Equal(32, key.Bytes.Length);
            Assert.Equal(KnownPublic, key.ToZ85());
            Assert.Equal(KnownPublic, key.ToString());
            CurveKey copy = CurveKey.FromBytes(key.ToArray());
            Assert.Equal(key, copy);
            Assert.True(key == copy);
            Assert.Equal(key.GetHashCode(), copy.GetHashCode());
            Assert.NotEqual(key, CurveKey.FromBytes(new byte[32]));
            Assert.True(key != CurveKey.FromBytes(new byte[32]));
        }

        [Fact]
        public void ToArray_Modified_KeyUnchanged()
        {
            CurveKey key = CurveKey.FromZ85(KnownPublic);
            byte[] bytes = key.ToArray();
            bytes[0] ^= 0xFF;

            Assert.Equal(KnownPublic, key.ToZ85());
        }

        [Fact]
        public void Generate_TwoPairs_DifferAndDeriveTheirPublicKeys()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            using var first = CurveKeyPair.Generate();
            using var second = CurveKeyPair.Generate();

            Assert.NotEqual(first.PublicKey, second.PublicKey);
            var secret = new byte[32];
            first.CopySecretKeyTo(secret);
            Assert.NotEqual(new byte[32], secret);
            using var rebuilt = CurveKeyPair.FromSecretKey(secret);
            Assert.Equal(first.PublicKey, rebuilt.PublicKey);
        }

        [Fact]
        public void FromSecretKey_LibzmqTestKey_DerivesKnownPublicKey()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            using var fromText = CurveKeyPair.FromSecretKey(KnownSecret);
            using var fromBytes = CurveKeyPair.FromSecretKey(Z85.Decode(KnownSecret));

            Assert.Equal(KnownPublic, fromText.PublicKey.ToZ85());
            Assert.Equal(KnownPublic, fromBytes.PublicKey.ToZ85());
            Assert.Equal(KnownSecret, fromText.SecretKeyToZ85());
        }

        [Theory]
        [MemberData(nameof(WrongByteLengths))]
        public void FromSecretKey_WrongByteLength_ThrowsArgumentExceptionBeforeNativeCall(int length)
        {
            var e = Assert.Throws<ArgumentException>(() => CurveKeyPair.FromSecretKey(new byte[length].AsSpan()));

            Assert.Contains("exactly 32 bytes", e.Message);
            Assert.DoesNotContain("Interop", e.StackTrace);
        }

        [Theory]
        [MemberData(nameof(WrongTextLengths))]
        public void FromSecretKey_WrongTextLength_ThrowsArgumentExceptionBeforeNativeCall(int length)
        {
            var e = Assert.Throws<ArgumentException>(() => CurveKeyPair.FromSecretKey(new string('b', length)));

            Assert.Contains("exactly 40 characters", e.Message);
            Assert.DoesNotContain("Interop", e.StackTrace);
        }

        [Fact]
        public void FromSecretKey_BadCharacter_ThrowsWithoutQuotingTheSecret()
        {
            string bad = KnownSecret.Substring(0, 39) + " ";

            var e = Assert.Throws<ArgumentException>(() => CurveKeyPair.FromSecretKey(bad));

            Assert.DoesNotContain(KnownSecret.Substring(0, 8), e.Message);
            Assert.DoesNotContain("Interop", e.StackTrace);
        }

        [Fact]
        public void Dispose_KeyPair_SecretClearedAndUnreadable()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            var pair = CurveKeyPair.FromSecretKey(KnownSecret);

            pair.Dispose();

            Assert.True(pair.IsDisposed);
            Assert.Throws<ObjectDisposedException>(() => pair.CopySecretKeyTo(new byte[32]));
            Assert.Throws<ObjectDisposedException>(() => pair.SecretKeyToZ85());
            Assert.Equal(KnownPublic, pair.PublicKey.ToZ85()); // the public key stays usable
            var secretField = (byte[])typeof(CurveKeyPair).GetField("_secretKey", System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Instance)!.GetValue(pair)!;
            Assert.Equal(new byte[32], secretField);
            pair.Dispose(); // idempotent
        }

        [Fact]
        public void CopySecretKeyTo_ShortDestination_ThrowsArgumentException()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            using var pair = CurveKeyPair.Generate();

            Assert.Throws<ArgumentException>(() => pair.CopySecretKeyTo(new byte[31]));
        }

        [Fact]
        public void ToString_KeyPair_ShowsPublicKeyOnly()
        {
            if (!LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            using var pair = CurveKeyPair.FromSecretKey(KnownSecret);

            string text = pair.ToString();

            Assert.Contains(KnownPublic, text);
            Assert.DoesNotContain(KnownSecret, text);
            Assert.Contains("secret hidden", text);
        }
    }
}
