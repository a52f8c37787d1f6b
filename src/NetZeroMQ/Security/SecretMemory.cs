using System;
using System.Runtime.CompilerServices;

namespace NetZeroMQ
{
    /// <summary>Clears memory that held secrets (keys, passwords) in a way the JIT may not remove as a dead store.</summary>
    internal static class SecretMemory
    {
#if NET
        internal static void Clear(Span<byte> buffer) => System.Security.Cryptography.CryptographicOperations.ZeroMemory(buffer);

        /// <summary>Constant-time comparison: the time taken does not depend on where the inputs differ.</summary>
        internal static bool FixedTimeEquals(ReadOnlySpan<byte> left, ReadOnlySpan<byte> right) =>
            System.Security.Cryptography.CryptographicOperations.FixedTimeEquals(left, right);
#else
        [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.NoOptimization)]
        internal static void Clear(Span<byte> buffer) => buffer.Clear();

        [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.NoOptimization)]
        internal static bool FixedTimeEquals(ReadOnlySpan<byte> left, ReadOnlySpan<byte> right)
        {
            if (left.Length != right.Length)
            {
                return false;
            }

            int difference = 0;
            for (int i = 0; i < left.Length; i++)
            {
                difference |= left[i] ^ right[i];
            }

            return difference == 0;
        }
#endif

        /// <summary>Clears a whole array (Array.Clear on every target, through the span path above).</summary>
        internal static void Clear(byte[]? buffer)
        {
            if (buffer is not null)
            {
                Clear(buffer.AsSpan());
            }
        }
    }
}
