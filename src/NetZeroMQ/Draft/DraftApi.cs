using System;

namespace NetZeroMQ.Draft
{
    /// <summary>
    /// Which parts of libzmq's draft API the loaded library has, found at run time by looking its exports up
    /// (<c>NativeLibrary.TryGetExport</c>), never by binding them statically: a library without them still loads and works.
    /// See <see href="http://api.zeromq.org/master:zmq-poller">zmq_poller (draft)</see>.
    /// </summary>
    /// <remarks>
    /// <para>libzmq only compiles draft functions into builds made with <c>ZMQ_BUILD_DRAFT_API</c>; distribution packages
    /// (Debian's libzmq5 4.3.4 exports none) usually leave them out, so every property here is false there.</para>
    /// <para>The netstandard2.0 build cannot look exports up (<see cref="CanProbe"/> is false) and reports every feature as
    /// unavailable; the net8.0 build probes.</para>
    /// <para>Thread-safe: the probe runs once, on first use after libzmq loaded, and its results never change. When libzmq
    /// cannot be loaded every property here is false (nothing is available), so that <c>if (!DraftApi.IsAvailable)</c> leads
    /// to the non-draft path, whose first call throws the loading error (<see cref="DllNotFoundException"/>); the probe runs
    /// once libzmq does load.</para>
    /// </remarks>
    public static class DraftApi
    {
        /// <summary>Whether this build of NetZeroMQ can look exports up at all (false on netstandard2.0: results unknown).</summary>
        public static bool CanProbe =>
#if NET
            true;
#else
            false;
#endif

        /// <summary>Whether every draft feature below is available; required by <see cref="DraftSockets.Create"/>.</summary>
        public static bool IsAvailable => HasPoller && HasGroups && HasRoutingId && HasMessageGroup && HasVersionedMonitor;

        /// <summary>
        /// Whether the draft poller is exported: <c>zmq_poller_new</c>, <c>_destroy</c>, <c>_add</c>, <c>_modify</c>,
        /// <c>_remove</c>, <c>_wait_all</c> and <c>_fd</c> (libzmq 4.3.2+), the only way to wait on thread-safe sockets (async
        /// operations on them, and a <see cref="Poller"/> that holds one).
        /// </summary>
        public static bool HasPoller => IsLoaded() && Exports.PollerNew;

        /// <summary>Whether <c>zmq_join</c> and <c>zmq_leave</c> (DISH groups) are exported.</summary>
        public static bool HasGroups => IsLoaded() && Exports.Join && Exports.Leave;

        /// <summary>Whether <c>zmq_msg_set_routing_id</c> and <c>zmq_msg_routing_id</c> (SERVER/PEER addressing) are exported.</summary>
        public static bool HasRoutingId => IsLoaded() && Exports.MsgSetRoutingId && Exports.MsgRoutingId;

        /// <summary>Whether <c>zmq_msg_set_group</c> and <c>zmq_msg_group</c> (RADIO/DISH groups on messages) are exported.</summary>
        public static bool HasMessageGroup => IsLoaded() && Exports.MsgSetGroup && Exports.MsgGroup;

        /// <summary>Whether <c>zmq_connect_peer</c> (PEER sockets, libzmq 4.3.3+) is exported.</summary>
        public static bool HasConnectPeer => IsLoaded() && Exports.ConnectPeer;

        /// <summary>Whether <c>zmq_socket_monitor_versioned</c> (the v2 monitor protocol) is exported.</summary>
        public static bool HasVersionedMonitor => IsLoaded() && Exports.SocketMonitorVersioned;

        /// <summary>
        /// Whether libzmq is loaded and usable, loading it if needed. The exports are probed only after that: a type
        /// initializer that meets the loading error would keep throwing <see cref="TypeInitializationException"/> (with the
        /// <see cref="DllNotFoundException"/> hidden inside) on every later access, even after <see cref="Libzmq.LibraryPath"/>
        /// was corrected.
        /// </summary>
        private static bool IsLoaded()
        {
            try
            {
                Libzmq.EnsureUsable();
                return true;
            }
            catch (DllNotFoundException)
            {
                return false;
            }
            catch (NotSupportedException)
            {
                return false; // older than the minimum: no draft API either
            }
        }

        /// <summary>Throws the <see cref="NotSupportedException"/> every draft entry point uses when its export is missing.</summary>
        internal static void ThrowUnavailable(string what) =>
            throw DraftRequirement.Missing(
                what, "export" + (CanProbe ? "" : " (or this netstandard2.0 build cannot detect)"), ", and the net8.0 build of NetZeroMQ");

        /// <summary>Which draft exports the loaded libzmq has: probed once, after the library is known to be usable.</summary>
        private static class Exports
        {
#if NET
            internal static readonly bool PollerNew;
            internal static readonly bool Join;
            internal static readonly bool Leave;
            internal static readonly bool MsgSetRoutingId;
            internal static readonly bool MsgRoutingId;
            internal static readonly bool MsgSetGroup;
            internal static readonly bool SocketMonitorVersioned;
            internal static readonly bool MsgGroup;
            internal static readonly bool ConnectPeer;

            static unsafe Exports()
            {
                // Reached only after IsLoaded: loading errors never surface in this initializer.
                PollerNew = Interop.ZmqDraft.zmq_poller_new != null && Interop.ZmqDraft.zmq_poller_destroy != null &&
                    Interop.ZmqDraft.zmq_poller_add != null && Interop.ZmqDraft.zmq_poller_modify != null &&
                    Interop.ZmqDraft.zmq_poller_remove != null && Interop.ZmqDraft.zmq_poller_wait_all != null &&
                    Interop.ZmqDraft.zmq_poller_fd != null;
                Join = Interop.ZmqDraft.zmq_join != null;
                Leave = Interop.ZmqDraft.zmq_leave != null;
                MsgSetRoutingId = Interop.ZmqDraft.zmq_msg_set_routing_id != null;
                MsgRoutingId = Interop.ZmqDraft.zmq_msg_routing_id != null;
                MsgSetGroup = Interop.ZmqDraft.zmq_msg_set_group != null;
                SocketMonitorVersioned = Interop.ZmqDraft.zmq_socket_monitor_versioned != null;
                MsgGroup = Interop.ZmqDraft.zmq_msg_group != null;
                ConnectPeer = Interop.ZmqDraft.zmq_connect_peer != null;
            }
#else
            internal const bool PollerNew = false;
            internal const bool Join = false;
            internal const bool Leave = false;
            internal const bool MsgSetRoutingId = false;
            internal const bool MsgRoutingId = false;
            internal const bool MsgSetGroup = false;
            internal const bool SocketMonitorVersioned = false;
            internal const bool MsgGroup = false;
            internal const bool ConnectPeer = false;
#endif
        }
    }
}
