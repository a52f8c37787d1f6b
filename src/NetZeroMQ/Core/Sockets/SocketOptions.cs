using System;
using System.Collections.Generic;

namespace NetZeroMQ
{
    /// <summary>
    /// Every socket option of libzmq 4.3 as a typed key, for the <c>GetOption</c> and <c>SetOption</c> overloads of
    /// <see cref="Socket"/>: the key's value type picks the overload. Types and read/write access follow libzmq's source
    /// (<c>options.cpp</c>), which is stricter than its man pages about sizes. Options marked draft exist in libzmq's draft API;
    /// whether the loaded library accepts them is libzmq's answer (an <see cref="ZmqError.InvalidArgument"/> if not).
    /// See <see href="http://api.zeromq.org/4-3:zmq-setsockopt">zmq_setsockopt</see>.
    /// </summary>
    /// <remarks>
    /// Two types, because they are two things: <see cref="SocketOption{T}"/> is the key, generic in its value type so that the
    /// compiler picks the matching <c>GetOption</c>/<c>SetOption</c> overload; this class is the catalogue of the keys, one
    /// static field each, and a static class cannot be generic without splitting the catalogue into one class per value type
    /// (<c>SocketOption&lt;int&gt;.Linger</c> would not compile). Keys for options the catalogue does not list come from its
    /// <c>Custom*</c> factories (<see cref="CustomInt32"/> and the others), so every key is found in one place.
    /// </remarks>
    public static partial class SocketOptions
    {
        // Must come first: the fields below register themselves in it as they are initialised.
        private static readonly Dictionary<int, OptionInfo> s_byId = new Dictionary<int, OptionInfo>();

        private const OptionAccess R = OptionAccess.Read;
        private const OptionAccess W = OptionAccess.Write;
        private const OptionAccess RW = OptionAccess.ReadWrite;

        private static readonly OptionLimits Limit255 =
            OptionLimits.Length(1, 255, "libzmq's limit (a one-byte length on the wire).", nativeMin: 1, nativeMax: 255);

        private static readonly OptionLimits Limit255OrEmpty =
            OptionLimits.Length(0, 255, "libzmq's limit (a one-byte length on the wire).", nativeMin: 0, nativeMax: 255);

        private static readonly OptionLimits OutBatchSizeLimits =
            OptionLimits.Range(1, int.MaxValue, "libzmq's limit (a batch needs at least one byte).", nativeFloor: long.MinValue);

        private static readonly OptionLimits InBatchSizeLimits =
            OptionLimits.Range(2, int.MaxValue, "libzmq 4.3.4 takes 1 but its decoder then crashes the process on the first connection (measured: segmentation fault).", nativeFloor: long.MinValue);

#pragma warning disable SA1600, CS1591 // The names say what each option is; the linked man page says the rest.

        /// <summary>
        /// I/O thread affinity bitmask (ZMQ_AFFINITY): bit <i>n</i> lets the socket's connections use I/O thread <i>n</i>, 0 (the
        /// default) any of them. Any value is accepted; one that names no existing I/O thread makes Bind/Connect fail with
        /// <see cref="ZmqError.NoIOThread"/>.
        /// </summary>
        public static readonly SocketOption<ulong> Affinity = Define<ulong>(4, nameof(Affinity), RW);

        /// <summary>The socket's routing id, 1-255 bytes, not starting with a zero byte (ZMQ_ROUTING_ID).</summary>
        public static readonly SocketOption<byte[]> RoutingId = Define<byte[]>(5, nameof(RoutingId), RW);

        /// <summary>Adds a subscription prefix on SUB (ZMQ_SUBSCRIBE).</summary>
        public static readonly SocketOption<byte[]> Subscribe = Define<byte[]>(6, nameof(Subscribe), W);

        /// <summary>Removes a subscription prefix on SUB (ZMQ_UNSUBSCRIBE).</summary>
        public static readonly SocketOption<byte[]> Unsubscribe = Define<byte[]>(7, nameof(Unsubscribe), W);

        /// <summary>
        /// Multicast (PGM) data rate in kbit/s (ZMQ_RATE), 1 to 2147483, and at least <see cref="MulticastMaxTpdu"/> × 8 / 1000
        /// (12 with the default TPDU of 1500 bytes); together with <see cref="RecoveryInterval"/> it sizes PGM's window (see there).
        /// libzmq computes the rate in bytes per second in an <c>int</c>, and OpenPGM asserts that one TPDU fits in one second's
        /// budget: outside these limits a PGM socket aborts the process.
        /// </summary>
        public static readonly SocketOption<int> Rate = Define<int>(8, nameof(Rate), RW, limits: SocketOptionRules.RateLimits, rule: SocketOptionRules.CheckRate);

        /// <summary>
        /// Multicast (PGM) recovery interval (ZMQ_RECOVERY_IVL), 0 to int.MaxValue ms. The PGM window holds
        /// RecoveryInterval × <see cref="Rate"/> / 8 / <see cref="MulticastMaxTpdu"/> packets, which must stay below 2147483646
        /// (libzmq casts it to <c>int</c>; OpenPGM refuses larger windows and libzmq then aborts).
        /// </summary>
        public static readonly SocketOption<TimeSpan> RecoveryInterval = Define<TimeSpan>(9, nameof(RecoveryInterval), RW,
            limits: OptionLimits.Milliseconds(0, int.MaxValue, infinite: false, "libzmq's limit."), rule: SocketOptionRules.CheckRecoveryInterval);

