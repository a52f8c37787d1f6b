using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    internal static unsafe partial class Interop
    {
        internal static unsafe partial class Zmq
        {
            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern nint zmq_ctx_new();

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_ctx_term(nint context);

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_ctx_shutdown(nint context);

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_ctx_set(nint context, int option, int optval);

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_ctx_get(nint context, int option);
        }
    }
}
