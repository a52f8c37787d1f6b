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
        /// transition (callgrind counted 42 instructions for that stub, plus 4 in the resolver, per call), while a call through
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

            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            internal static int zmq_msg_init_size(void* msg, nuint size) => TransferExports.MsgInitSize(msg, size);

            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            internal static int zmq_msg_close(void* msg) => TransferExports.MsgClose(msg);

            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            internal static void* zmq_msg_data(void* msg) => TransferExports.MsgData(msg);
#else
            [DllImport(Libraries.Zmq, ExactSpelling = true)]
            internal static extern int zmq_send(nint socket, byte* buf, nuint len, int flags);

            [DllImport(Libraries.Zmq, ExactSpelling = true)]
            internal static extern int zmq_recv(nint socket, byte* buf, nuint len, int flags);

            [DllImport(Libraries.Zmq, ExactSpelling = true)]
            internal static extern int zmq_msg_send(void* msg, nint socket, int flags);

            [DllImport(Libraries.Zmq, ExactSpelling = true)]
            internal static extern int zmq_msg_recv(void* msg, nint socket, int flags);

            [DllImport(Libraries.Zmq, ExactSpelling = true)]
            internal static extern int zmq_msg_init_size(void* msg, nuint size);

            [DllImport(Libraries.Zmq, ExactSpelling = true)]
            internal static extern int zmq_msg_close(void* msg);

            [DllImport(Libraries.Zmq, ExactSpelling = true)]
            internal static extern void* zmq_msg_data(void* msg);
#endif
        }

#if NET
        /// <summary>
        /// The per-message exports of the loaded libzmq, bound once, on first use (a socket or message exists by then, so the
        /// library is loaded). The send, receive and close calls keep their GC transition: libzmq may run the zero-copy free
        /// callback, which is .NET code, inside them.
        /// </summary>
        internal static unsafe class TransferExports
        {
            internal static readonly delegate* unmanaged<nint, byte*, nuint, int, int> Send =
                (delegate* unmanaged<nint, byte*, nuint, int, int>)Bind("zmq_send");

            internal static readonly delegate* unmanaged<nint, byte*, nuint, int, int> Recv =
                (delegate* unmanaged<nint, byte*, nuint, int, int>)Bind("zmq_recv");

            internal static readonly delegate* unmanaged<void*, nint, int, int> MsgSend =
                (delegate* unmanaged<void*, nint, int, int>)Bind("zmq_msg_send");

            internal static readonly delegate* unmanaged<void*, nint, int, int> MsgRecv =
                (delegate* unmanaged<void*, nint, int, int>)Bind("zmq_msg_recv");

            internal static readonly delegate* unmanaged<void*, nuint, int> MsgInitSize =
                (delegate* unmanaged<void*, nuint, int>)Bind("zmq_msg_init_size");

            internal static readonly delegate* unmanaged<void*, int> MsgClose =
                (delegate* unmanaged<void*, int>)Bind("zmq_msg_close");

            /// <summary>
            /// <c>zmq_msg_data</c> without a GC transition: it reads a field of the message by its type and never blocks or
            /// calls back (libzmq's <c>msg_t::data</c>), so the transition's two runtime calls would be most of its cost.
            /// </summary>
            internal static readonly delegate* unmanaged[SuppressGCTransition]<void*, void*> MsgData =
                (delegate* unmanaged[SuppressGCTransition]<void*, void*>)Bind("zmq_msg_data");

            private static nint Bind(string name) => NativeLibrary.GetExport(LibzmqResolver.EnsureLoaded(), name);
        }
#endif
    }
}
