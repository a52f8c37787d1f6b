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

            [DllImport(Libraries.Zmq, ExactSpelling = true)]
            internal static extern int zmq_poll(void* items, int nitems, long timeout);
        }
    }
}
