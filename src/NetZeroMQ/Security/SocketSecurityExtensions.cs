using System;
using System.Text;

namespace NetZeroMQ
{
    /// <summary>
    /// Typed security setup of a socket: CURVE and PLAIN, server and client sides, and the ZAP domain. Built only on the public
    /// socket options (<see cref="SocketOptions"/>). Call these before <see cref="Socket.Bind(string)"/> or
    /// <see cref="Socket.Connect(string)"/>: libzmq applies security options to later connections only.
    /// See <see href="http://api.zeromq.org/4-3:zmq-curve">zmq_curve</see>, <see href="http://api.zeromq.org/4-3:zmq-plain">zmq_plain</see>
    /// and <see href="https://rfc.zeromq.org/spec/27/">ZAP (RFC 27)</see>.
    /// </summary>
    /// <remarks>
    /// <para><b>Fail closed.</b> The server setters set a ZAP domain <i>and</i> <see cref="SocketOptions.ZapEnforceDomain"/>.
    /// With them, libzmq 4.3 asks the context's ZAP handler (a <see cref="ZapAuthenticator"/>) about every connection and
    /// rejects the connection when no handler is running. Without them, a CURVE server with no handler accepts every client key
    /// (encryption without authentication). Accepting any client is then a choice made on the authenticator
    /// (<see cref="ZapPolicy.AllowAnyCurveClient"/>), never a default. libzmq 4.1 has no ZapEnforceDomain: there the server
    /// setters and <see cref="SetZapDomain"/> throw <see cref="NotSupportedException"/> before setting anything (a server
    /// configured with the raw options there accepts every client while no authenticator runs).</para>
    /// <para><b>Why the domain must not be empty.</b> Measured on libzmq 4.3.4: with ZapEnforceDomain set and an empty domain,
    /// a CURVE server skips ZAP altogether (any client is accepted, even with a handler that denies) and a PLAIN server
    /// <i>aborts the process</i> (<c>Assertion failed: zap_required ()</c>) when a client connects. So an empty domain is
    /// refused here with <see cref="ArgumentException"/>.</para>
    /// <para><b>What is not protected.</b> NULL-mechanism sockets are neither encrypted nor authenticated; PLAIN sends the
    /// password in clear text (use it only on trusted networks or over another encrypted channel); inproc connections never
    /// use a security mechanism. Set <see cref="Socket.MaxMessageSize"/> on every public endpoint.</para>
    /// </remarks>
    public static class SocketSecurityExtensions
    {
        /// <summary>The ZAP domain the server setters use unless told otherwise.</summary>
        public const string DefaultZapDomain = "global";

        /// <summary>PLAIN sends the user name and the password each with a one-byte length: at most 255 bytes of UTF-8.</summary>
        public const int MaxPlainCredentialBytes = 255;

        /// <summary>
        /// Makes <paramref name="socket"/> a CURVE server: encrypts every connection with <paramref name="serverKeys"/> and,
        /// fail-closed, admits a client only when the <see cref="ZapAuthenticator"/> of the socket's context allows its key.
        /// Sets ZapDomain, ZapEnforceDomain, CurveServer, CurvePublicKey and CurveSecretKey.
        /// </summary>
        /// <param name="socket">The socket; call before Bind/Connect.</param>
        /// <param name="serverKeys">The server's key pair (its public key is what clients need). Not kept: libzmq copies it.</param>
        /// <param name="zapDomain">The ZAP domain the authenticator sees (and may configure per domain); not empty.</param>
        /// <exception cref="ArgumentNullException">An argument is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="zapDomain"/> is empty, has a NUL or is over 255 UTF-8 bytes.</exception>
        /// <exception cref="ObjectDisposedException">The socket or the key pair was disposed.</exception>
        /// <exception cref="PlatformNotSupportedException">The loaded libzmq has no CURVE (<c>zmq_has("curve")</c>).</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq cannot enforce a ZAP domain (before 4.2: it would accept
        /// every client while no authenticator runs); nothing is set.</exception>
        /// <exception cref="ZmqException">libzmq refused an option.</exception>
        public static void SetCurveServer(this Socket socket, CurveKeyPair serverKeys, string zapDomain = DefaultZapDomain)
        {
            ThrowIfNull(socket, nameof(socket));
            ThrowIfNull(serverKeys, nameof(serverKeys));
            ThrowIfInvalidDomain(zapDomain, nameof(zapDomain));
            Libzmq.ThrowIfNoCurve();
            ReadOnlySpan<byte> secret = serverKeys.SecretKey;
            ThrowIfCannotEnforce(socket, nameof(SetCurveServer));
            SetEnforcedDomain(socket, zapDomain);
            socket.SetOption(SocketOptions.CurveServer, true);
            socket.SetOption(SocketOptions.CurvePublicKey, serverKeys.PublicKey.Bytes);
            socket.SetOption(SocketOptions.CurveSecretKey, secret);
        }

