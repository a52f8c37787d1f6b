using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    internal static unsafe partial class Interop
    {
        /// <summary>
        /// The scheduling calls libzmq's threads make on themselves as they start (thread.cpp, applySchedulingParameters),
        /// declared so that NetZeroMQ can make the same calls on a throw-away thread first: libzmq aborts the process when any
        /// of them fails, NetZeroMQ throws instead (see <see cref="ContextStart"/>). Linux only.
        /// </summary>
        internal static unsafe partial class Libc
        {
            internal const int SCHED_FIFO = 1;
            internal const int SCHED_RR = 2;

            /// <summary>sizeof(cpu_set_t) in glibc: 1024 CPUs.</summary>
            internal const int CpuSetBytes = 128;

            [DllImport(Libraries.Libc, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern nuint pthread_self();

            [DllImport(Libraries.Libc, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int pthread_getschedparam(nuint thread, int* policy, int* param);

            [DllImport(Libraries.Libc, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int pthread_setschedparam(nuint thread, int policy, int* param);

            [DllImport(Libraries.Libc, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int pthread_setaffinity_np(nuint thread, nuint cpusetsize, byte* cpuset);

            // errno is needed here, and only the generated import reads it where runtime marshalling is disabled (net8.0).
#if NET
            [LibraryImport(Libraries.Libc, SetLastError = true)]
            [UnmanagedCallConv(CallConvs = new[] { typeof(CallConvCdecl) })]
            internal static partial int nice(int inc);
#else
            [DllImport(Libraries.Libc, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true, SetLastError = true)]
            internal static extern int nice(int inc);
#endif
        }
    }
}
