using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    internal static unsafe partial class Interop
    {
        internal static unsafe partial class Zmq
        {
#if NET
            [LibraryImport(Libraries.Zmq)]
            internal static partial void zmq_version(int* major, int* minor, int* patch);

            [LibraryImport(Libraries.Zmq)]
            internal static partial int zmq_has(byte* capability);
#else
            [DllImport(Libraries.Zmq, ExactSpelling = true)]
            internal static extern void zmq_version(int* major, int* minor, int* patch);

            [DllImport(Libraries.Zmq, ExactSpelling = true)]
            internal static extern int zmq_has(byte* capability);
#endif
        }
    }
}