        /// <summary>Kernel send buffer size in bytes, -1 for the OS default (ZMQ_SNDBUF); -1 to int.MaxValue. The kernel caps
        /// it (Linux: net.core.wmem_max) without an error.</summary>
        public static readonly SocketOption<int> SendBufferSize = Define<int>(11, nameof(SendBufferSize), RW);

        /// <summary>Kernel receive buffer size in bytes, -1 for the OS default (ZMQ_RCVBUF); -1 to int.MaxValue. The kernel caps
        /// it (Linux: net.core.rmem_max) without an error.</summary>
        public static readonly SocketOption<int> ReceiveBufferSize = Define<int>(12, nameof(ReceiveBufferSize), RW);

        /// <summary>Whether more frames of the current message follow (ZMQ_RCVMORE).</summary>
        public static readonly SocketOption<bool> HasMore = Define<bool>(13, nameof(HasMore), R);

        /// <summary>Readiness: a combination of <see cref="PollEvents"/> values (ZMQ_EVENTS).</summary>
        public static readonly SocketOption<int> Events = Define<int>(15, nameof(Events), R);

        /// <summary>The socket type number (ZMQ_TYPE).</summary>
        public static readonly SocketOption<int> Type = Define<int>(16, nameof(Type), R);

        /// <summary>How long queued messages may keep the context from terminating after close (ZMQ_LINGER): infinite or 0 to
        /// int.MaxValue ms.</summary>
        public static readonly SocketOption<TimeSpan> Linger = Define<TimeSpan>(17, nameof(Linger), RW);

        /// <summary>Initial reconnection interval; infinite disables reconnection (ZMQ_RECONNECT_IVL): infinite or 0 to
        /// int.MaxValue ms.</summary>
        public static readonly SocketOption<TimeSpan> ReconnectInterval = Define<TimeSpan>(18, nameof(ReconnectInterval), RW);

        /// <summary>Listen backlog (ZMQ_BACKLOG), 0 to int.MaxValue; the kernel caps it (Linux: net.core.somaxconn).</summary>
        public static readonly SocketOption<int> Backlog = Define<int>(19, nameof(Backlog), RW);

        /// <summary>Maximum reconnection interval for exponential back-off, 0 to keep ReconnectInterval (ZMQ_RECONNECT_IVL_MAX);
        /// 0 to int.MaxValue ms, not infinite.</summary>
        public static readonly SocketOption<TimeSpan> ReconnectIntervalMax = Define<TimeSpan>(21, nameof(ReconnectIntervalMax), RW);

        /// <summary>Largest inbound message accepted, -1 for no limit; a peer sending more is disconnected (ZMQ_MAXMSGSIZE).
        /// -1 to long.MaxValue: libzmq would take any other negative value as "no limit" too.</summary>
        public static readonly SocketOption<long> MaxMessageSize = Define<long>(22, nameof(MaxMessageSize), RW,
            limits: OptionLimits.Range(-1, long.MaxValue, "libzmq reads every negative value as \"no limit\"; -1 is the one that says so.", nativeFloor: long.MinValue));

        /// <summary>Outbound high-water mark in messages, 0 for none (ZMQ_SNDHWM); 0 to int.MaxValue.</summary>
        public static readonly SocketOption<int> SendHighWatermark = Define<int>(23, nameof(SendHighWatermark), RW);

        /// <summary>Inbound high-water mark in messages, 0 for none (ZMQ_RCVHWM); 0 to int.MaxValue.</summary>
        public static readonly SocketOption<int> ReceiveHighWatermark = Define<int>(24, nameof(ReceiveHighWatermark), RW);

        /// <summary>Multicast hops, the IP time-to-live of multicast packets (ZMQ_MULTICAST_HOPS): 1 to 255. The TTL is one
        /// byte: larger values make a PGM socket abort the process and silence a UDP RADIO.</summary>
        public static readonly SocketOption<int> MulticastHops = Define<int>(25, nameof(MulticastHops), RW,
            limits: OptionLimits.Range(1, 255, "the IP TTL is one byte; OpenPGM refuses larger values and libzmq then aborts (session_base.cpp:734), a UDP RADIO stops sending."));

        /// <summary>Receive timeout; infinite by default (ZMQ_RCVTIMEO): infinite or 0 to int.MaxValue ms.</summary>
        public static readonly SocketOption<TimeSpan> ReceiveTimeout = Define<TimeSpan>(27, nameof(ReceiveTimeout), RW);

        /// <summary>Send timeout; infinite by default (ZMQ_SNDTIMEO): infinite or 0 to int.MaxValue ms.</summary>
        public static readonly SocketOption<TimeSpan> SendTimeout = Define<TimeSpan>(28, nameof(SendTimeout), RW);

        /// <summary>Deprecated: use IPv4 only (ZMQ_IPV4ONLY); prefer <see cref="IPv6"/>.</summary>
        public static readonly SocketOption<bool> IPv4Only = Define<bool>(31, nameof(IPv4Only), RW);

        /// <summary>The endpoint last bound or connected, with wildcards resolved (ZMQ_LAST_ENDPOINT); read back whatever its
        /// length.</summary>
        public static readonly SocketOption<string> LastEndpoint = Define<string>(32, nameof(LastEndpoint), R);

