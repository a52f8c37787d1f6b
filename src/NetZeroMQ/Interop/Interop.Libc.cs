using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    internal static unsafe partial class Interop
    {
        /// <summary>
        /// The few C library calls behind <see cref="WakerHandle"/>: a descriptor that <c>zmq_poll</c> can wait on next to a
        /// socket, so that <c>Dispose</c> on another thread can end a blocking receive at once.
        /// </summary>
        internal static unsafe partial class Libc
        {
            internal const int EFD_CLOEXEC = 0x80000; // Linux value (same as O_CLOEXEC on x86/arm)

#if NET
            [LibraryImport(Libraries.Libc, SetLastError = true)]
            [UnmanagedCallConv(CallConvs = new[] { typeof(CallConvCdecl) })]
            internal static partial int eventfd(uint initval, int flags);

            [LibraryImport(Libraries.Libc, SetLastError = true)]

            [UnmanagedCallConv(CallConvs = new[] { typeof(CallConvCdecl) })]
            internal static partial int pipe(int* fds);

            [LibraryImport(Libraries.Libc, SetLastError = true)]

            [UnmanagedCallConv(CallConvs = new[] { typeof(CallConvCdecl) })]
            internal static partial nint write(int fd, void* buf, nint count);

            [LibraryImport(Libraries.Libc, SetLastError = true)]

            [UnmanagedCallConv(CallConvs = new[] { typeof(CallConvCdecl) })]
            internal static partial nint read(int fd, void* buf, nint count);

            [LibraryImport(Libraries.Libc, SetLastError = true)]

            [UnmanagedCallConv(CallConvs = new[] { typeof(CallConvCdecl) })]
            internal static partial int close(int fd);
#else
            [DllImport(Libraries.Libc, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true, SetLastError = true)]
            internal static extern int eventfd(uint initval, int flags);

            [DllImport(Libraries.Libc, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true, SetLastError = true)]
            internal static extern int pipe(int* fds);

            [DllImport(Libraries.Libc, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true, SetLastError = true)]
            internal static extern nint write(int fd, void* buf, nint count);

            [DllImport(Libraries.Libc, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true, SetLastError = true)]
            internal static extern nint read(int fd, void* buf, nint count);

            [DllImport(Libraries.Libc, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true, SetLastError = true)]
            internal static extern int close(int fd);
#endif
        }
    }
}
