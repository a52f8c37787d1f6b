using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    internal static unsafe partial class Interop
    {
        internal static unsafe partial class Zmq
        {
            /// <summary>ZMQ_EVENT_MONITOR_STOPPED: always requested natively, so a monitor can tell when libzmq let go of it.</summary>
            internal const int ZMQ_EVENT_MONITOR_STOPPED = 0x0400;

            /// <summary>Starts (endpoint non-null) or stops (endpoint null, events 0) monitoring a socket.</summary>
            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_socket_monitor(nint socket, byte* endpoint, int events);
        }
    }
}