        /// <summary>ROUTER: fail with HostUnreachable instead of dropping unroutable messages (ZMQ_ROUTER_MANDATORY).</summary>
        public static readonly SocketOption<bool> RouterMandatory = Define<bool>(33, nameof(RouterMandatory), W);

        /// <summary>SO_KEEPALIVE: -1 OS default, 0 off, 1 on (ZMQ_TCP_KEEPALIVE). With 0 or 1, the three keep-alive tunings
        /// below are applied to every TCP connection.</summary>
        public static readonly SocketOption<int> TcpKeepalive = Define<int>(34, nameof(TcpKeepalive), RW);

        /// <summary>TCP_KEEPCNT, probes before the connection is dropped (ZMQ_TCP_KEEPALIVE_CNT): -1 for the OS default, or
        /// 1 to 127 on Linux (elsewhere 0 to int.MaxValue). Linux refuses other values, and libzmq then drops every connection
        /// of the socket as it is made, silently.</summary>
        public static readonly SocketOption<int> TcpKeepaliveCount = Define<int>(35, nameof(TcpKeepaliveCount), RW, limits: SocketOptionRules.KeepaliveLimits(127));

        /// <summary>TCP_KEEPIDLE in seconds (ZMQ_TCP_KEEPALIVE_IDLE): -1 for the OS default, or 1 to 32767 on Linux (elsewhere 0
        /// to int.MaxValue); see <see cref="TcpKeepaliveCount"/> for what happens otherwise.</summary>
        public static readonly SocketOption<int> TcpKeepaliveIdle = Define<int>(36, nameof(TcpKeepaliveIdle), RW, limits: SocketOptionRules.KeepaliveLimits(32767));

        /// <summary>TCP_KEEPINTVL in seconds (ZMQ_TCP_KEEPALIVE_INTVL): -1 for the OS default, or 1 to 32767 on Linux (elsewhere
        /// 0 to int.MaxValue); see <see cref="TcpKeepaliveCount"/> for what happens otherwise.</summary>
        public static readonly SocketOption<int> TcpKeepaliveInterval = Define<int>(37, nameof(TcpKeepaliveInterval), RW, limits: SocketOptionRules.KeepaliveLimits(32767));

        /// <summary>Deprecated accept filter (ZMQ_TCP_ACCEPT_FILTER), an address or CIDR mask of 1 to 255 bytes.</summary>
        public static readonly SocketOption<string> TcpAcceptFilter = Define<string>(38, nameof(TcpAcceptFilter), W,
            limits: OptionLimits.Length(1, 255, "libzmq's limit (options.cpp:539).", nativeMin: 1, nativeMax: 255));

        /// <summary>Queue messages only to completed connections (ZMQ_IMMEDIATE).</summary>
        public static readonly SocketOption<bool> Immediate = Define<bool>(39, nameof(Immediate), RW);

        /// <summary>XPUB: pass every subscription message up, not only new ones (ZMQ_XPUB_VERBOSE).</summary>
        public static readonly SocketOption<bool> XPubVerbose = Define<bool>(40, nameof(XPubVerbose), W);

        /// <summary>ROUTER: raw mode (ZMQ_ROUTER_RAW).</summary>
        public static readonly SocketOption<bool> RouterRaw = Define<bool>(41, nameof(RouterRaw), W);

        /// <summary>Enable IPv6 (ZMQ_IPV6).</summary>
        public static readonly SocketOption<bool> IPv6 = Define<bool>(42, nameof(IPv6), RW);

        /// <summary>Security mechanism in use: 0 NULL, 1 PLAIN, 2 CURVE, 3 GSSAPI (ZMQ_MECHANISM).</summary>
        public static readonly SocketOption<int> Mechanism = Define<int>(43, nameof(Mechanism), R);

        /// <summary>Act as PLAIN server (ZMQ_PLAIN_SERVER).</summary>
        public static readonly SocketOption<bool> PlainServer = Define<bool>(44, nameof(PlainServer), RW);

        /// <summary>PLAIN user name (ZMQ_PLAIN_USERNAME), 1 to 255 UTF-8 bytes (a one-byte length on the wire).</summary>
        public static readonly SocketOption<string> PlainUsername = Define<string>(45, nameof(PlainUsername), RW, limits: Limit255);

        /// <summary>PLAIN password (ZMQ_PLAIN_PASSWORD), 1 to 255 UTF-8 bytes (a one-byte length on the wire).</summary>
        public static readonly SocketOption<string> PlainPassword = Define<string>(46, nameof(PlainPassword), RW, limits: Limit255);

        /// <summary>Act as CURVE server (ZMQ_CURVE_SERVER).</summary>
        public static readonly SocketOption<bool> CurveServer = Define<bool>(47, nameof(CurveServer), RW);

        /// <summary>CURVE public key, 32 raw bytes (ZMQ_CURVE_PUBLICKEY).</summary>
        public static readonly SocketOption<byte[]> CurvePublicKey = Define<byte[]>(48, nameof(CurvePublicKey), RW, 32);

        /// <summary>CURVE secret key, 32 raw bytes (ZMQ_CURVE_SECRETKEY).</summary>
        public static readonly SocketOption<byte[]> CurveSecretKey = Define<byte[]>(49, nameof(CurveSecretKey), RW, 32);

        /// <summary>CURVE server public key, 32 raw bytes (ZMQ_CURVE_SERVERKEY).</summary>
        public static readonly SocketOption<byte[]> CurveServerKey = Define<byte[]>(50, nameof(CurveServerKey), RW, 32);

