using System;
using System.Text;

namespace NetZeroMQ
{
    /// <summary>
    /// One ZAP request (RFC 27) as a <see cref="ZapAuthenticator"/> received it from libzmq, given to PLAIN and CURVE callbacks
    /// and to <see cref="ZapAuthenticator.Decided"/>. See <see href="https://rfc.zeromq.org/spec/27/">RFC 27</see>.
    /// </summary>
    /// <remarks>
    /// The PLAIN password is held as UTF-8 bytes and <b>cleared</b> as soon as the request has been answered (after the callback
    /// and the <see cref="ZapAuthenticator.Decided"/> handlers return): read it during the callback, with
    /// <see cref="PasswordEquals(string)"/> (constant time) or <see cref="PasswordUtf8"/>. <see cref="ToString"/> never shows it.
    /// </remarks>
    public sealed class ZapRequest
    {
        private byte[]? _password;

        internal ZapRequest(string domain, string address, byte[] identity, string mechanism, string? username, byte[]? password, CurveKey? clientKey)
        {
            Domain = domain;
            Address = address;
            Identity = identity;
            Mechanism = mechanism;
            Username = username;
            _password = password;
            ClientKey = clientKey;
        }

        /// <summary>The ZAP domain of the socket the client connected to (its <see cref="SocketOptions.ZapDomain"/>).</summary>
        public string Domain { get; }

        /// <summary>The client's address as libzmq reports it: the IP address for tcp (for example "127.0.0.1").</summary>
        public string Address { get; }

        /// <summary>The request's identity frame. libzmq 4.3 puts the <b>server</b> socket's own routing id here
        /// (<see cref="SocketOptions.RoutingId"/> of the socket being connected to; empty when it has none), not the client's:
        /// it tells which server socket asks, not who the client is.</summary>
        public byte[] Identity { get; }

        /// <summary>"NULL", "PLAIN" or "CURVE" (other mechanisms are denied before any callback).</summary>
        public string Mechanism { get; }

        /// <summary>For PLAIN, the user name; otherwise null.</summary>
        public string? Username { get; }

        /// <summary>For CURVE, the client's long-term public key; otherwise null.</summary>
        public CurveKey? ClientKey { get; }

        /// <summary>For PLAIN, the password as UTF-8 bytes until the request is answered (then cleared); otherwise empty.</summary>
        public ReadOnlySpan<byte> PasswordUtf8 => _password;

        /// <summary>For PLAIN, whether the password equals <paramref name="candidate"/> (compared in constant time).</summary>
        /// <param name="candidate">The expected password.</param>
        /// <returns>True if equal; false for other mechanisms and after the request was answered.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="candidate"/> is null.</exception>
        public bool PasswordEquals(string candidate)
        {
            if (candidate is null)
            {
                throw new ArgumentNullException(nameof(candidate));
            }

            byte[]? password = _password;
            if (password is null)
            {
                return false;
            }

            byte[] expected = Encoding.UTF8.GetBytes(candidate);
            try
            {
                return SecretMemory.FixedTimeEquals(password, expected);
            }
            finally
            {
                SecretMemory.Clear(expected);
            }
        }

        /// <summary>Mechanism, domain, address and user name or key; never the password.</summary>
        /// <returns>The text.</returns>
        public override string ToString() =>
            "ZapRequest(" + Mechanism + ", domain '" + Domain + "', address " + Address
            + (Username is not null ? ", user '" + Username + "'" : string.Empty)
            + (ClientKey is not null ? ", key " + ClientKey.ToZ85() : string.Empty) + ")";

        /// <summary>Overwrites the password bytes with zeros; called once the request is answered.</summary>
        internal void ClearSecrets()
        {
            byte[]? password = _password;
            _password = null;
            SecretMemory.Clear(password);
        }
    }
}
