using System;
#if NET
using System.Runtime.InteropServices;
#endif

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
    /// <para>Thread-safe: the probe runs once, on first use, and its results never change.</para>
    /// </remarks>
    public static class DraftApi
    {
        private static readonly Exports s_exports = Probe();

        /// <summary>Whether this build of NetZeroMQ can look exports up at all (false on netstandard2.0: results unknown).</summary>
        public static bool CanProbe =>
#if NET
            true;
#else
            false;
#endif

        /// <summary>Whether every draft feature below is available; required by <see cref="DraftSockets.Create"/>.</summary>
        public static bool IsAvailable => HasPoller && HasGroups && HasRoutingId && HasMessageGroup && HasVersionedMonitor;

        /// <summary>Whether <c>zmq_poller_new</c> (the draft poller, the only way to wait on thread-safe sockets) is exported.</summary>
        public static bool HasPoller => s_exports.PollerNew != 0;

        /// <summary>Whether <c>zmq_join</c> and <c>zmq_leave</c> (DISH groups) are exported.</summary>
        public static bool HasGroups => s_exports.Join != 0 && s_exports.Leave != 0;

        /// <summary>Whether <c>zmq_msg_set_routing_id</c> and <c>zmq_msg_routing_id</c> (SERVER/PEER addressing) are exported.</summary>
        public static bool HasRoutingId => s_exports.MsgSetRoutingId != 0 && s_exports.MsgRoutingId != 0;

        /// <summary>Whether <c>zmq_msg_set_group</c> (RADIO groups) is exported.</summary>
        public static bool HasMessageGroup => s_exports.MsgSetGroup != 0;

        /// <summary>Whether <c>zmq_socket_monitor_versioned</c> (the v2 monitor protocol) is exported.</summary>
        public static bool HasVersionedMonitor => s_exports.SocketMonitorVersioned != 0;

        internal static nint ZmqJoin => s_exports.Join;

        internal static nint ZmqLeave => s_exports.Leave;

        internal static nint ZmqMsgSetRoutingId => s_exports.MsgSetRoutingId;

        internal static nint ZmqMsgRoutingId => s_exports.MsgRoutingId;

        internal static nint ZmqMsgSetGroup => s_exports.MsgSetGroup;

        /// <summary>Throws the <see cref="NotSupportedException"/> every draft entry point uses when its export is missing.</summary>
        internal static void ThrowUnavailable(string what) =>
            throw new NotSupportedException(
                what + " needs libzmq's draft API, which the loaded libzmq " + Libzmq.Version + " ('" + Libzmq.LoadedFrom + "') does not " +
                "export" + (CanProbe ? "" : " (or this netstandard2.0 build cannot detect)") + ". Use a libzmq built with " +
                "--enable-drafts / -DENABLE_DRAFTS=ON, and the net8.0 build of NetZeroMQ.");

        private static Exports Probe()
        {
            var exports = default(Exports);
#if NET
            Libzmq.EnsureUsable();
            nint library = LibzmqResolver.EnsureLoaded();
            exports.PollerNew = Find(library, "zmq_poller_new");
            exports.Join = Find(library, "zmq_join");
            exports.Leave = Find(library, "zmq_leave");
            exports.MsgSetRoutingId = Find(library, "zmq_msg_set_routing_id");
            exports.MsgRoutingId = Find(library, "zmq_msg_routing_id");
            exports.MsgSetGroup = Find(library, "zmq_msg_set_group");
            exports.SocketMonitorVersioned = Find(library, "zmq_socket_monitor_versioned");
#endif
            return exports;
        }

#if NET
        private static nint Find(nint library, string name) => NativeLibrary.TryGetExport(library, name, out nint address) ? address : 0;
#endif

#pragma warning disable CS0649 // Assigned only where exports can be probed (not in the netstandard2.0 build).
        private struct Exports
        {
            internal nint PollerNew;
            internal nint Join;
            internal nint Leave;
            internal nint MsgSetRoutingId;
            internal nint MsgRoutingId;
            internal nint MsgSetGroup;
            internal nint SocketMonitorVersioned;
        }
#pragma warning restore CS0649
    }
}
