using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    internal static unsafe partial class Interop
    {
        internal static unsafe partial class Zmq
        {
#if NET
            [LibraryImport(Libraries.Zmq)]
            internal static partial nint zmq_ctx_new();

            [LibraryImport(Libraries.Zmq)]
            internal static partial int zmq_ctx_term(nint context);

            [LibraryImport(Libraries.Zmq)]
            internal static partial int zmq_ctx_shutdown(nint context);

            [LibraryImport(Libraries.Zmq)]
            internal static partial int zmq_ctx_set(nint context, int option, int optval);

            [LibraryImport(Libraries.Zmq)]
            internal static partial int zmq_ctx_get(nint context, int option);
#else
            [DllImport(Libraries.Zmq, ExactSpelling = true)]
            internal static extern nint zmq_ctx_new();

            [DllImport(Libraries.Zmq, ExactSpelling = true)]
            internal static extern int zmq_ctx_term(nint context);

            [DllImport(Libraries.Zmq, ExactSpelling = true)]
            internal static extern int zmq_ctx_shutdown(nint context);

            [DllImport(Libraries.Zmq, ExactSpelling = true)]
            internal static extern int zmq_ctx_set(nint context, int option, int optval);

            [DllImport(Libraries.Zmq, ExactSpelling = true)]
            internal static extern int zmq_ctx_get(nint context, int option);
#endif
        }
    }
}
