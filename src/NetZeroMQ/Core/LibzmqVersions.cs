using System;

namespace NetZeroMQ
{
    /// <summary>
    /// What differs between the libzmq versions NetZeroMQ supports (4.1 to 4.3; see docs/libzmq-versions.md), as decisions
    /// that take the version as an argument, so that each is tested with version numbers on every machine, whatever libzmq it
    /// loaded. The callers pass <see cref="Libzmq.Version"/>.
    /// </summary>
    /// <remarks>
    /// The first version of each option was read from libzmq's own sources at each tag (the option named in
    /// <c>src/*.cpp</c>): libzmq answers an option it does not know with a bare EINVAL, which reads like a bad value, so
    /// NetZeroMQ refuses it first with a <see cref="NotSupportedException"/> naming the option and both versions.
    /// </remarks>
    internal static class LibzmqVersions
    {
        /// <summary>libzmq 4.2.0: ZMQ_USE_FD, the heartbeats, the XPUB extras and the other options 70 to 89.</summary>
        internal static readonly Version V4_2 = new Version(4, 2, 0);

        /// <summary>libzmq 4.3.2: SO_BINDTODEVICE failures become errors (4.2.x to 4.3.1 abort the process in ip.cpp).</summary>
        internal static readonly Version V4_3_2 = new Version(4, 3, 2);

        /// <summary>libzmq 4.3.3: ONLY_FIRST_SUBSCRIBE, RECONNECT_STOP, HELLO_MSG, DISCONNECT_MSG.</summary>
        internal static readonly Version V4_3_3 = new Version(4, 3, 3);

        /// <summary>
        /// The first libzmq version on which NetZeroMQ lets an option through, or null when every supported version has it.
        /// </summary>
        /// <param name="option">libzmq's option number.</param>
        internal static Version? OptionSince(int option) => option switch
        {
            // ZMQ_REQ_RELAXED exists since 4.0, but libzmq 4.1 hangs the REQ that uses it: refused there (RefusalReason says
            // how). ZMQ_REQ_CORRELATE alone works on 4.1 (measured on 4.1.8 over tcp, ipc and inproc).
            53 => V4_2,

            // ZMQ_BINDTODEVICE exists since 4.2.3, but until 4.3.1 a device that cannot be bound (missing, or a process
            // without CAP_NET_RAW) aborts the process (ip.cpp errno_assert) on the I/O thread: refused there.
            92 => V4_3_2,
            >= 70 and <= 95 => V4_2, // 90 to 95 came in 4.2.3 to 4.2.5, all present in 4.2.5
            96 or 97 => new Version(4, 3, 0), // MULTICAST_LOOP, ROUTER_NOTIFY
            >= 98 and <= 102 => V4_3_2, // XPUB_MANUAL_LAST_VALUE, SOCKS_USERNAME/PASSWORD, IN/OUT_BATCH_SIZE
            >= 103 and <= 111 => V4_3_3, // the WSS options, ONLY_FIRST_SUBSCRIBE, RECONNECT_STOP, HELLO_MSG, DISCONNECT_MSG
            112 => new Version(4, 3, 4),
            >= 113 and <= 124 => new Version(4, 3, 5),
            _ => null,
        };

        /// <summary>
        /// The first libzmq version on which NetZeroMQ lets a context option through, to be set to <paramref name="value"/>
        /// (<paramref name="write"/>) or read, or null when every supported version has it. Read from <c>ctx.cpp</c> at each
        /// tag: libzmq answers a context option it does not know with EINVAL (a bare "Invalid argument"), and a read of a thread
        /// option it cannot read back answers -1, which is also a valid value of those options.
        /// </summary>
        internal static Version? ContextOptionSince(int option, bool write, int value = 0) => option switch
        {
            5 or 70 => V4_2, // MAX_MSGSZ, BLOCKY
            6 => new Version(4, 2, 1), // MSG_T_SIZE (read-only)
            7 or 8 => new Version(4, 2, 3), // THREAD_AFFINITY_CPU_ADD, _REMOVE (write-only)

            // THREAD_NAME_PREFIX: set since 4.2.3, but a negative prefix only from 4.3.3 (before, "optval_ >= 0"); read back
            // from 4.3.0.
            9 => !write ? new Version(4, 3, 0) : value < 0 ? V4_3_3 : new Version(4, 2, 3),
            4 => write ? null : new Version(4, 3, 0), // THREAD_SCHED_POLICY: set since 4.1, read back from 4.3.0
            10 => new Version(4, 2, 4), // ZERO_COPY_RECV
            _ => null,
        };

