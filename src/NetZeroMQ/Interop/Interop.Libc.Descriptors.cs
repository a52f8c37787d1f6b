using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    internal static unsafe partial class Interop
    {
        /// <summary>
        /// getsockopt on a plain descriptor, to check a ZMQ_USE_FD value before libzmq adopts it: libzmq puts the descriptor
        /// into its epoll set and accepts on it without any check, and aborts the process when either fails.
        /// </summary>
        internal static unsafe partial class Libc
        {
            // Linux values (the only platform the check runs on).
            internal const int SOL_SOCKET = 1;
            internal const int SO_TYPE = 3;
            internal const int SO_ACCEPTCONN = 30;
            internal const int SO_DOMAIN = 39;
            internal const int SOCK_STREAM = 1;
            internal const int AF_UNIX = 1;
            internal const int AF_INET = 2;
            internal const int AF_INET6 = 10;
            internal const int EBADF = 9;
            internal const int ENOTSOCK = 88;

#if NET
            [LibraryImport(Libraries.Libc, SetLastError = true)]
            [UnmanagedCallConv(CallConvs = new[] { typeof(CallConvCdecl) })]
            internal static partial int getsockopt(int fd, int level, int optname, void* optval, uint* optlen);
#else
            [DllImport(Libraries.Libc, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true, SetLastError = true)]
            internal static extern int getsockopt(int fd, int level, int optname, void* optval, uint* optlen);
#endif
        }
    }
}