        /// <summary>Send an empty message on connect (ZMQ_PROBE_ROUTER).</summary>
        public static readonly SocketOption<bool> ProbeRouter = Define<bool>(51, nameof(ProbeRouter), W);

        /// <summary>REQ: match replies to requests (ZMQ_REQ_CORRELATE).</summary>
        public static readonly SocketOption<bool> ReqCorrelate = Define<bool>(52, nameof(ReqCorrelate), W);

        /// <summary>REQ: allow a new request without waiting for the reply (ZMQ_REQ_RELAXED).</summary>
        public static readonly SocketOption<bool> ReqRelaxed = Define<bool>(53, nameof(ReqRelaxed), W);

        /// <summary>Keep only the last message (ZMQ_CONFLATE).</summary>
        public static readonly SocketOption<bool> Conflate = Define<bool>(54, nameof(Conflate), RW);

        /// <summary>ZAP domain (ZMQ_ZAP_DOMAIN), 1 to 255 UTF-8 bytes.</summary>
        public static readonly SocketOption<string> ZapDomain = Define<string>(55, nameof(ZapDomain), RW, limits: Limit255);

        /// <summary>ROUTER: a new peer with a known routing id takes it over (ZMQ_ROUTER_HANDOVER).</summary>
        public static readonly SocketOption<bool> RouterHandover = Define<bool>(56, nameof(RouterHandover), W);

        /// <summary>IP type-of-service byte of the socket's TCP connections (ZMQ_TOS), 0 to 255. The kernel keeps only the low
        /// byte, so a larger value would silently become another one.</summary>
        public static readonly SocketOption<int> TypeOfService = Define<int>(57, nameof(TypeOfService), RW,
            limits: OptionLimits.Range(0, 255, "IP_TOS is one byte; the kernel keeps only the low byte of a larger value (256 would be 0)."));

        /// <summary>Deprecated ipc accept filter by process id (ZMQ_IPC_FILTER_PID).</summary>
        public static readonly SocketOption<int> IpcFilterPid = Define<int>(58, nameof(IpcFilterPid), W);

        /// <summary>Deprecated ipc accept filter by user id (ZMQ_IPC_FILTER_UID).</summary>
        public static readonly SocketOption<int> IpcFilterUid = Define<int>(59, nameof(IpcFilterUid), W);

        /// <summary>Deprecated ipc accept filter by group id (ZMQ_IPC_FILTER_GID).</summary>
        public static readonly SocketOption<int> IpcFilterGid = Define<int>(60, nameof(IpcFilterGid), W);

        /// <summary>ROUTER/STREAM: routing id to give the next connection (ZMQ_CONNECT_ROUTING_ID), 1 to 255 bytes not starting
        /// with a zero byte.</summary>
        public static readonly SocketOption<byte[]> ConnectRoutingId = Define<byte[]>(61, nameof(ConnectRoutingId), W);

        /// <summary>Act as GSSAPI server (ZMQ_GSSAPI_SERVER).</summary>
        public static readonly SocketOption<bool> GssapiServer = Define<bool>(62, nameof(GssapiServer), RW);

        /// <summary>GSSAPI principal (ZMQ_GSSAPI_PRINCIPAL), 1 to 255 UTF-8 bytes.</summary>
        public static readonly SocketOption<string> GssapiPrincipal = Define<string>(63, nameof(GssapiPrincipal), RW, limits: Limit255);

        /// <summary>GSSAPI service principal (ZMQ_GSSAPI_SERVICE_PRINCIPAL), 1 to 255 UTF-8 bytes.</summary>
        public static readonly SocketOption<string> GssapiServicePrincipal = Define<string>(64, nameof(GssapiServicePrincipal), RW, limits: Limit255);

        /// <summary>GSSAPI without encryption (ZMQ_GSSAPI_PLAINTEXT).</summary>
        public static readonly SocketOption<bool> GssapiPlaintext = Define<bool>(65, nameof(GssapiPlaintext), RW);

        /// <summary>Maximum handshake time, 0 for none (ZMQ_HANDSHAKE_IVL); 0 to int.MaxValue ms, not infinite.</summary>
        public static readonly SocketOption<TimeSpan> HandshakeInterval = Define<TimeSpan>(66, nameof(HandshakeInterval), RW);

        /// <summary>SOCKS5 proxy address, "host:port" (ZMQ_SOCKS_PROXY); at least 1 UTF-8 byte, no upper limit of its own (read
        /// back whatever its length).</summary>
        public static readonly SocketOption<string> SocksProxy = Define<string>(68, nameof(SocksProxy), RW);

        /// <summary>PUB/XPUB: block (or fail with TryAgain) at the high-water mark instead of dropping (ZMQ_XPUB_NODROP).</summary>
        public static readonly SocketOption<bool> XPubNoDrop = Define<bool>(69, nameof(XPubNoDrop), W);

        /// <summary>XPUB: manual subscription handling (ZMQ_XPUB_MANUAL).</summary>
        public static readonly SocketOption<bool> XPubManual = Define<bool>(71, nameof(XPubManual), W);

        /// <summary>XPUB: welcome message sent to new subscribers (ZMQ_XPUB_WELCOME_MSG); any length.</summary>
        public static readonly SocketOption<byte[]> XPubWelcomeMessage = Define<byte[]>(72, nameof(XPubWelcomeMessage), W);

