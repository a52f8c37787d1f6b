using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    internal static unsafe partial class Interop
    {
        /// <summary>
        /// The functions every message goes through. On .NET they are called through function pointers bound from the loaded
        /// libzmq (<c>TransferExports</c>): NativeAOT compiles a <c>DllImport</c> of a library it does not link into a
        /// stub of its own, which resolves the export lazily on each call and saves and restores every register around the
        /// transition (more per call than the per-message instruction budgets, benchmarks/instructions/budgets.txt, allow), while a call through
        /// a function pointer puts the transition into the calling method. The netstandard2.0 build keeps the plain imports.
        /// </summary>
        internal static unsafe partial class Zmq
        {
#if NET
            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            internal static int zmq_send(nint socket, byte* buf, nuint len, int flags) => TransferExports.Send(socket, buf, len, flags);

            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            internal static int zmq_recv(nint socket, byte* buf, nuint len, int flags) => TransferExports.Recv(socket, buf, len, flags);

            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            internal static int zmq_msg_send(void* msg, nint socket, int flags) => TransferExports.MsgSend(msg, socket, flags);

            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            internal static int zmq_msg_recv(void* msg, nint socket, int flags) => TransferExports.MsgRecv(msg, socket, flags);

            /// <summary>
            /// The largest content <c>zmq_msg_init_size</c> is called for without a GC transition (8 KiB, where larger frames go
            /// to the send buffer pool). It never calls back, and below this size its only work beyond a few stores is one
            /// <c>malloc</c> from glibc's bins (libzmq's <c>msg_t::init_size</c>), as short as the transition's own two runtime
            /// calls; a larger one may map memory, which is left with the transition so that a GC never waits for it.
            /// </summary>
            internal const int SmallContentLimit = 8 * 1024;

            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            internal static int zmq_msg_init_size(void* msg, nuint size) =>
                size < SmallContentLimit ? TransferExports.MsgInitSizeSmall(msg, size) : TransferExports.MsgInitSize(msg, size);

            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            internal static int zmq_msg_close(void* msg) => TransferExports.MsgClose(msg);

            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            internal static void* zmq_msg_data(void* msg) => TransferExports.MsgData(msg);

            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            internal static nuint zmq_msg_size(void* msg) => TransferExports.MsgSize(msg);
#else
            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_send(nint socket, byte* buf, nuint len, int flags);

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_recv(nint socket, byte* buf, nuint len, int flags);

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_msg_send(void* msg, nint socket, int flags);

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_msg_recv(void* msg, nint socket, int flags);

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_msg_init_size(void* msg, nuint size);

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_msg_close(void* msg);

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern void* zmq_msg_data(void* msg);

            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern nuint zmq_msg_size(void* msg);
#endif
        }

#if NET
        /// <summary>
        /// The per-message exports of the loaded libzmq, bound by <see cref="LibzmqResolver"/> as it loads the library, before
        /// it publishes the handle: no socket or message can exist before that, because creating one goes through an import
        /// that needs the library. Plain fields set by <see cref="Bind"/> rather than static readonly fields with an
        /// initializer, because a class with a static constructor costs NativeAOT a check of its initialisation at every call
        /// (measure.sh counts it against benchmarks/instructions/budgets.txt). The send, receive and close calls keep their GC transition: libzmq may run the
        /// zero-copy free callback, which is .NET code, inside them.
        /// </summary>
        internal static unsafe class TransferExports
        {
            internal static delegate* unmanaged[Cdecl]<nint, byte*, nuint, int, int> Send;

            internal static delegate* unmanaged[Cdecl]<nint, byte*, nuint, int, int> Recv;

            internal static delegate* unmanaged[Cdecl]<void*, nint, int, int> MsgSend;

            internal static delegate* unmanaged[Cdecl]<void*, nint, int, int> MsgRecv;

            internal static delegate* unmanaged[Cdecl]<void*, nuint, int> MsgInitSize;

            /// <summary><c>zmq_msg_init_size</c> for contents below <see cref="Zmq.SmallContentLimit"/>, without a GC transition.</summary>
            internal static delegate* unmanaged[Cdecl, SuppressGCTransition]<void*, nuint, int> MsgInitSizeSmall;

            internal static delegate* unmanaged[Cdecl]<void*, int> MsgClose;

            /// <summary>
            /// <c>zmq_msg_data</c> without a GC transition: it reads a field of the message by its type and never blocks or
            /// calls back (libzmq's <c>msg_t::data</c>), so the transition's two runtime calls would be most of its cost.
            /// </summary>
            internal static delegate* unmanaged[Cdecl, SuppressGCTransition]<void*, void*> MsgData;

            /// <summary>
            /// <c>zmq_msg_size</c> without a GC transition (one load, like <c>msg_t::data</c>), read after a failed receive and
            /// before the caller reads errno: the way back from a transition may wait for a collection in a system call that
            /// overwrites errno.
            /// </summary>
            internal static delegate* unmanaged[Cdecl, SuppressGCTransition]<void*, nuint> MsgSize;

            /// <summary>
            /// Binds the exports of the libzmq at <paramref name="library"/>; called once, before the handle is published. A
            /// missing export is left null rather than thrown here: a library without them is not a libzmq this binding accepts
            /// (too old, or not libzmq), which the checks after the load report in their own words, and no socket or message
            /// can be made from it.
            /// </summary>
            internal static void Bind(nint library)
            {
                Send = (delegate* unmanaged[Cdecl]<nint, byte*, nuint, int, int>)Find(library, "zmq_send");
                Recv = (delegate* unmanaged[Cdecl]<nint, byte*, nuint, int, int>)Find(library, "zmq_recv");
                MsgSend = (delegate* unmanaged[Cdecl]<void*, nint, int, int>)Find(library, "zmq_msg_send");
                MsgRecv = (delegate* unmanaged[Cdecl]<void*, nint, int, int>)Find(library, "zmq_msg_recv");
                MsgInitSize = (delegate* unmanaged[Cdecl]<void*, nuint, int>)Find(library, "zmq_msg_init_size");
                MsgInitSizeSmall = (delegate* unmanaged[Cdecl, SuppressGCTransition]<void*, nuint, int>)MsgInitSize;
                MsgClose = (delegate* unmanaged[Cdecl]<void*, int>)Find(library, "zmq_msg_close");
                MsgData = (delegate* unmanaged[Cdecl, SuppressGCTransition]<void*, void*>)Find(library, "zmq_msg_data");
                MsgSize = (delegate* unmanaged[Cdecl, SuppressGCTransition]<void*, nuint>)Find(library, "zmq_msg_size");
            }

            private static nint Find(nint library, string name) =>
                NativeLibrary.TryGetExport(library, name, out nint address) ? address : 0;
        }
#endif
    }
}