        /// <summary>
        /// The refusal of a context option the loaded libzmq cannot set to <paramref name="value"/> (<paramref name="write"/>)
        /// or read, or null when it can.
        /// </summary>
        internal static NotSupportedException? ContextOptionRefusal(int option, string name, bool write, Version version, int value = 0)
        {
            if (ContextOptionSince(option, write, value) is not { } since || version >= since)
            {
                return null;
            }

            string what = !write ? "to be read" : option == 9 && value < 0 ? "to be set to a negative value" : "to be set";
            return new NotSupportedException(
                "Context option " + name + " needs libzmq " + since + " or later " + what + "; the loaded libzmq is " + version + ".");
        }

        /// <summary>
        /// The text of a connect (and of its disconnect) as <paramref name="version"/> takes it. libzmq 4.1 checks a tcp
        /// connect's address character by character and takes no '*' (<c>socket_base.cpp</c>; 4.2 takes it), so a wildcard
        /// source port ("tcp://127.0.0.1:*;server:5555": any local port) goes to it as port 0, which means the same.
        /// </summary>
        internal static string ConnectText(string endpoint, Version version)
        {
            if (version >= V4_2 || !endpoint.StartsWith("tcp://", StringComparison.Ordinal))
            {
                return endpoint;
            }

            int semicolon = endpoint.IndexOf(';');
            return semicolon >= 2 && endpoint[semicolon - 1] == '*' && endpoint[semicolon - 2] == ':'
                ? endpoint.Substring(0, semicolon - 1) + "0" + endpoint.Substring(semicolon)
                : endpoint;
        }

        /// <summary>Whether <paramref name="version"/> has option <paramref name="option"/> (as far as NetZeroMQ lets it through).</summary>
        internal static bool HasOption(int option, Version version) => OptionSince(option) is not { } since || version >= since;

        /// <summary>
        /// The refusal of an option the loaded libzmq does not have, or null when it has it.
        /// </summary>
        internal static NotSupportedException? OptionRefusal(int option, string name, Version version)
        {
            if (OptionSince(option) is not { } since || version >= since)
            {
                return null;
            }

            return new NotSupportedException(
                "Socket option " + name + " needs libzmq " + since + " or later; the loaded libzmq is " + version
                + RefusalReason(option, version) + ".");
        }

        /// <summary>
        /// Why an option that <paramref name="version"/> has is refused there anyway, as a parenthesis for the refusal, or
        /// empty for an option the version lacks. Read from libzmq 4.1.8's <c>req.cpp</c> and from 4.2.5/4.3.1's <c>ip.cpp</c>.
        /// </summary>
        private static string RefusalReason(int option, Version version) => option switch
        {
            92 => " (libzmq " + version + " aborts the process when the device cannot be bound: a missing device, or no CAP_NET_RAW)",

            // 4.1's relaxed send terminates the pipe to the peer of the abandoned request (req_t::xsend) while the connection
            // stays up, so no new pipe is ever made for it (measured on 4.1.8: with two peers the third request found none,
            // with one the second), and ZMQ_EVENTS never shows POLLOUT after a request (req_t::xhas_out). 4.2 fixed both.
            53 => " (libzmq " + version + " drops the abandoned request's peer for as long as its connection lasts, so "
                + "once every peer has an abandoned request the next request waits for ever: with one peer, the second)",
            _ => string.Empty,
        };