        /// <summary>STREAM: deliver connect/disconnect notifications (ZMQ_STREAM_NOTIFY).</summary>
        public static readonly SocketOption<bool> StreamNotify = Define<bool>(73, nameof(StreamNotify), W);

        /// <summary>Invert subscription matching (ZMQ_INVERT_MATCHING).</summary>
        public static readonly SocketOption<bool> InvertMatching = Define<bool>(74, nameof(InvertMatching), RW);

        /// <summary>ZMTP heartbeat interval, 0 for none (ZMQ_HEARTBEAT_IVL); 0 to int.MaxValue ms, not infinite.</summary>
        public static readonly SocketOption<TimeSpan> HeartbeatInterval = Define<TimeSpan>(75, nameof(HeartbeatInterval), RW);

        /// <summary>ZMTP heartbeat time-to-live (ZMQ_HEARTBEAT_TTL): 0 to 6553500 ms in whole tenths of a second. libzmq keeps
        /// it as a 16-bit count of tenths and drops the rest, so 150 ms would silently be 100 ms and 50 ms would switch it off.</summary>
        public static readonly SocketOption<TimeSpan> HeartbeatTimeToLive = Define<TimeSpan>(76, nameof(HeartbeatTimeToLive), RW,
            limits: OptionLimits.Milliseconds(0, 6553500, infinite: false,
                "libzmq stores tenths of a second in 16 bits and drops the remainder (options.cpp:717-724).", step: 100, nativeCeiling: 6553599));

        /// <summary>ZMTP heartbeat timeout (ZMQ_HEARTBEAT_TIMEOUT); 0 to int.MaxValue ms, not infinite (unset, libzmq uses the
        /// heartbeat interval and reads back infinite).</summary>
        public static readonly SocketOption<TimeSpan> HeartbeatTimeout = Define<TimeSpan>(77, nameof(HeartbeatTimeout), RW);

        /// <summary>XPUB: pass up unsubscriptions too (ZMQ_XPUB_VERBOSER).</summary>
        public static readonly SocketOption<bool> XPubVerboser = Define<bool>(78, nameof(XPubVerboser), W);

        /// <summary>TCP connect timeout, 0 for the OS default (ZMQ_CONNECT_TIMEOUT); 0 to int.MaxValue ms, not infinite.</summary>
        public static readonly SocketOption<TimeSpan> ConnectTimeout = Define<TimeSpan>(79, nameof(ConnectTimeout), RW);

        /// <summary>TCP_USER_TIMEOUT / maximum retransmit time (ZMQ_TCP_MAXRT); 0 (the OS default) to int.MaxValue ms, not
        /// infinite.</summary>
        public static readonly SocketOption<TimeSpan> TcpMaxRetransmitTimeout = Define<TimeSpan>(80, nameof(TcpMaxRetransmitTimeout), RW);

        /// <summary>Whether the socket type is thread-safe (ZMQ_THREAD_SAFE).</summary>
        public static readonly SocketOption<bool> ThreadSafe = Define<bool>(81, nameof(ThreadSafe), R);

        /// <summary>
        /// Multicast (PGM) maximum transport data unit in bytes (ZMQ_MULTICAST_MAXTPDU), 80 to 65535, and at most
        /// <see cref="Rate"/> × 1000 / 8. OpenPGM refuses more than 65535 (libzmq then aborts) and, measured with libzmq 4.3.4 and
        /// OpenPGM 5.3, crashes (segmentation fault, division by zero or buffer panic) below 80, where the headers leave no room
        /// for data.
        /// </summary>
        public static readonly SocketOption<int> MulticastMaxTpdu = Define<int>(84, nameof(MulticastMaxTpdu), RW,
            limits: OptionLimits.Range(80, 65535,
                "OpenPGM refuses TPDUs over 65535 bytes and libzmq then aborts (session_base.cpp:723/734); below 80 bytes OpenPGM crashes the process.",
                nativeFloor: 1),
            rule: SocketOptionRules.CheckMulticastMaxTpdu);

        /// <summary>VMCI buffer size (ZMQ_VMCI_BUFFER_SIZE).</summary>
        public static readonly SocketOption<ulong> VmciBufferSize = Define<ulong>(85, nameof(VmciBufferSize), W);

        /// <summary>VMCI minimum buffer size (ZMQ_VMCI_BUFFER_MIN_SIZE).</summary>
        public static readonly SocketOption<ulong> VmciBufferMinSize = Define<ulong>(86, nameof(VmciBufferMinSize), W);

        /// <summary>VMCI maximum buffer size (ZMQ_VMCI_BUFFER_MAX_SIZE).</summary>
        public static readonly SocketOption<ulong> VmciBufferMaxSize = Define<ulong>(87, nameof(VmciBufferMaxSize), W);

        /// <summary>VMCI connect timeout in milliseconds (ZMQ_VMCI_CONNECT_TIMEOUT).</summary>
        public static readonly SocketOption<int> VmciConnectTimeout = Define<int>(88, nameof(VmciConnectTimeout), W);

