using System;
using System.Runtime.InteropServices;
#if NET
using System.Runtime.CompilerServices;
#endif

namespace NetZeroMQ
{
    /// <summary>
    /// The one free function libzmq calls for every zero-copy buffer (<c>zmq_free_fn(void* data, void* hint)</c>). The hint is
    /// a <see cref="ReleaseSlot"/> index. libzmq calls it exactly once per buffer, on its I/O thread (tcp, ipc) or on the thread
    /// that closes the last reference (inproc); it must not throw into native code, block, or allocate, and it does none.
    /// </summary>
    internal static unsafe class ZeroCopyFree
    {
#if NET
        /// <summary>The function pointer handed to <c>zmq_msg_init_data</c>.</summary>
        internal static readonly void* Pointer = (delegate* unmanaged[Cdecl]<void*, void*, void>)&Free;

        [UnmanagedCallersOnly(CallConvs = new[] { typeof(CallConvCdecl) })]
        private static void Free(void* data, void* hint) => ReleaseIndex((int)(nint)hint);
#else
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        private delegate void FreeFn(IntPtr data, IntPtr hint);

        // Rooted for the life of the process: a collected callback delegate would crash libzmq's I/O thread (clrzmq PR #79).
        private static readonly FreeFn s_free = (data, hint) => ReleaseIndex((int)hint);

        /// <summary>The function pointer handed to <c>zmq_msg_init_data</c>.</summary>
        internal static readonly void* Pointer = (void*)Marshal.GetFunctionPointerForDelegate(s_free);
#endif

        /// <summary>Releases slot <paramref name="index"/>; also used when zmq_msg_init_data fails and libzmq will not call back.</summary>
        internal static void ReleaseIndex(int index)
        {
            try
            {
                ReleaseSlot slot = ReleaseSlots.Get(index);
                slot.Release();
                ReleaseSlots.Return(slot);
            }
            catch (Exception e)
            {
                // Nothing may escape into libzmq's thread; Release already catches user code, so this is a binding bug.
                ZeroCopyDiagnostics.ReportReleaseFailure(e);
            }
        }
    }
}