        /// <summary>
        /// Makes <paramref name="socket"/> a CURVE client of the server whose public key is <paramref name="serverPublicKey"/>:
        /// the handshake fails unless the server proves it holds the matching secret key. Sets CurveServerKey, CurvePublicKey
        /// and CurveSecretKey.
        /// </summary>
        /// <param name="socket">The socket; call before Connect/Bind.</param>
        /// <param name="clientKeys">The client's key pair (its public key is what the server's authenticator allows).</param>
        /// <param name="serverPublicKey">The server's public key, obtained out of band.</param>
        /// <exception cref="ArgumentNullException">An argument is null.</exception>
        /// <exception cref="ObjectDisposedException">The socket or the key pair was disposed.</exception>
        /// <exception cref="PlatformNotSupportedException">The loaded libzmq has no CURVE.</exception>
        /// <exception cref="ZmqException">libzmq refused an option.</exception>
        public static void SetCurveClient(this Socket socket, CurveKeyPair clientKeys, CurveKey serverPublicKey)
        {
            ThrowIfNull(socket, nameof(socket));
            ThrowIfNull(clientKeys, nameof(clientKeys));
            ThrowIfNull(serverPublicKey, nameof(serverPublicKey));
            Libzmq.ThrowIfNoCurve();
            ReadOnlySpan<byte> secret = clientKeys.SecretKey;
            socket.SetOption(SocketOptions.CurveServerKey, serverPublicKey.Bytes);
            socket.SetOption(SocketOptions.CurvePublicKey, clientKeys.PublicKey.Bytes);
            socket.SetOption(SocketOptions.CurveSecretKey, secret);
        }

        /// <summary>
        /// Makes <paramref name="socket"/> a PLAIN server: each client's user name and password go to the
        /// <see cref="ZapAuthenticator"/> of the socket's context, and the client is rejected when none is running. PLAIN is
        /// not encrypted: the password crosses the network in clear text. Sets ZapDomain, ZapEnforceDomain and PlainServer.
        /// </summary>
        /// <param name="socket">The socket; call before Bind/Connect.</param>
        /// <param name="zapDomain">The ZAP domain; not empty (an empty one with ZapEnforceDomain makes libzmq 4.3.4 abort).</param>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> or <paramref name="zapDomain"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="zapDomain"/> is empty, has a NUL or is over 255 UTF-8 bytes.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq cannot enforce a ZAP domain (before 4.2: it would accept
        /// every client while no authenticator runs); nothing is set.</exception>
        /// <exception cref="ZmqException">libzmq refused an option.</exception>
        public static void SetPlainServer(this Socket socket, string zapDomain = DefaultZapDomain)
        {
            ThrowIfNull(socket, nameof(socket));
            ThrowIfInvalidDomain(zapDomain, nameof(zapDomain));
            ThrowIfCannotEnforce(socket, nameof(SetPlainServer));
            SetEnforcedDomain(socket, zapDomain);
            socket.SetOption(SocketOptions.PlainServer, true);
        }

        /// <summary>
        /// Makes <paramref name="socket"/> a PLAIN client that presents <paramref name="username"/> and
        /// <paramref name="password"/>. They travel in clear text. Sets PlainUsername and PlainPassword.
        /// </summary>
        /// <param name="socket">The socket; call before Connect/Bind.</param>
        /// <param name="username">The user name, 1 to 255 UTF-8 bytes, no NUL.</param>
        /// <param name="password">The password, 1 to 255 UTF-8 bytes, no NUL.</param>
        /// <exception cref="ArgumentNullException">An argument is null.</exception>
        /// <exception cref="ArgumentException">A credential is empty or over 255 UTF-8 bytes (the PLAIN limits; libzmq would
        /// refuse it with EINVAL) or contains a NUL. Checked before any native call; the message never quotes the password.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq refused an option.</exception>
        public static void SetPlainClient(this Socket socket, string username, string password)
        {
            ThrowIfNull(socket, nameof(socket));
            ThrowIfInvalidCredential(username, nameof(username));
            ThrowIfInvalidCredential(password, nameof(password));
            socket.SetOption(SocketOptions.PlainUsername, username);
            socket.SetOption(SocketOptions.PlainPassword, password);
        }

        /// <summary>
        /// Sends every connection of <paramref name="socket"/>, including NULL-mechanism ones, to the context's
        /// <see cref="ZapAuthenticator"/> under <paramref name="zapDomain"/>, and rejects them when none is running (sets
        /// ZapDomain and ZapEnforceDomain). With NULL this is how address allow/deny lists apply; it adds no encryption.
        /// </summary>
        /// <param name="socket">The socket; call before Bind/Connect.</param>
        /// <param name="zapDomain">The ZAP domain; not empty (libzmq never asks ZAP about NULL connections without one).</param>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> or <paramref name="zapDomain"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="zapDomain"/> is empty, has a NUL or is over 255 UTF-8 bytes.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq cannot enforce a ZAP domain (before 4.2: it would accept
        /// every client while no authenticator runs); nothing is set.</exception>
        /// <exception cref="ZmqException">libzmq refused an option.</exception>
        public static void SetZapDomain(this Socket socket, string zapDomain)
        {
            ThrowIfNull(socket, nameof(socket));
            ThrowIfInvalidDomain(zapDomain, nameof(zapDomain));
            ThrowIfCannotEnforce(socket, nameof(SetZapDomain));
            SetEnforcedDomain(socket, zapDomain);
        }

