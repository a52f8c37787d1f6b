#if NET
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    internal static unsafe partial class Interop
    {
        /// <summary>
        /// libzmq's draft functions, typed once here and bound at run time from the loaded library's exports (never statically:
        /// builds without the draft API, such as Debian's libzmq5, do not export them and must still load). A null pointer means
        /// the loaded libzmq lacks that function; callers check before calling.
        /// </summary>
        /// <remarks>
        /// The netstandard2.0 build has neither <c>NativeLibrary</c> nor the unmanaged calling convention these pointers use, so
        /// this class exists only in the net8.0 build. The bind runs once, on first use, after the library was loaded.
        /// </remarks>
        internal static unsafe class ZmqDraft
        {
            /// <summary><c>void* zmq_poller_new(void)</c>.</summary>
            internal static readonly delegate* unmanaged[Cdecl]<nint> zmq_poller_new;

            /// <summary><c>int zmq_poller_destroy(void** poller_p)</c>: frees the poller and sets <c>*poller_p</c> to NULL.</summary>
            internal static readonly delegate* unmanaged[Cdecl]<nint*, int> zmq_poller_destroy;

            /// <summary><c>int zmq_poller_add(void* poller, void* socket, void* user_data, short events)</c>.</summary>
            internal static readonly delegate* unmanaged[Cdecl]<nint, nint, nint, short, int> zmq_poller_add;

            /// <summary><c>int zmq_poller_modify(void* poller, void* socket, short events)</c>.</summary>
            internal static readonly delegate* unmanaged[Cdecl]<nint, nint, short, int> zmq_poller_modify;

            /// <summary><c>int zmq_poller_remove(void* poller, void* socket)</c>.</summary>
            internal static readonly delegate* unmanaged[Cdecl]<nint, nint, int> zmq_poller_remove;

            /// <summary>
            /// <c>int zmq_poller_wait_all(void* poller, zmq_poller_event_t* events, int n_events, long timeout)</c>: the number of
            /// events written, or -1 (EAGAIN when none within the timeout). <c>long</c> is 32 bits on Windows, hence
            /// <see cref="CLong"/>.
            /// </summary>
            internal static readonly delegate* unmanaged[Cdecl]<nint, void*, int, CLong, int> zmq_poller_wait_all;

            /// <summary><c>int zmq_poller_fd(void* poller, zmq_fd_t* fd)</c> (4.3.2): the descriptor that becomes readable when a
            /// thread-safe socket in the poller may have changed (EINVAL until one was added).</summary>
            internal static readonly delegate* unmanaged[Cdecl]<nint, nint*, int> zmq_poller_fd;

            /// <summary><c>int zmq_join(void* socket, const char* group)</c>.</summary>
            internal static readonly delegate* unmanaged[Cdecl]<nint, byte*, int> zmq_join;

            /// <summary><c>int zmq_leave(void* socket, const char* group)</c>.</summary>
            internal static readonly delegate* unmanaged[Cdecl]<nint, byte*, int> zmq_leave;

            // The four message accessors below are called once per message by a RADIO, a DISH or a SERVER, and skip the GC
            // transition (SuppressGCTransition), which cost more than the calls themselves: each only reads or writes fields of
            // the zmq_msg_t (zmq_msg_set_group copies the name, with a malloc for a name over 14 bytes), never blocks, never
            // waits for another thread and never calls back into .NET (the zero-copy free callback runs only where a message's
            // content is released: a close, a send or a receive, none of which these are).

            /// <summary><c>int zmq_msg_set_routing_id(zmq_msg_t* msg, uint32_t routing_id)</c>; no GC transition (above).</summary>
            internal static readonly delegate* unmanaged[Cdecl, SuppressGCTransition]<void*, uint, int> zmq_msg_set_routing_id;

            /// <summary><c>uint32_t zmq_msg_routing_id(zmq_msg_t* msg)</c>; no GC transition (above).</summary>
            internal static readonly delegate* unmanaged[Cdecl, SuppressGCTransition]<void*, uint> zmq_msg_routing_id;

            /// <summary><c>int zmq_msg_set_group(zmq_msg_t* msg, const char* group)</c>; no GC transition (above).</summary>
            internal static readonly delegate* unmanaged[Cdecl, SuppressGCTransition]<void*, byte*, int> zmq_msg_set_group;

            /// <summary><c>const char* zmq_msg_group(zmq_msg_t* msg)</c>: the message's group, "" when none; no GC transition (above).</summary>
            internal static readonly delegate* unmanaged[Cdecl, SuppressGCTransition]<void*, byte*> zmq_msg_group;

            /// <summary><c>uint32_t zmq_connect_peer(void* socket, const char* addr)</c>: 0 on failure (errno set).</summary>
            internal static readonly delegate* unmanaged[Cdecl]<nint, byte*, uint> zmq_connect_peer;

            /// <summary><c>int zmq_socket_monitor_versioned(void* s, const char* addr, uint64_t events, int version, int type)</c>.</summary>
            internal static readonly delegate* unmanaged[Cdecl]<nint, byte*, ulong, int, int, int> zmq_socket_monitor_versioned;

            /// <summary><c>int zmq_socket_monitor_pipes_stats(void* s)</c>: asks for a PIPES_STATS event per connection.</summary>
            internal static readonly delegate* unmanaged[Cdecl]<nint, int> zmq_socket_monitor_pipes_stats;

            static ZmqDraft()
            {
                nint library = LibzmqResolver.EnsureLoaded();
                zmq_poller_new = (delegate* unmanaged[Cdecl]<nint>)Find(library, "zmq_poller_new");
                zmq_poller_destroy = (delegate* unmanaged[Cdecl]<nint*, int>)Find(library, "zmq_poller_destroy");
                zmq_poller_add = (delegate* unmanaged[Cdecl]<nint, nint, nint, short, int>)Find(library, "zmq_poller_add");
                zmq_poller_modify = (delegate* unmanaged[Cdecl]<nint, nint, short, int>)Find(library, "zmq_poller_modify");
                zmq_poller_remove = (delegate* unmanaged[Cdecl]<nint, nint, int>)Find(library, "zmq_poller_remove");
                zmq_poller_wait_all = (delegate* unmanaged[Cdecl]<nint, void*, int, CLong, int>)Find(library, "zmq_poller_wait_all");
                zmq_poller_fd = (delegate* unmanaged[Cdecl]<nint, nint*, int>)Find(library, "zmq_poller_fd");
                zmq_join = (delegate* unmanaged[Cdecl]<nint, byte*, int>)Find(library, "zmq_join");
                zmq_leave = (delegate* unmanaged[Cdecl]<nint, byte*, int>)Find(library, "zmq_leave");
                zmq_msg_set_routing_id = (delegate* unmanaged[Cdecl, SuppressGCTransition]<void*, uint, int>)Find(library, "zmq_msg_set_routing_id");
                zmq_msg_routing_id = (delegate* unmanaged[Cdecl, SuppressGCTransition]<void*, uint>)Find(library, "zmq_msg_routing_id");
                zmq_msg_set_group = (delegate* unmanaged[Cdecl, SuppressGCTransition]<void*, byte*, int>)Find(library, "zmq_msg_set_group");
                zmq_msg_group = (delegate* unmanaged[Cdecl, SuppressGCTransition]<void*, byte*>)Find(library, "zmq_msg_group");
                zmq_connect_peer = (delegate* unmanaged[Cdecl]<nint, byte*, uint>)Find(library, "zmq_connect_peer");
                zmq_socket_monitor_versioned = (delegate* unmanaged[Cdecl]<nint, byte*, ulong, int, int, int>)Find(library, "zmq_socket_monitor_versioned");
                zmq_socket_monitor_pipes_stats = (delegate* unmanaged[Cdecl]<nint, int>)Find(library, "zmq_socket_monitor_pipes_stats");
            }

            /// <summary>
            /// <c>zmq_poller_event_t</c> on POSIX: { void* socket; int fd; void* user_data; short events; } (32 bytes on 64-bit).
            /// On Windows fd is a SOCKET, see <see cref="PollerEventWindows"/>.
            /// </summary>
            [StructLayout(LayoutKind.Sequential)]
            internal struct PollerEventPosix
            {
                internal nint Socket;
                internal int Fd;
                internal nint UserData;
                internal short Events;
            }

            /// <summary><c>zmq_poller_event_t</c> on Windows: { void* socket; SOCKET fd; void* user_data; short events; }.</summary>
            [StructLayout(LayoutKind.Sequential)]
            internal struct PollerEventWindows
            {
                internal nint Socket;
                internal nuint Fd;
                internal nint UserData;
                internal short Events;
            }

            private static nint Find(nint library, string name) =>
                NativeLibrary.TryGetExport(library, name, out nint address) ? address : 0;
        }
    }
}
#endif
