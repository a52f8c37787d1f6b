using System;

namespace NetZeroMQ.Tests.Monitoring
{
    /// <summary>CURVE key pairs for tests, from libzmq's own zmq_curve_keypair (binary 32-byte keys).</summary>
    internal static unsafe class CurveTestKeys
    {
        internal static (byte[] PublicKey, byte[] SecretKey) NewPair()
        {
            byte* z85Public = stackalloc byte[41];
            byte* z85Secret = stackalloc byte[41];
            if (Interop.Zmq.zmq_curve_keypair(z85Public, z85Secret) != 0)
            {
                throw new InvalidOperationException("zmq_curve_keypair failed: this libzmq has no CURVE.");
            }

            return (Decode(z85Public), Decode(z85Secret));
        }

        private static byte[] Decode(byte* z85)
        {
            var key = new byte[32];
            fixed (byte* p = key)
            {
                if (Interop.Zmq.zmq_z85_decode(p, z85) == null)
                {
                    throw new InvalidOperationException("zmq_z85_decode failed.");
                }
            }

            return key;
        }
    }
}
