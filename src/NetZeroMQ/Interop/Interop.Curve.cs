using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    internal static unsafe partial class Interop
    {
        internal static unsafe partial class Zmq
        {
            /// <summary>Writes a new CURVE key pair as two 40-character Z85 strings plus NUL (41-byte buffers); -1 (ENOTSUP) without CURVE.</summary>
            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_curve_keypair(byte* z85PublicKey, byte* z85SecretKey);

            /// <summary>Derives the Z85 public key (41-byte buffer) from a NUL-terminated Z85 secret key; -1 (ENOTSUP) without CURVE.</summary>
            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern int zmq_curve_public(byte* z85PublicKey, byte* z85SecretKey);

            /// <summary>Encodes size bytes (a multiple of 4) as NUL-terminated Z85 into dest (size * 5 / 4 + 1 bytes); returns dest or null.</summary>
            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern byte* zmq_z85_encode(byte* dest, byte* data, nuint size);

            /// <summary>Decodes a NUL-terminated Z85 string (length a multiple of 5) into dest; returns dest or null.</summary>
            [DllImport(Libraries.Zmq, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
            internal static extern byte* zmq_z85_decode(byte* dest, byte* z85);
        }
    }
}