        /// <summary>
        /// Sets a CURVE public key option from a validated <see cref="CurveKey"/>: <see cref="SocketOptions.CurvePublicKey"/>
        /// or <see cref="SocketOptions.CurveServerKey"/>. Z85 text goes through <see cref="CurveKey.FromZ85(string)"/>, so a
        /// key of the wrong length or alphabet never reaches libzmq. Secret keys are set from a <see cref="CurveKeyPair"/>.
        /// </summary>
        /// <param name="socket">The socket.</param>
        /// <param name="option">CurvePublicKey or CurveServerKey.</param>
        /// <param name="key">The key.</param>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/>, <paramref name="option"/> or <paramref name="key"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="option"/> is another option (CurveSecretKey included).</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="PlatformNotSupportedException">The loaded libzmq has no CURVE.</exception>
        public static void SetOption(this Socket socket, SocketOption<byte[]> option, CurveKey key)
        {
            ThrowIfNull(socket, nameof(socket));
            ThrowIfNull(key, nameof(key));
            ThrowIfNotPublicKeyOption(option);
            Libzmq.ThrowIfNoCurve();
            socket.SetOption(option, key.Bytes);
        }

        /// <summary>Reads a CURVE public key option (<see cref="SocketOptions.CurvePublicKey"/> or
        /// <see cref="SocketOptions.CurveServerKey"/>) as a <see cref="CurveKey"/>.</summary>
        /// <param name="socket">The socket.</param>
        /// <param name="option">CurvePublicKey or CurveServerKey.</param>
        /// <returns>The key (all zeros when never set).</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> or <paramref name="option"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="option"/> is another option (CurveSecretKey included).</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        public static CurveKey GetCurveKey(this Socket socket, SocketOption<byte[]> option)
        {
            ThrowIfNull(socket, nameof(socket));
            ThrowIfNotPublicKeyOption(option);
            return CurveKey.FromBytes(socket.GetOption(option));
        }

        // Before any option is set, so that a refused setter leaves the socket as it was (the option's own refusal came after
        // ZapDomain was set, and named the option instead of the setter). A disposed socket says so first, as every member
        // does: its next call throws ObjectDisposedException.
        private static void ThrowIfCannotEnforce(Socket socket, string member)
        {
            if (!socket.IsDisposed && LibzmqVersions.ZapEnforcementRefusal(member, Libzmq.Version) is { } refusal)
            {
                throw refusal;
            }
        }

        private static void SetEnforcedDomain(Socket socket, string zapDomain)
        {
            socket.SetOption(SocketOptions.ZapDomain, zapDomain);
            socket.SetOption(SocketOptions.ZapEnforceDomain, true);
        }

        private static void ThrowIfNotPublicKeyOption(SocketOption<byte[]> option)
        {
            ThrowIfNull(option, nameof(option));
            if (option.Id == SocketOptions.CurveSecretKey.Id)
            {
                throw new ArgumentException(
                    "A secret key is set from a CurveKeyPair (SetCurveServer / SetCurveClient), not from a CurveKey.", nameof(option));
            }

            if (option.Id != SocketOptions.CurvePublicKey.Id && option.Id != SocketOptions.CurveServerKey.Id)
            {
                throw new ArgumentException("Option " + option.Name + " is not a CURVE public key option.", nameof(option));
            }
        }

        private static void ThrowIfInvalidDomain(string zapDomain, string paramName)
        {
            ThrowIfNull(zapDomain, paramName);
            if (zapDomain.Length == 0)
            {
                throw new ArgumentException(
                    "The ZAP domain must not be empty: with ZapEnforceDomain, libzmq 4.3 skips ZAP for CURVE on an empty domain " +
                    "(every client would be accepted) and aborts the process for PLAIN.", paramName);
            }

            Utf8.ThrowIfContainsNul(zapDomain, paramName);
            if (Encoding.UTF8.GetByteCount(zapDomain) > 255)
            {
                throw new ArgumentException("The ZAP domain is at most 255 UTF-8 bytes.", paramName);
            }
        }

        private static void ThrowIfInvalidCredential(string value, string paramName)
        {
            ThrowIfNull(value, paramName);
            if (value.IndexOf('\0') >= 0)
            {
                throw new ArgumentException("A PLAIN " + paramName + " must not contain a NUL character.", paramName);
            }

            int bytes = Encoding.UTF8.GetByteCount(value);
            if (bytes == 0)
            {
                throw new ArgumentException("A PLAIN " + paramName + " must not be empty (libzmq 4.3 refuses an empty one).", paramName);
            }

            if (bytes > MaxPlainCredentialBytes)
            {
                throw new ArgumentException(
                    "A PLAIN " + paramName + " is at most " + MaxPlainCredentialBytes + " UTF-8 bytes, not " + bytes + ".", paramName);
            }
        }

        private static void ThrowIfNull(object? value, string paramName)
        {
            if (value is null)
            {
                throw new ArgumentNullException(paramName);
            }
        }
    }
}
