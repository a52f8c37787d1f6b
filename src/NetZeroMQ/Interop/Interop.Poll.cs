using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    internal static unsafe partial class Interop
    {
        internal static unsafe partial class Zmq
        {
            internal const short ZMQ_POLLIN = 1;

            internal const short ZMQ_POLLOUT = 2;

            /// <summary>
            /// zmq_pollitem_t on POSIX: { void* socket; int fd; short events; short revents; }.
            /// On Windows fd is a SOCKET (pointer-sized), see <see cref="PollItemWindows"/>.
            /// </summary>
            [StructLayout(LayoutKind.Sequential)]
            internal struct PollItemPosix
            {
                internal nint Socket;
                internal int Fd;
                internal short Events;
                internal short Revents;
            }

            /// <summary>zmq_pollitem_t on Windows: { void* socket; SOCKET fd; short events; short revents; }.</summary>
            [StructLayout(LayoutKind.Sequential)]
            internal struct PollItemWindows
            {
                internal nint Socket;
                internal nuint Fd;
                internal short Events;
                internal short Revents;
            }

            /// <summary>
            /// <c>int zmq_poll(zmq_pollitem_t* items, int nitems, long timeout)</c>. C's <c>long</c> is 32 bits on Windows (and on
            /// every 32-bit platform), 64 bits on 64-bit Linux and macOS: the import passes it as <c>CLong</c> on .NET and
            /// as <c>nint</c> on netstandard2.0 (which has no CLong; <c>nint</c> is C's <c>long</c> everywhere except 64-bit
            /// Windows, where the third argument travels in a register whose low half is what libzmq reads). Every caller's
            /// timeout is an <c>int</c> of milliseconds, -1 for no limit.
            /// </summary>
            [MethodImpl(MethodImplOptions.AggressiveInlining)]
#if NET
            internal static int zmq_poll(void* items, int nitems, int timeout) => zmq_poll(items, nitems, new CLong(timeout));

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            private static extern int zmq_poll(void* items, int nitems, CLong timeout);
#else
            internal static int zmq_poll(void* items, int nitems, int timeout) => zmq_poll(items, nitems, (nint)timeout);

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            private static extern int zmq_poll(void* items, int nitems, nint timeout);
#endif
        }
    }
}
