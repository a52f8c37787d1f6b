using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    internal static unsafe partial class Interop
    {
        internal static unsafe partial class Zmq
        {
            // Options the binding itself reads or writes; the public option table is SocketOptions.
            internal const int ZMQ_TYPE = 16;
            internal const int ZMQ_LINGER = 17;
            internal const int ZMQ_RCVMORE = 13;
            internal const int ZMQ_FD = 14;
            internal const int ZMQ_EVENTS = 15;
            internal const int ZMQ_RCVTIMEO = 27;
            internal const int ZMQ_SNDTIMEO = 28;

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_setsockopt(nint socket, int option, void* optval, nuint optvallen);

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_getsockopt(nint socket, int option, void* optval, nuint* optvallen);
        }
    }
}
