using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    internal static unsafe partial class Interop
    {
        /// <summary>
        /// poll(2), for the blocking receive's wait on the socket's <c>ZMQ_FD</c> and its waker: one system call per wait,
        /// where <c>zmq_poll</c> makes a zero-timeout pass first and reads the socket's events around every pass.
        /// </summary>
        internal static unsafe partial class Libc
        {
            /// <summary>POLLIN: the same value on Linux, macOS and the BSDs.</summary>
            internal const short POLLIN = 0x1;

            /// <summary>struct pollfd: { int fd; short events; short revents; } on every POSIX system.</summary>
            [StructLayout(LayoutKind.Sequential)]
            internal struct PollFd
            {
                internal int Fd;
                internal short Events;
                internal short Revents;
            }

#if NET
            [LibraryImport(Libraries.Libc, SetLastError = true)]
            [UnmanagedCallConv(CallConvs = new[] { typeof(CallConvCdecl) })]
            internal static partial int poll(PollFd* fds, nuint nfds, int timeout);
#else
            [DllImport(Libraries.Libc, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true, SetLastError = true)]
            internal static extern int poll(PollFd* fds, nuint nfds, int timeout);
#endif
        }
    }
}
