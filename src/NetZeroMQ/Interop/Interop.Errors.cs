using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    internal static unsafe partial class Interop
    {
        internal static unsafe partial class Zmq
        {
#if NET
            [LibraryImport(Libraries.Zmq)]
            internal static partial int zmq_errno();

            [LibraryImport(Libraries.Zmq)]
            internal static partial byte* zmq_strerror(int errnum);
#else
            [DllImport(Libraries.Zmq, ExactSpelling = true)]
            internal static extern int zmq_errno();

            [DllImport(Libraries.Zmq, ExactSpelling = true)]
            internal static extern byte* zmq_strerror(int errnum);
#endif
        }
    }
}