        /// <summary>
        /// Whether <paramref name="version"/>'s <c>zmq_ctx_term</c> crashes after <c>zmq_ctx_shutdown</c> on an inproc connect
        /// still pending (its endpoint never bound): libzmq 4.1's <c>ctx_t::terminate</c> binds each pending endpoint with a
        /// socket it makes first, which fails after a shutdown, and dereferences the null socket (SIGSEGV, measured on 4.1.8).
        /// 4.2 dropped that step. Where true, a context binds those endpoints itself before it shuts down
        /// (<see cref="PendingInprocConnects"/>).
        /// </summary>
        internal static bool TermCrashesOnPendingInprocConnect(Version version) => version < V4_2;

        /// <summary>
        /// Whether <paramref name="version"/>'s <c>zmq_socket_monitor</c> replaces a running monitor without stopping it:
        /// libzmq 4.1's <c>socket_base_t::monitor</c> makes the new PAIR over the old one, which is never closed (so
        /// <c>zmq_ctx_term</c> waits for it for ever: measured on 4.1.8) and never sends MONITOR_STOPPED. 4.2 stops the old
        /// monitor first. Where true, a new monitor stops the socket's running one itself (<c>zmq_socket_monitor(s, NULL, 0)</c>).
        /// </summary>
        internal static bool MonitorReplacesWithoutStopping(Version version) => version < V4_2;

        /// <summary>
        /// The refusal of a security setter that fails closed (<paramref name="member"/>: <c>SetPlainServer</c>,
        /// <c>SetCurveServer</c>, <c>SetZapDomain</c>) where <paramref name="version"/> has no ZMQ_ZAP_ENFORCE_DOMAIN, or
        /// null where it has. Without it a PLAIN or CURVE server accepts every client while no ZAP handler runs
        /// (libzmq 4.1's <c>plain_server.cpp</c>, <c>curve_server.cpp</c>: a failed <c>zap_connect</c> welcomes the client),
        /// which is not what the setters promise.
        /// </summary>
        internal static NotSupportedException? ZapEnforcementRefusal(string member, Version version)
        {
            Version since = OptionSince(93)!; // ZMQ_ZAP_ENFORCE_DOMAIN
            if (version >= since)
            {
                return null;
            }

            return new NotSupportedException(
                member + " needs libzmq " + since + " or later, whose ZapEnforceDomain rejects a client while no ZAP handler "
                + "runs (libzmq " + version + " then accepts every client, so the server cannot fail closed); the loaded libzmq is "
                + version + ".");
        }

        /// <summary>libzmq 4.3.0: the handshake monitor events leave the draft API (sent by every build).</summary>
        internal static readonly Version V4_3 = new Version(4, 3, 0);

        // libzmq's handshake monitor events by number (ZMQ_EVENT_HANDSHAKE_*): MonitorEvents is a feature's type.

        /// <summary><c>ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL</c> (4.2.1 and 4.2.2: <c>ZMQ_EVENT_HANDSHAKE_FAILED</c>).</summary>
        internal const int HandshakeFailedNoDetail = 0x0800;

        /// <summary><c>ZMQ_EVENT_HANDSHAKE_SUCCEEDED</c> (4.2.1 and 4.2.2: <c>ZMQ_EVENT_HANDSHAKE_SUCCEED</c>).</summary>
        internal const int HandshakeSucceeded = 0x1000;

        /// <summary><c>ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL</c>.</summary>
        internal const int HandshakeFailedProtocol = 0x2000;

        /// <summary><c>ZMQ_EVENT_HANDSHAKE_FAILED_AUTH</c>.</summary>
        internal const int HandshakeFailedAuth = 0x4000;

        /// <summary>The four handshake events.</summary>
        internal const int HandshakeEvents = 0x7800;