        /// <summary>
        /// A listening socket descriptor that the next Bind adopts instead of creating one (ZMQ_USE_FD); -1 (the default) for
        /// none. On Linux NetZeroMQ checks that the descriptor is an open stream socket of the IPv4, IPv6 or Unix family on which
        /// listen() was called: libzmq adds it to its poller and accepts on it without any check, and aborts the process when
        /// either fails. Bind with the matching transport (tcp:// for IPv4/IPv6, ipc:// for Unix); libzmq owns the descriptor
        /// from then on and closes it, so do not close it yourself (nor dispose a .NET <c>System.Net.Sockets.Socket</c> that
        /// owns it: its Dispose shuts the descriptor down, and libzmq's next accept then aborts), and do not Bind twice with
        /// the same descriptor (the second listener adopts it again and libzmq aborts).
        /// </summary>
        public static readonly SocketOption<int> UseFd = Define<int>(89, nameof(UseFd), RW,
            limits: OptionLimits.Range(-1, int.MaxValue, "libzmq's limit."), rule: SocketOptionRules.CheckUseFd);

        /// <summary>GSSAPI principal name type (ZMQ_GSSAPI_PRINCIPAL_NAMETYPE).</summary>
        public static readonly SocketOption<int> GssapiPrincipalNameType = Define<int>(90, nameof(GssapiPrincipalNameType), RW);

        /// <summary>GSSAPI service principal name type (ZMQ_GSSAPI_SERVICE_PRINCIPAL_NAMETYPE).</summary>
        public static readonly SocketOption<int> GssapiServicePrincipalNameType = Define<int>(91, nameof(GssapiServicePrincipalNameType), RW);

        /// <summary>Bind the socket's TCP/UDP sockets to a network device (ZMQ_BINDTODEVICE), an interface name of 1 to 15
        /// UTF-8 bytes. libzmq takes 16, but the kernel reads at most 15 (IFNAMSIZ - 1) and would use a cut name.</summary>
        public static readonly SocketOption<string> BindToDevice = Define<string>(92, nameof(BindToDevice), RW,
            limits: OptionLimits.Length(1, 15, "an interface name is at most IFNAMSIZ - 1 = 15 bytes; the kernel would cut a 16-byte one.", nativeMin: 1, nativeMax: 16));

        // Options 93 to 112 are in the draft section of libzmq's header. Measured with libzmq 4.3.4 (and read in its
        // options.cpp, router.cpp, xpub.cpp): most are compiled into every build; RouterNotify, InBatchSize, OutBatchSize,
        // HelloMessage, DisconnectMessage and Priority only into builds with the draft API (ZMQ_BUILD_DRAFT_API). Those are
        // defined with draftOnly: without the draft API they throw NotSupportedException naming the option, before libzmq
        // is called (libzmq would answer a bare EINVAL that looks like a bad value).

        /// <summary>Enforce the ZAP domain even with the NULL mechanism (ZMQ_ZAP_ENFORCE_DOMAIN; in libzmq's draft section,
        /// but every libzmq 4.3 build has it).</summary>
        public static readonly SocketOption<bool> ZapEnforceDomain = Define<bool>(93, nameof(ZapEnforceDomain), RW);

        /// <summary>Windows loopback fast path (ZMQ_LOOPBACK_FASTPATH; in libzmq's draft section, but every libzmq 4.3 build
        /// has it; it has an effect on Windows only).</summary>
        public static readonly SocketOption<bool> LoopbackFastPath = Define<bool>(94, nameof(LoopbackFastPath), RW);

        /// <summary>
        /// Application metadata sent to peers in the handshake (ZMQ_METADATA; in libzmq's draft section, but every libzmq 4.3
        /// build has it): <c>"X-name:value"</c>, a name starting with <c>X-</c> of at most 255 UTF-8 bytes, a colon and a
        /// non-empty value. Set it once per property, before Bind/Connect; a peer reads it on each message it receives from
        /// this socket with <see cref="Message.GetMetadata(string)"/> and the name. libzmq keeps the first value set for a name.
        /// The form is checked before libzmq is called (<see cref="ArgumentException"/> naming the option).
        /// </summary>
        public static readonly SocketOption<string> Metadata = Define<string>(95, nameof(Metadata), W);

        /// <summary>Multicast loopback for udp (ZMQ_MULTICAST_LOOP; in libzmq's draft section, but every libzmq 4.3 build has
        /// it).</summary>
        public static readonly SocketOption<bool> MulticastLoop = Define<bool>(96, nameof(MulticastLoop), RW);

        /// <summary>
        /// Draft API only: a ROUTER delivers an empty message from a peer when it connects, disconnects, or both
        /// (ZMQ_ROUTER_NOTIFY): 0 (the default, none), 1 (connect), 2 (disconnect) or 3 (both), the values of
        /// <see cref="RouterNotifications"/>. The message arrives like any other, as the peer's routing id frame and an empty
        /// frame. Only ROUTER sockets take it (libzmq refuses it elsewhere with <see cref="ZmqError.InvalidArgument"/>).
        /// </summary>
        public static readonly SocketOption<int> RouterNotify = Define<int>(97, nameof(RouterNotify), RW,
            limits: OptionLimits.Range(0, 3, "the only flags are connect (1) and disconnect (2).", nativeFloor: long.MinValue),
            draftOnly: true);

        /// <summary>
        /// XPUB manual mode that also sends the next message only to the subscriber whose subscription was received last
        /// (ZMQ_XPUB_MANUAL_LAST_VALUE; in libzmq's draft section, but every libzmq 4.3 build has it): after a receive of a
        /// subscription, the following send reaches that subscriber alone (a last-value cache), later sends every matching one.
        /// </summary>
        public static readonly SocketOption<bool> XPubManualLastValue = Define<bool>(98, nameof(XPubManualLastValue), W);

