#if NET
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    internal static unsafe partial class Interop
    {
        /// <summary>Linux epoll, for the async reactor (<see cref="EpollReactor"/>).</summary>
        internal static unsafe partial class Epoll
        {
            internal const int EPOLL_CLOEXEC = 0x80000;
            internal const int EPOLL_CTL_ADD = 1;
            internal const int EPOLL_CTL_DEL = 2;
            internal const int EPOLL_CTL_MOD = 3;
            internal const uint EPOLLIN = 0x001;
            internal const uint EPOLLONESHOT = 1u << 30;

            /// <summary>struct epoll_event as x86-64 lays it out: packed, 12 bytes.</summary>
            [StructLayout(LayoutKind.Sequential, Pack = 4)]
            internal struct EventPacked
            {
                internal uint Events;
                internal ulong Data;
            }

            /// <summary>struct epoll_event on the other 64-bit architectures: naturally aligned, 16 bytes.</summary>
            [StructLayout(LayoutKind.Sequential)]
            internal struct EventAligned
            {
                internal uint Events;
                internal ulong Data;
            }

            [LibraryImport(Libraries.Libc, SetLastError = true)]

            [UnmanagedCallConv(CallConvs = new[] { typeof(CallConvCdecl) })]
            internal static partial int epoll_create1(int flags);

            [LibraryImport(Libraries.Libc, SetLastError = true)]

            [UnmanagedCallConv(CallConvs = new[] { typeof(CallConvCdecl) })]
            internal static partial int epoll_ctl(int epfd, int op, int fd, void* ev);

            [LibraryImport(Libraries.Libc, SetLastError = true)]

            [UnmanagedCallConv(CallConvs = new[] { typeof(CallConvCdecl) })]
            internal static partial int epoll_wait(int epfd, void* events, int maxevents, int timeout);
        }
    }
}
#endif
