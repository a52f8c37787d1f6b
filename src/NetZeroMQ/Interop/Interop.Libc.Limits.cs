using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    internal static unsafe partial class Interop
    {
        /// <summary>
        /// The process's descriptor limit and how many descriptors are open, for <see cref="DescriptorHeadroom"/>: two system
        /// calls that open nothing themselves. Linux only.
        /// </summary>
        internal static unsafe partial class Libc
        {
            /// <summary>RLIMIT_NOFILE on Linux (every architecture .NET runs on).</summary>
            internal const int RLIMIT_NOFILE = 7;

            internal const int AT_FDCWD = -100;

            /// <summary>STATX_SIZE: the only field asked for.</summary>
            internal const uint STATX_SIZE = 0x200;

            /// <summary>struct rlimit: rlim_t is an unsigned long on Linux.</summary>
            [StructLayout(LayoutKind.Sequential)]
            internal struct RLimit
            {
                internal nuint Current;
                internal nuint Maximum;
            }

            /// <summary>
            /// struct statx, which has the same fixed layout on every architecture (256 bytes); only stx_size (offset 40) is read.
            /// </summary>
            [StructLayout(LayoutKind.Explicit, Size = 256)]
            internal struct Statx
            {
                [FieldOffset(0)]
                internal uint Mask;

                [FieldOffset(40)]
                internal ulong Size;
            }

#if NET
            [LibraryImport(Libraries.Libc, SetLastError = true)]
            [UnmanagedCallConv(CallConvs = new[] { typeof(CallConvCdecl) })]
            internal static partial int getrlimit(int resource, RLimit* limit);

            [LibraryImport(Libraries.Libc, SetLastError = true)]

            [UnmanagedCallConv(CallConvs = new[] { typeof(CallConvCdecl) })]
            internal static partial int statx(int dirfd, byte* path, int flags, uint mask, Statx* buffer);
#else
            [DllImport(Libraries.Libc, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true, SetLastError = true)]
            internal static extern int getrlimit(int resource, RLimit* limit);

            [DllImport(Libraries.Libc, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true, SetLastError = true)]
            internal static extern int statx(int dirfd, byte* path, int flags, uint mask, Statx* buffer);
#endif
        }
    }
}
