using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    internal static unsafe partial class Interop
    {
        internal static unsafe partial class Zmq
        {
            internal const int ZMQ_DONTWAIT = 1;
            internal const int ZMQ_SNDMORE = 2;

            /// <summary>The highest socket type number libzmq 4.3 defines (ZMQ_CHANNEL, a draft type).</summary>
            internal const int ZMQ_CHANNEL = 20;

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern nint zmq_socket(nint context, int type);

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_close(nint socket);

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_bind(nint socket, byte* endpoint);

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_connect(nint socket, byte* endpoint);

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_unbind(nint socket, byte* endpoint);

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_disconnect(nint socket, byte* endpoint);
        }
    }
}