        /// <summary>
        /// The monitor events among <paramref name="events"/> (libzmq's numbers) that libzmq <paramref name="version"/> never
        /// sends, built with the draft API (<paramref name="draft"/>, <c>zmq_has("draft")</c>) or without; 0 when it can send
        /// them all. A request of every event (<c>ZMQ_EVENT_ALL</c>, 0xFFFF, with or without the v2 bits) means "what this
        /// libzmq sends" and is never refused.
        /// </summary>
        /// <remarks>
        /// Read from libzmq's sources at each tag (the callers of <c>socket_base_t::event_handshake_*</c>):
        /// <list type="bullet">
        /// <item>4.1 and 4.2.0: no handshake event exists.</item>
        /// <item>4.2.1, 4.2.2: two draft events, <c>ZMQ_EVENT_HANDSHAKE_FAILED</c> (0x0800) and <c>ZMQ_EVENT_HANDSHAKE_SUCCEED</c>
        /// (0x1000), sent by <c>stream_engine.cpp</c> only inside <c>#ifdef ZMQ_BUILD_DRAFT_API</c>: a release build sends
        /// neither; a draft build never sends 0x2000 or 0x4000.</item>
        /// <item>4.2.3 to 4.2.5: the four events of 4.3, still draft. The mechanisms and the ZAP client send FAILED_PROTOCOL,
        /// FAILED_AUTH and (for a ZAP handler that is required but missing) FAILED_NO_DETAIL in every build, but
        /// <c>stream_engine.cpp</c> sends SUCCEEDED, and FAILED_NO_DETAIL for transport errors, only inside
        /// <c>#ifdef ZMQ_BUILD_DRAFT_API</c>: a release build never reports a handshake that succeeded.</item>
        /// <item>4.3.0 and later: every build sends all four.</item>
        /// </list>
        /// </remarks>
        internal static int MonitorEventsNeverSent(int events, Version version, bool draft)
        {
            if ((events & 0xFFFF) == 0xFFFF)
            {
                return 0;
            }

            int neverSent = version >= V4_3 ? 0
                : version >= new Version(4, 2, 3) ? (draft ? 0 : HandshakeSucceeded)
                : version >= new Version(4, 2, 1) ? (draft ? HandshakeFailedProtocol | HandshakeFailedAuth : HandshakeEvents)
                : HandshakeEvents;
            return events & neverSent;
        }

        /// <summary>
        /// The refusal of a monitor asked for <paramref name="events"/> (libzmq's numbers) of which libzmq
        /// <paramref name="version"/> (<paramref name="draft"/>: built with the draft API) never sends some, or null when it
        /// sends them all: a monitor waiting for an event that never comes would wait forever.
        /// </summary>
        internal static NotSupportedException? MonitorEventsRefusal(int events, Version version, bool draft)
        {
            int neverSent = MonitorEventsNeverSent(events, version, draft);
            if (neverSent == 0)
            {
                return null;
            }

            string names = string.Empty;
            foreach ((int value, string name) in new[]
            {
                (HandshakeFailedNoDetail, nameof(HandshakeFailedNoDetail)),
                (HandshakeSucceeded, nameof(HandshakeSucceeded)),
                (HandshakeFailedProtocol, nameof(HandshakeFailedProtocol)),
                (HandshakeFailedAuth, nameof(HandshakeFailedAuth)),
            })
            {
                if ((neverSent & value) != 0)
                {
                    names += (names.Length == 0 ? string.Empty : ", ") + name;
                }
            }

            string build = draft ? " (built with the draft API)" : " (built without the draft API)";
            return new NotSupportedException(
                "Monitor events " + names + " need libzmq " + V4_3 + " or later (or a 4.2.3 to 4.2.5 build with the draft API); " +
                "the loaded libzmq is " + version + build + " and never sends them, so a monitor would wait for them forever. " +
                "Ask for the other events, or for MonitorEvents.All (every event the loaded libzmq sends).");
        }

        /// <summary>
        /// Whether libzmq <paramref name="version"/> leaves the socket file of a wildcard ipc listener (<c>ipc://*</c>, made as
        /// <c>$TMPDIR/tmpXXXXXX/socket</c>) behind when the listener closes, and with it the directory: from 4.2.3 (libzmq
        /// 656cdb95, "Race condition in IPC sockets", moved the unlink to the next bind) its <c>ipc_listener_t::close</c> only
        /// removes the directory, which fails on the file still in it (ENOTEMPTY, reported as <c>CLOSE_FAILED</c>); 4.3.2
        /// unlinks the file first again (8d784f26). 4.1 to 4.2.2 unlink it. Read from <c>ipc_listener.cpp</c> at each tag.
        /// </summary>
        internal static bool LeavesWildcardIpcFile(Version version) => version >= new Version(4, 2, 3) && version < V4_3_2;
    }
}
