using System;
using System.Globalization;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    /// <summary>
    /// The socket option checks that a range alone cannot express: limits that depend on the operating system, on another
    /// option of the same socket, or on what a descriptor is. Each one prevents a process abort or a silent misbehaviour
    /// that libzmq 4.3 would otherwise produce later, at Bind/Connect or on the I/O thread (see each member).
    /// </summary>
    internal static unsafe class SocketOptionRules
    {
        /// <summary>
        /// ZMQ_RATE: libzmq refuses 0 and below; pgm_socket.cpp:238 computes <c>rate * 1000</c> in an <c>int</c>, which
        /// overflows above 2147483 kbit/s.
        /// </summary>
        internal static readonly OptionLimits RateLimits = OptionLimits.Range(
            1, int.MaxValue / 1000, "libzmq computes the rate in bytes per second in an int (pgm_socket.cpp:238), which overflows above 2147483.");

        private static readonly bool s_linux = RuntimeInformation.IsOSPlatform(OSPlatform.Linux);

        /// <summary>
        /// The TCP keep-alive tunings: -1 (the OS default) or what the kernel takes. libzmq accepts 0 and up, but on Linux
        /// TCP_KEEPCNT takes 1..127 and TCP_KEEPIDLE/TCP_KEEPINTVL 1..32767; for anything else setsockopt fails with EINVAL, and
        /// libzmq then closes every connection of the socket as it is made (tcp.cpp:127-175 reports the failure,
        /// tcp_listener.cpp:82-90 and tcp_connecter.cpp:308 drop the connection): the socket never connects, silently.
        /// Elsewhere the limits are libzmq's.
        /// </summary>
        internal static OptionLimits KeepaliveLimits(int linuxMax) =>
            s_linux
                ? OptionLimits.Range(1, linuxMax, "Linux refuses other values, and libzmq then drops every TCP connection of the socket, silently.", alsoAllowed: -1)
                : OptionLimits.Range(0, int.MaxValue, "libzmq's limit.", alsoAllowed: -1);

        /// <summary>
        /// ZMQ_USE_FD (Linux): libzmq's listener adopts the descriptor as it is (tcp_listener.cpp:174-177,
        /// ipc_listener.cpp:147-148), adds it to epoll (an unopened descriptor or a regular file aborts at epoll.cpp:100) and
        /// accepts on it (a socket that is not listening aborts at tcp_listener.cpp:223 / ipc_listener.cpp:325; a pipe or a
        /// datagram socket hangs or never accepts). So the value must be -1 or an open stream socket of a family libzmq's
        /// listeners handle, on which listen() was called.
        /// </summary>
        internal static void CheckUseFd(Socket socket, long value)
        {
            if (value == -1 || !s_linux)
            {
                return; // elsewhere the descriptor is not checked (values below -1 never get here: libzmq refuses them)
            }

            int fd = (int)value;
            string? problem = DescribeListeningSocket(fd);
            if (problem is not null)
            {
                throw new ArgumentOutOfRangeException(
                    "value",
                    value,
                    "Socket option UseFd takes -1 or a listening stream socket (IPv4, IPv6 or Unix, listen() called); descriptor " +
                    fd.ToString(CultureInfo.InvariantCulture) + " " + problem + ". libzmq would abort the process at Bind.");
            }
        }

        /// <summary>
        /// ZMQ_RATE, ZMQ_RECOVERY_IVL and ZMQ_MULTICAST_MAXTPDU limit each other on a PGM socket; a combination outside the
        /// limits aborts the process when the socket connects (OpenPGM's assertion rate_control.c:45, or libzmq's
        /// errno_assert at session_base.cpp:723/734 when OpenPGM refuses the window). Each is checked against the socket's
        /// current values of the other two, so the order of setting matters: the message says which to change first.
        /// </summary>
        internal static void CheckRate(Socket socket, long value) =>
            CheckPgm(nameof(SocketOptions.Rate), value, RecoveryMs(socket), Tpdu(socket), value);

        /// <summary>See <see cref="CheckRate"/>.</summary>
        internal static void CheckRecoveryInterval(Socket socket, long value) =>
            CheckPgm(nameof(SocketOptions.RecoveryInterval), socket.GetOption(SocketOptions.Rate), value, Tpdu(socket), value);

        /// <summary>See <see cref="CheckRate"/>.</summary>
        internal static void CheckMulticastMaxTpdu(Socket socket, long value) =>
            CheckPgm(nameof(SocketOptions.MulticastMaxTpdu), socket.GetOption(SocketOptions.Rate), RecoveryMs(socket), value, value);

        /// <summary>
        /// The socket's PGM TPDU: ZMQ_MULTICAST_MAXTPDU where the loaded libzmq has it (4.2 and later), else libzmq 4.1's fixed
        /// <c>pgm_max_tpdu</c> (1500, config.hpp), so that Rate and RecoveryInterval are checked, not refused, on 4.1.
        /// </summary>
        private static long Tpdu(Socket socket) =>
            LibzmqVersions.HasOption(SocketOptions.MulticastMaxTpdu.Id, Libzmq.Version) ? socket.GetOption(SocketOptions.MulticastMaxTpdu) : 1500;

        private static long RecoveryMs(Socket socket) => (long)socket.GetOption(SocketOptions.RecoveryInterval).TotalMilliseconds;

        private static void CheckPgm(string option, long rateKbits, long recoveryMs, long tpdu, long value)
        {
            // OpenPGM asserts that one TPDU fits in one second's rate (rate_control.c:45: rate_per_sec >= max_tpdu), the
            // rate being rate * 1000 / 8 bytes per second (pgm_socket.cpp:238).
            long bytesPerSecond = rateKbits * 1000 / 8;
            if (bytesPerSecond < tpdu)
            {
                throw new ArgumentOutOfRangeException(
                    "value",
                    value,
                    "Socket option " + option + ": Rate " + rateKbits.ToString(CultureInfo.InvariantCulture) + " kbit/s is " +
                    bytesPerSecond.ToString(CultureInfo.InvariantCulture) + " bytes/s, less than MulticastMaxTpdu " +
                    tpdu.ToString(CultureInfo.InvariantCulture) + " bytes; OpenPGM asserts that a TPDU fits in one second's rate " +
                    "and would abort the process. Rate must be at least MulticastMaxTpdu × 8 / 1000 (set the larger Rate, or the " +
                    "smaller MulticastMaxTpdu, first).");
            }

            // pgm_socket.cpp:672-685 (compute_sqns): packets in the window = recovery × rate / 8 / tpdu, cast to int; OpenPGM
            // refuses a window of (2^32 / 2) - 1 packets or more, and libzmq then aborts.
            ulong packets = (ulong)recoveryMs * (ulong)(rateKbits / 8) / (ulong)tpdu;
            const ulong MaxPackets = (uint.MaxValue / 2) - 2;
            if (packets > MaxPackets)
            {
                throw new ArgumentOutOfRangeException(
                    "value",
                    value,
                    "Socket option " + option + ": RecoveryInterval × Rate / 8 / MulticastMaxTpdu = " +
                    packets.ToString(CultureInfo.InvariantCulture) + " packets, more than the PGM window holds (" +
                    MaxPackets.ToString(CultureInfo.InvariantCulture) + "); libzmq would abort the process when the socket connects.");
            }
        }

        /// <summary>
        /// ZMQ_METADATA: libzmq takes <c>"X-name:value"</c>, the name being what comes before the first colon, starting with
        /// "X-" and at most 255 bytes, the value not empty (options.cpp:766-783), and answers anything else with a bare EINVAL.
        /// The form is checked here so that the exception says what is wrong. A NUL would end the value a peer reads
        /// (zmq_msg_gets returns a C string), so it is refused as well.
        /// </summary>
        internal static void CheckMetadata(int option, ReadOnlySpan<byte> value)
        {
            if (option != SocketOptions.Metadata.Id)
            {
                return;
            }

            int colon = value.IndexOf((byte)':');
            string? problem =
                colon < 0 ? "has no colon"
                : colon == 0 ? "has no name before the colon"
                : colon == value.Length - 1 ? "has no value after the colon"
                : colon < 2 || value[0] != (byte)'X' || value[1] != (byte)'-' ? "has a name that does not start with \"X-\""
                : colon > 255 ? "has a name of " + colon.ToString(CultureInfo.InvariantCulture) + " bytes"
                : value.IndexOf((byte)0) >= 0 ? "contains a NUL character"
                : null;
            if (problem is not null)
            {
                throw new ArgumentException(
                    "Socket option " + nameof(SocketOptions.Metadata) + " takes \"X-name:value\" (a name starting with \"X-\" of at most " +
                    "255 UTF-8 bytes, a colon, a value that is not empty); this one " + problem + ".",
                    "value");
            }
        }

        /// <summary>Null when <paramref name="fd"/> is a listening stream socket libzmq can adopt, else what it is instead.</summary>
        private static string? DescribeListeningSocket(int fd)
        {
            if (fd < 0)
            {
                return "is not a descriptor";
            }

            int type = GetSocketInt(fd, Interop.Libc.SO_TYPE, out int error);
            if (error != 0)
            {
                return error == Interop.Libc.EBADF ? "is not open"
                    : error == Interop.Libc.ENOTSOCK ? "is not a socket"
                    : "cannot be inspected (errno " + error.ToString(CultureInfo.InvariantCulture) + ")";
            }

            if (type != Interop.Libc.SOCK_STREAM)
            {
                return "is not a stream socket (type " + type.ToString(CultureInfo.InvariantCulture) + ")";
            }

            int family = GetSocketInt(fd, Interop.Libc.SO_DOMAIN, out error);
            if (error == 0 && family != Interop.Libc.AF_INET && family != Interop.Libc.AF_INET6 && family != Interop.Libc.AF_UNIX)
            {
                return "is of address family " + family.ToString(CultureInfo.InvariantCulture) + ", not IPv4, IPv6 or Unix";
            }

            int listening = GetSocketInt(fd, Interop.Libc.SO_ACCEPTCONN, out error);
            if (error == 0 && listening == 0)
            {
                return "is not listening (call bind() and listen() on it first)";
            }

            return null;
        }

        private static int GetSocketInt(int fd, int option, out int error)
        {
            int value = 0;
            uint length = sizeof(int);
            if (Interop.Libc.getsockopt(fd, Interop.Libc.SOL_SOCKET, option, &value, &length) != 0)
            {
#if NET
                error = Marshal.GetLastPInvokeError();
#else
                error = Marshal.GetLastWin32Error();
#endif
                return 0;
            }

            error = 0;
            return value;
        }
    }
}
