using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    /// <summary>
    /// Maps this platform's errno numbers to <see cref="ZmqError"/>. The numbers differ per C library (EAGAIN is 11 on Linux and
    /// Windows, 35 on macOS), so the table is chosen at start-up; codes libzmq defines itself (EFSM, ETERM, ...) are offsets from
    /// ZMQ_HAUSNUMERO everywhere, as are the POSIX codes a platform lacks.
    /// </summary>
    internal static class ErrorMap
    {
        private const int Hausnumero = 156384712;

        private static readonly Dictionary<int, ZmqError> s_map = Build();

        /// <summary>This platform's EAGAIN, compared on hot paths without a dictionary look-up.</summary>
        internal static readonly int EAGAIN = NativeOf(ZmqError.TryAgain);

        /// <summary>This platform's EINTR.</summary>
        internal static readonly int EINTR = NativeOf(ZmqError.Interrupted);

        /// <summary>ETERM (libzmq's own code).</summary>
        internal const int ETERM = Hausnumero + 53;

        /// <summary>
        /// How a message shows <paramref name="nativeErrno"/>: "errno 22" for the platform's codes, the C name for libzmq's own
        /// (its EFSM is 156384763, a number that reads like garbage; "EFSM" is what its documentation and every search use).
        /// </summary>
        internal static string Describe(int nativeErrno) => (nativeErrno - Hausnumero) switch
        {
            1 => "ENOTSUP",
            2 => "EPROTONOSUPPORT",
            3 => "ENOBUFS",
            4 => "ENETDOWN",
            5 => "EADDRINUSE",
            6 => "EADDRNOTAVAIL",
            7 => "ECONNREFUSED",
            8 => "EINPROGRESS",
            9 => "ENOTSOCK",
            10 => "EMSGSIZE",
            11 => "EAFNOSUPPORT",
            12 => "ENETUNREACH",
            13 => "ECONNABORTED",
            14 => "ECONNRESET",
            15 => "ENOTCONN",
            16 => "ETIMEDOUT",
            17 => "EHOSTUNREACH",
            18 => "ENETRESET",
            51 => "EFSM",
            52 => "ENOCOMPATPROTO",
            53 => "ETERM",
            54 => "EMTHREAD",
            _ => "errno " + nativeErrno.ToString(System.Globalization.CultureInfo.InvariantCulture),
        };

        internal static ZmqError ToPortable(int nativeErrno) =>
            s_map.TryGetValue(nativeErrno, out ZmqError error) ? error : ZmqError.Unknown;

        private static int NativeOf(ZmqError error)
        {
            foreach (KeyValuePair<int, ZmqError> pair in s_map)
            {
                if (pair.Value == error && pair.Key < Hausnumero)
                {
                    return pair.Key;
                }
            }

            return -1;
        }

        private static Dictionary<int, ZmqError> Build()
        {
            var map = new Dictionary<int, ZmqError>
            {
                // libzmq's own codes and its stand-ins for POSIX codes the platform lacks (zmq.h).
                [Hausnumero + 1] = ZmqError.NotSupported,
                [Hausnumero + 2] = ZmqError.ProtocolNotSupported,
                [Hausnumero + 3] = ZmqError.NoBufferSpace,
                [Hausnumero + 4] = ZmqError.NetworkDown,
                [Hausnumero + 5] = ZmqError.AddressInUse,
                [Hausnumero + 6] = ZmqError.AddressNotAvailable,
                [Hausnumero + 7] = ZmqError.ConnectionRefused,
                [Hausnumero + 8] = ZmqError.InProgress,
                [Hausnumero + 9] = ZmqError.NotSocket,
                [Hausnumero + 10] = ZmqError.MessageTooLarge,
                [Hausnumero + 11] = ZmqError.AddressFamilyNotSupported,
                [Hausnumero + 12] = ZmqError.NetworkUnreachable,
                [Hausnumero + 13] = ZmqError.ConnectionAborted,
                [Hausnumero + 14] = ZmqError.ConnectionReset,
                [Hausnumero + 15] = ZmqError.NotConnected,
                [Hausnumero + 16] = ZmqError.TimedOut,
                [Hausnumero + 17] = ZmqError.HostUnreachable,
                [Hausnumero + 18] = ZmqError.NetworkReset,
                [Hausnumero + 51] = ZmqError.InvalidState,
                [Hausnumero + 52] = ZmqError.IncompatibleProtocol,
                [Hausnumero + 53] = ZmqError.ContextTerminated,
                [Hausnumero + 54] = ZmqError.NoIOThread,

                // The classic C codes share their numbers on Linux, macOS/BSD and the Windows CRT.
                [2] = ZmqError.EndpointNotFound,
                [4] = ZmqError.Interrupted,
                [12] = ZmqError.OutOfMemory,
                [13] = ZmqError.AccessDenied,
                [14] = ZmqError.Fault,
                [19] = ZmqError.NoDevice,
                [22] = ZmqError.InvalidArgument,
                [24] = ZmqError.TooManyOpenFiles,
            };

            if (RuntimeInformation.IsOSPlatform(OSPlatform.Windows))
            {
                // MSVC CRT <errno.h> (the POSIX supplement values).
                Add(map, (11, ZmqError.TryAgain), (38, ZmqError.NameTooLong), (100, ZmqError.AddressInUse),
                    (101, ZmqError.AddressNotAvailable), (102, ZmqError.AddressFamilyNotSupported), (106, ZmqError.ConnectionAborted),
                    (107, ZmqError.ConnectionRefused), (108, ZmqError.ConnectionReset), (110, ZmqError.HostUnreachable),
                    (112, ZmqError.InProgress), (115, ZmqError.MessageTooLarge), (116, ZmqError.NetworkDown),
                    (117, ZmqError.NetworkReset), (118, ZmqError.NetworkUnreachable), (119, ZmqError.NoBufferSpace),
                    (126, ZmqError.NotConnected), (128, ZmqError.NotSocket), (129, ZmqError.NotSupported),
                    (135, ZmqError.ProtocolNotSupported), (138, ZmqError.TimedOut));
            }
            else if (RuntimeInformation.IsOSPlatform(OSPlatform.Linux))
            {
                Add(map, (11, ZmqError.TryAgain), (36, ZmqError.NameTooLong), (88, ZmqError.NotSocket), (90, ZmqError.MessageTooLarge),
                    (93, ZmqError.ProtocolNotSupported), (95, ZmqError.NotSupported), (97, ZmqError.AddressFamilyNotSupported),
                    (98, ZmqError.AddressInUse), (99, ZmqError.AddressNotAvailable), (100, ZmqError.NetworkDown),
                    (101, ZmqError.NetworkUnreachable), (102, ZmqError.NetworkReset), (103, ZmqError.ConnectionAborted),
                    (104, ZmqError.ConnectionReset), (105, ZmqError.NoBufferSpace), (107, ZmqError.NotConnected),
                    (110, ZmqError.TimedOut), (111, ZmqError.ConnectionRefused), (113, ZmqError.HostUnreachable),
                    (115, ZmqError.InProgress));
            }
            else
            {
                // macOS and the BSDs.
                Add(map, (35, ZmqError.TryAgain), (36, ZmqError.InProgress), (38, ZmqError.NotSocket), (40, ZmqError.MessageTooLarge),
                    (43, ZmqError.ProtocolNotSupported), (45, ZmqError.NotSupported), (47, ZmqError.AddressFamilyNotSupported),
                    (48, ZmqError.AddressInUse), (49, ZmqError.AddressNotAvailable), (50, ZmqError.NetworkDown),
                    (51, ZmqError.NetworkUnreachable), (52, ZmqError.NetworkReset), (53, ZmqError.ConnectionAborted),
                    (54, ZmqError.ConnectionReset), (55, ZmqError.NoBufferSpace), (57, ZmqError.NotConnected),
                    (60, ZmqError.TimedOut), (61, ZmqError.ConnectionRefused), (63, ZmqError.NameTooLong),
                    (65, ZmqError.HostUnreachable));
            }

            return map;
        }

        private static void Add(Dictionary<int, ZmqError> map, params (int Native, ZmqError Error)[] entries)
        {
            foreach ((int native, ZmqError error) in entries)
            {
                map[native] = error;
            }
        }
    }
}
