using System;
using System.Diagnostics;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// A CURVE key pair: a <see cref="CurveKey"/> public key and a 32-byte secret key that never leaves this object unless asked
    /// for by name (<see cref="CopySecretKeyTo(Span{byte})"/>, <see cref="SecretKeyToZ85"/>). Give it to
    /// <see cref="SocketSecurityExtensions.SetCurveServer(Socket, CurveKeyPair, string)"/> or
    /// <see cref="SocketSecurityExtensions.SetCurveClient(Socket, CurveKeyPair, CurveKey)"/>.
    /// See <see href="http://api.zeromq.org/4-3:zmq-curve">zmq_curve</see>.
    /// </summary>
    /// <remarks>
    /// <para><b>Secrets.</b> The secret key appears in no <see cref="ToString"/>, debugger display or exception message.
    /// <see cref="Dispose"/> overwrites it with zeros (<c>CryptographicOperations.ZeroMemory</c> on .NET 8+), and every buffer
    /// this class uses on the way (Z85 text given to libzmq) is cleared before the call returns. A secret that was ever a
    /// .NET <see cref="string"/> (the argument of <see cref="FromSecretKey(string)"/>, the result of <see cref="SecretKeyToZ85"/>)
    /// cannot be cleared: prefer the byte forms where that matters. libzmq keeps its own copy of a key set on a socket until the
    /// socket is closed.</para>
    /// <para><b>Threading.</b> Reading from several threads is safe; disposing while another thread sets the pair on a socket
    /// is not (that thread may see a cleared key, or <see cref="ObjectDisposedException"/>).</para>
    /// </remarks>
    [DebuggerDisplay("{ToString(),nq}")]
    public sealed unsafe class CurveKeyPair : IDisposable
    {
        private readonly byte[] _secretKey;
        private int _disposed;

        private CurveKeyPair(CurveKey publicKey, byte[] secretKey)
        {
            PublicKey = publicKey;
            _secretKey = secretKey;
        }

        /// <summary>The public key, to give to peers (a client's goes to the server's authenticator, a server's to its clients).</summary>
        public CurveKey PublicKey { get; }

        /// <summary>Whether <see cref="Dispose"/> has been called (the secret key is then zeros and can no longer be read).</summary>
        public bool IsDisposed => Volatile.Read(ref _disposed) != 0;

        /// <summary>Generates a new key pair with libzmq (<c>zmq_curve_keypair</c>, libsodium's random generator).
        /// See <see href="http://api.zeromq.org/4-3:zmq-curve-keypair">zmq_curve_keypair</see>.</summary>
        /// <returns>The pair, owned by the caller (dispose it to clear the secret key).</returns>
        /// <exception cref="PlatformNotSupportedException">The loaded libzmq was built without CURVE (<c>zmq_has("curve")</c> is false).</exception>
        public static CurveKeyPair Generate()
        {
            Libzmq.ThrowIfNoCurve();
            byte* publicText = stackalloc byte[CurveKey.Z85Length + 1];
            byte* secretText = stackalloc byte[CurveKey.Z85Length + 1];
            var secret = new byte[CurveKey.Size];
            var publicBytes = new byte[CurveKey.Size];
            try
            {
                if (Interop.Zmq.zmq_curve_keypair(publicText, secretText) != 0
                    || DecodeInto(publicBytes, publicText) == null
                    || DecodeInto(secret, secretText) == null)
                {
                    SecretMemory.Clear(secret);
                    throw new PlatformNotSupportedException("zmq_curve_keypair failed: this libzmq cannot make CURVE keys.");
                }

                return new CurveKeyPair(CurveKey.FromBytes(publicBytes), secret);
            }
            finally
            {
                SecretMemory.Clear(new Span<byte>(secretText, CurveKey.Z85Length + 1));
            }
        }

        /// <summary>Rebuilds a key pair from its 32-byte secret key, deriving the public key (<c>zmq_curve_public</c>).
        /// See <see href="http://api.zeromq.org/4-3:zmq-curve-public">zmq_curve_public</see>.</summary>
        /// <param name="secretKey">Exactly 32 bytes; copied (the caller still owns and should clear its buffer).</param>
        /// <returns>The pair, owned by the caller.</returns>
        /// <exception cref="ArgumentException"><paramref name="secretKey"/> is not 32 bytes (checked before any native call).</exception>
        /// <exception cref="PlatformNotSupportedException">The loaded libzmq was built without CURVE.</exception>
        public static CurveKeyPair FromSecretKey(ReadOnlySpan<byte> secretKey)
        {
            if (secretKey.Length != CurveKey.Size)
            {
                throw new ArgumentException(
                    "A CURVE secret key is exactly " + CurveKey.Size + " bytes, not " + secretKey.Length + "." +
                    (secretKey.Length == CurveKey.Z85Length ? " (40 bytes look like Z85 text: use the string overload.)" : string.Empty),
                    nameof(secretKey));
            }

            Libzmq.ThrowIfNoCurve();
            byte[] secret = secretKey.ToArray();
            try
            {
                return new CurveKeyPair(DerivePublicKey(secret), secret);
            }
            catch
            {
                SecretMemory.Clear(secret);
                throw;
            }
        }

        /// <summary>Rebuilds a key pair from its secret key as exactly 40 characters of Z85 text, deriving the public key.</summary>
        /// <param name="z85SecretKey">The secret key in Z85 (a .NET string cannot be cleared: prefer the byte overload where
        /// that matters).</param>
        /// <returns>The pair, owned by the caller.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="z85SecretKey"/> is null.</exception>
        /// <exception cref="ArgumentException">Not 40 characters, or not valid Z85 (checked before any native call; the message
        /// never quotes the text).</exception>
        /// <exception cref="PlatformNotSupportedException">The loaded libzmq was built without CURVE.</exception>
        public static CurveKeyPair FromSecretKey(string z85SecretKey)
        {
            if (z85SecretKey is null)
            {
                throw new ArgumentNullException(nameof(z85SecretKey));
            }

            if (z85SecretKey.Length != CurveKey.Z85Length)
            {
                throw new ArgumentException(
                    "A CURVE secret key in Z85 is exactly " + CurveKey.Z85Length + " characters, not " + z85SecretKey.Length + ".",
                    nameof(z85SecretKey));
            }

            Z85.Validate(z85SecretKey.AsSpan());
            Span<byte> secret = stackalloc byte[CurveKey.Size];
            try
            {
                Z85.Decode(z85SecretKey.AsSpan(), secret);
                return FromSecretKey(secret);
            }
            finally
            {
                SecretMemory.Clear(secret);
            }
        }

        /// <summary>Copies the 32-byte secret key into <paramref name="destination"/> (for storing it; clear the buffer after).</summary>
        /// <param name="destination">At least 32 bytes.</param>
        /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than 32 bytes.</exception>
        /// <exception cref="ObjectDisposedException">The pair was disposed.</exception>
        public void CopySecretKeyTo(Span<byte> destination)
        {
            if (destination.Length < CurveKey.Size)
            {
                throw new ArgumentException("The destination must hold " + CurveKey.Size + " bytes, not " + destination.Length + ".", nameof(destination));
            }

            SecretKey.CopyTo(destination);
        }

        /// <summary>The secret key as 40 characters of Z85 text, for a peer or a file that wants that form (pyzmq, zcert).
        /// The returned string cannot be cleared from memory.</summary>
        /// <returns>The secret key in Z85.</returns>
        /// <exception cref="ObjectDisposedException">The pair was disposed.</exception>
        public string SecretKeyToZ85() => Z85.Encode(SecretKey);

        /// <summary>Overwrites the secret key with zeros. Idempotent; callable from any thread.</summary>
        public void Dispose()
        {
            if (Interlocked.Exchange(ref _disposed, 1) == 0)
            {
                SecretMemory.Clear(_secretKey);
            }
        }

        /// <summary>The public key only; the secret key is never printed.</summary>
        /// <returns>"CurveKeyPair(public &lt;Z85&gt;, secret hidden)".</returns>
        public override string ToString() =>
            "CurveKeyPair(public " + PublicKey.ToZ85() + (IsDisposed ? ", disposed)" : ", secret hidden)");

        /// <summary>The secret key, for the socket setters of this library; throws once disposed.</summary>
        internal ReadOnlySpan<byte> SecretKey
        {
            get
            {
                if (IsDisposed)
                {
                    throw new ObjectDisposedException(nameof(CurveKeyPair), "The key pair was disposed; its secret key has been cleared.");
                }

                return _secretKey;
            }
        }

        private static byte* DecodeInto(byte[] destination, byte* z85)
        {
            fixed (byte* p = destination)
            {
                return Interop.Zmq.zmq_z85_decode(p, z85);
            }
        }

        private static CurveKey DerivePublicKey(ReadOnlySpan<byte> secret)
        {
            byte* secretText = stackalloc byte[CurveKey.Z85Length + 1];
            byte* publicText = stackalloc byte[CurveKey.Z85Length + 1];
            Span<byte> publicBytes = stackalloc byte[CurveKey.Size];
            try
            {
                fixed (byte* s = secret)
                {
                    if (Interop.Zmq.zmq_z85_encode(secretText, s, CurveKey.Size) == null)
                    {
                        throw new InvalidOperationException("zmq_z85_encode failed on a 32-byte key.");
                    }
                }

                if (Interop.Zmq.zmq_curve_public(publicText, secretText) != 0)
                {
                    throw new PlatformNotSupportedException("zmq_curve_public failed: this libzmq cannot derive CURVE keys.");
                }

                fixed (byte* p = publicBytes)
                {
                    if (Interop.Zmq.zmq_z85_decode(p, publicText) == null)
                    {
                        throw new InvalidOperationException("zmq_z85_decode failed on libzmq's own public key.");
                    }
                }

                return CurveKey.FromBytes(publicBytes);
            }
            finally
            {
                SecretMemory.Clear(new Span<byte>(secretText, CurveKey.Z85Length + 1));
            }
        }
    }
}