        /// <summary>SOCKS5 user name for <see cref="SocksProxy"/> (ZMQ_SOCKS_USERNAME; in libzmq's draft section, but every
        /// libzmq 4.3 build has it), 0 (none) to 255 UTF-8 bytes. When set, the connection offers only the user name/password
        /// method (RFC 1929) to the proxy.</summary>
        public static readonly SocketOption<string> SocksUsername = Define<string>(99, nameof(SocksUsername), RW, limits: Limit255OrEmpty);

        /// <summary>SOCKS5 password for <see cref="SocksProxy"/> (ZMQ_SOCKS_PASSWORD; as <see cref="SocksUsername"/>), 0 (none)
        /// to 255 UTF-8 bytes.</summary>
        public static readonly SocketOption<string> SocksPassword = Define<string>(100, nameof(SocksPassword), RW, limits: Limit255OrEmpty);

        /// <summary>Draft API only: the receive batch size in bytes (ZMQ_IN_BATCH_SIZE), 2 to int.MaxValue (default 8192);
        /// libzmq allocates that much per connection. libzmq 4.3.4 accepts 1, but its decoder then crashes the process when
        /// the first connection is made (measured), so 1 is refused.</summary>
        public static readonly SocketOption<int> InBatchSize = Define<int>(101, nameof(InBatchSize), RW,
            limits: InBatchSizeLimits, draftOnly: true);

        /// <summary>Draft API only: the send batch size in bytes (ZMQ_OUT_BATCH_SIZE), 1 to int.MaxValue (default 8192);
        /// libzmq allocates that much per connection.</summary>
        public static readonly SocketOption<int> OutBatchSize = Define<int>(102, nameof(OutBatchSize), RW,
            limits: OutBatchSizeLimits, draftOnly: true);

        /// <summary>XPUB/XSUB process only the first frame's subscription (ZMQ_ONLY_FIRST_SUBSCRIBE; in libzmq's draft
        /// section, but every libzmq 4.3.4 build has it on XPUB and XSUB).</summary>
        public static readonly SocketOption<bool> OnlyFirstSubscribe = Define<bool>(108, nameof(OnlyFirstSubscribe), W);

        /// <summary>Stop reconnecting on these conditions (ZMQ_RECONNECT_STOP; in libzmq's draft section, but every libzmq
        /// 4.3.4 build has it).</summary>
        public static readonly SocketOption<int> ReconnectStop = Define<int>(109, nameof(ReconnectStop), RW);

        /// <summary>Draft API only: message sent to each new peer (ZMQ_HELLO_MSG).</summary>
        public static readonly SocketOption<byte[]> HelloMessage = Define<byte[]>(110, nameof(HelloMessage), W, draftOnly: true);

        /// <summary>Draft API only: message delivered when a peer disconnects (ZMQ_DISCONNECT_MSG).</summary>
        public static readonly SocketOption<byte[]> DisconnectMessage = Define<byte[]>(111, nameof(DisconnectMessage), W, draftOnly: true);

        /// <summary>Draft API only: SO_PRIORITY of the socket's TCP connections (ZMQ_PRIORITY), 0 to 6. Linux needs
        /// CAP_NET_ADMIN for higher values, and libzmq aborts the process when the kernel refuses.</summary>
        public static readonly SocketOption<int> Priority = Define<int>(112, nameof(Priority), RW,
            limits: OptionLimits.Range(0, 6, "Linux refuses SO_PRIORITY above 6 without CAP_NET_ADMIN and libzmq then aborts (ip.cpp:239)."),
            draftOnly: true);

#pragma warning restore SA1600, CS1591

        /// <summary>What the raw escape hatch checks a known option against.</summary>
        internal readonly struct OptionInfo
        {
            internal OptionInfo(
                string name, Type valueType, OptionAccess access, int fixedLength, OptionLimits? limits, Action<Socket, long>? rule, bool draftOnly)
            {
                DraftOnly = draftOnly;
                Name = name;
                ValueType = valueType;
                Access = access;
                FixedLength = fixedLength;
                Limits = limits;
                Rule = rule;
            }

            /// <summary>Whether libzmq has the option only in builds with the draft API.</summary>
            internal bool DraftOnly { get; }

            /// <summary>The values (or, for strings and binary options, byte counts) the option takes, when it has limits.</summary>
            internal OptionLimits? Limits { get; }

            /// <summary>A check that needs the socket (the descriptor behind UseFd, the PGM options that limit each other).</summary>
            internal Action<Socket, long>? Rule { get; }

            /// <summary>
            /// The largest value the option can hold, in bytes with the terminating NUL: how far a read may grow its buffer.
            /// Unlimited for known strings without a limit (the endpoint, the SOCKS proxy address).
            /// </summary>
            internal int MaxReadBytes =>
                ValueType != typeof(string) && ValueType != typeof(byte[]) ? 0
                : Limits is { Unit: " bytes" } ? (int)Math.Min(Limits.Max, int.MaxValue - 1) + 1
                : int.MaxValue;

            internal string Name { get; }

            internal Type ValueType { get; }

            internal OptionAccess Access { get; }

            internal int FixedLength { get; }

            /// <summary>The exact native size for numeric options, or 0 for variable-length ones.</summary>
            internal int NativeSize =>
                ValueType == typeof(long) || ValueType == typeof(ulong) ? 8
                : ValueType == typeof(int) || ValueType == typeof(bool) || ValueType == typeof(TimeSpan) ? 4
                : 0;
        }

