namespace NetZeroMQ
{
    /// <summary>
    /// Why a handshake failed, for <see cref="MonitorEvents.HandshakeFailedProtocol"/> (<c>ZMQ_PROTOCOL_ERROR_*</c>).
    /// See <see href="http://api.zeromq.org/4-3:zmq-socket-monitor">zmq_socket_monitor</see>.
    /// </summary>
    public enum ProtocolError : uint
    {
        /// <summary>Unspecified ZMTP error.</summary>
        ZmtpUnspecified = 0x10000000,

        /// <summary>An unexpected ZMTP command.</summary>
        ZmtpUnexpectedCommand = 0x10000001,

        /// <summary>An invalid sequence number.</summary>
        ZmtpInvalidSequence = 0x10000002,

        /// <summary>The key exchange failed.</summary>
        ZmtpKeyExchange = 0x10000003,

        /// <summary>A malformed command, unspecified.</summary>
        ZmtpMalformedCommandUnspecified = 0x10000011,

        /// <summary>A malformed MESSAGE command.</summary>
        ZmtpMalformedCommandMessage = 0x10000012,

        /// <summary>A malformed HELLO command.</summary>
        ZmtpMalformedCommandHello = 0x10000013,

        /// <summary>A malformed INITIATE command.</summary>
        ZmtpMalformedCommandInitiate = 0x10000014,

        /// <summary>A malformed ERROR command.</summary>
        ZmtpMalformedCommandError = 0x10000015,

        /// <summary>A malformed READY command.</summary>
        ZmtpMalformedCommandReady = 0x10000016,

        /// <summary>A malformed WELCOME command.</summary>
        ZmtpMalformedCommandWelcome = 0x10000017,

        /// <summary>Invalid metadata.</summary>
        ZmtpInvalidMetadata = 0x10000018,

        /// <summary>A cryptographic error (for CURVE, typically a wrong server key).</summary>
        ZmtpCryptographic = 0x11000001,

        /// <summary>The peers use different security mechanisms.</summary>
        ZmtpMechanismMismatch = 0x11000002,

        /// <summary>Unspecified ZAP error.</summary>
        ZapUnspecified = 0x20000000,

        /// <summary>A malformed ZAP reply.</summary>
        ZapMalformedReply = 0x20000001,

        /// <summary>A ZAP reply with a wrong request id.</summary>
        ZapBadRequestId = 0x20000002,

        /// <summary>A ZAP reply with a wrong version.</summary>
        ZapBadVersion = 0x20000003,

        /// <summary>A ZAP reply with an invalid status code.</summary>
        ZapInvalidStatusCode = 0x20000004,

        /// <summary>A ZAP reply with invalid metadata.</summary>
        ZapInvalidMetadata = 0x20000005,

        /// <summary>Unspecified WebSocket error.</summary>
        WsUnspecified = 0x30000000,
    }
}