        /// <summary>Every option this class lists, by number.</summary>
        internal static IReadOnlyDictionary<int, OptionInfo> ById => s_byId;

        /// <summary>
        /// Checks a value before it goes to libzmq (<paramref name="value"/> is the integer, milliseconds or byte count): the
        /// option's limits, then its rule. Options this class does not list are not checked. The one place every setter, typed
        /// or raw, passes through.
        /// </summary>
        /// <exception cref="ArgumentOutOfRangeException">The value is outside what libzmq can take; the message names the
        /// option and the allowed values.</exception>
        internal static void ThrowIfNotAllowed(Socket socket, int id, long value, string paramName)
        {
            if (!s_byId.TryGetValue(id, out OptionInfo info))
            {
                return;
            }

            if (info.Limits is { } limits)
            {
                if (limits.IsNativelyRefused(value))
                {
                    return; // libzmq refuses it itself, with the error callers already handle
                }

                limits.ThrowIfNotAllowed("Socket option", info.Name, value, paramName);
            }

            info.Rule?.Invoke(socket, value);
        }

        /// <summary>
        /// The raw path's check of what the typed overloads cannot even express: a time option takes -1 (infinite) or 0 and
        /// more milliseconds (a <see cref="TimeSpan"/> setter refuses any other negative value), a flag takes 0 or 1 (a
        /// <see cref="bool"/> setter sends nothing else). Without it a negative Linger reached libzmq as a bare EINVAL.
        /// </summary>
        /// <exception cref="ArgumentOutOfRangeException">The value is one the typed overload refuses or cannot send.</exception>
        internal static void ThrowIfNotTypedValue(OptionInfo info, long value, string paramName)
        {
            if (info.ValueType == typeof(TimeSpan) && value < Milliseconds.Infinite)
            {
                throw new ArgumentOutOfRangeException(
                    paramName, value, "Socket option " + info.Name + " takes -1 (infinite) or 0 to int.MaxValue ms, not " + value + " ms.");
            }

            if (info.ValueType == typeof(bool) && value is not (0 or 1))
            {
                throw new ArgumentOutOfRangeException(
                    paramName, value, "Socket option " + info.Name + " is a flag: it takes 0 (off) or 1 (on), not " + value + ".");
            }
        }

        /// <summary>
        /// Throws <see cref="NotSupportedException"/> naming the option when the loaded libzmq lacks it: an option newer than
        /// the loaded version (<see cref="LibzmqVersions.OptionSince"/>), one that exists only in libzmq's draft API, or a CURVE
        /// option where libzmq was built without CURVE (<see cref="PlatformNotSupportedException"/>). Every
        /// getter and setter, typed or raw, passes here before the native call.
        /// </summary>
        internal static void ThrowIfDraftMissing(int id)
        {
            // CurveServer, CurvePublicKey, CurveSecretKey, CurveServerKey: libzmq without CURVE answers them with a bare EINVAL.
            if ((uint)(id - FirstCurve) <= LastCurve - FirstCurve)
            {
                Libzmq.ThrowIfNoCurve();
            }

            // A draft-only option on a build without the draft API says that first (the version would not be enough).
            if (id >= FirstDraftOnly && s_byId.TryGetValue(id, out OptionInfo info) && info.DraftOnly)
            {
                DraftRequirement.ThrowIfMissing("Socket option " + info.Name);
            }

            if (id >= FirstVersioned || id == ReqRelaxedId)
            {
                ThrowIfNewerThanLoaded(id);
            }
        }

        private static void ThrowIfNewerThanLoaded(int id)
        {
            string name = s_byId.TryGetValue(id, out OptionInfo info) ? info.Name : id.ToString(System.Globalization.CultureInfo.InvariantCulture);
            if (LibzmqVersions.OptionRefusal(id, name, Libzmq.Version) is { } refusal)
            {
                throw refusal;
            }
        }

        /// <summary>ZMQ_CURVE_SERVER and ZMQ_CURVE_SERVERKEY: the CURVE options, which need a libzmq built with CURVE.</summary>
        private const int FirstCurve = 47;
        private const int LastCurve = 50;

        /// <summary>The lowest option number that some supported libzmq lacks (ZMQ_BLOCKY's neighbours, added in 4.2).</summary>
        private const int FirstVersioned = 70;

        /// <summary>ZMQ_REQ_RELAXED: older than every supported libzmq, but refused on 4.1, where it hangs the REQ
        /// (<see cref="LibzmqVersions.OptionSince"/>).</summary>
        private const int ReqRelaxedId = 53;

        /// <summary>The lowest number of a draft-only option: the check above costs one comparison for all the others.</summary>
        private const int FirstDraftOnly = 97;

        private static SocketOption<T> Define<T>(
            int id, string name, OptionAccess access, int fixedLength = 0, OptionLimits? limits = null, Action<Socket, long>? rule = null,
            bool draftOnly = false)
        {
            System.Diagnostics.Debug.Assert(!draftOnly || id >= FirstDraftOnly, "FirstDraftOnly must stay the lowest draft-only number");
            s_byId.Add(id, new OptionInfo(name, typeof(T), access, fixedLength, limits, rule, draftOnly));
            return new SocketOption<T>(id, name, access, fixedLength);
        }
    }
}
