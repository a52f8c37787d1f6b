using System;
using System.Collections.Generic;
using System.Net;
using System.Text;

namespace NetZeroMQ
{
    /// <summary>
    /// What a <see cref="ZapAuthenticator"/> accepts, for every ZAP domain (<see cref="ZapAuthenticator.DefaultPolicy"/>) or
    /// for one (<see cref="ZapAuthenticator.ForDomain(string)"/>). Empty, it denies everything.
    /// </summary>
    /// <remarks>
    /// <para><b>Order of checks</b> for each connection: (1) the address: on a deny-list → 400; an allow-list exists and the
    /// address is not on it → 400. (2) the mechanism: NULL is accepted when the address is on the allow-list or
    /// <see cref="AllowNullMechanism"/> was called; PLAIN when the user name and password match a <see cref="AddPlainUser"/>
    /// entry, else when the PLAIN callback allows; CURVE when the key was allowed with <see cref="AllowCurveKey"/>, else when
    /// the CURVE callback allows, else when <see cref="AllowAnyCurveClient"/> was called. Anything else is 400.</para>
    /// <para><b>Fail closed.</b> A callback that throws, returns <c>default</c>, or does not answer within
    /// <see cref="ZapAuthenticator.CallbackTimeout"/> denies (500). A malformed request or an unknown mechanism denies (400).</para>
    /// <para><b>Threading.</b> Safe to change while the authenticator runs, from any thread; a change applies to handshakes
    /// that start after it, never to connections already admitted. Once the authenticator is disposed, every change throws
    /// <see cref="ObjectDisposedException"/> (its stored passwords were cleared then, and a new one would never be).</para>
    /// </remarks>
    public sealed class ZapPolicy
    {
        private readonly object _sync;
        private readonly HashSet<IPAddress> _allowedAddresses = new HashSet<IPAddress>();
        private readonly HashSet<IPAddress> _deniedAddresses = new HashSet<IPAddress>();
        private readonly Dictionary<string, PlainUser> _plainUsers = new Dictionary<string, PlainUser>(StringComparer.Ordinal);
        private readonly Dictionary<CurveKey, string> _curveKeys = new Dictionary<CurveKey, string>();
        private Func<ZapRequest, ZapDecision>? _plainCallback;
        private Func<ZapRequest, ZapDecision>? _curveCallback;
        private bool _allowNull;
        private bool _allowAnyCurve;

        /// <summary>Set when the authenticator is disposed: its secrets are cleared then, so the policy takes no new ones.</summary>
        private bool _closed;

        internal ZapPolicy(object sync, string? domain)
        {
            _sync = sync;
            Domain = domain;
        }

        /// <summary>The domain this policy is for, or null for the default policy (every domain without its own).</summary>
        public string? Domain { get; }

        /// <summary>Adds <paramref name="address"/> to the allow-list: once the list is not empty, only listed addresses pass
        /// the address check (and NULL-mechanism clients from them are accepted). Cannot be combined with a deny-list.</summary>
        /// <param name="address">An IPv4 or IPv6 address, exactly (no ranges).</param>
        /// <returns>This policy.</returns>
        /// <exception cref="ArgumentException"><paramref name="address"/> is not an IP address.</exception>
        /// <exception cref="InvalidOperationException">This policy already has a deny-list.</exception>
        /// <exception cref="ObjectDisposedException">The authenticator was disposed.</exception>
        public ZapPolicy AllowAddress(string address)
        {
            IPAddress ip = ParseAddress(address);
            lock (_sync)
            {
                ThrowIfClosed();
                if (_deniedAddresses.Count != 0)
                {
                    throw new InvalidOperationException("This policy has a deny-list; an allow-list and a deny-list cannot be combined.");
                }

                _allowedAddresses.Add(ip);
            }

            return this;
        }

        /// <summary>Adds <paramref name="address"/> to the deny-list: connections from it are rejected (400) whatever their
        /// credentials. Cannot be combined with an allow-list.</summary>
        /// <param name="address">An IPv4 or IPv6 address, exactly (no ranges).</param>
        /// <returns>This policy.</returns>
        /// <exception cref="ArgumentException"><paramref name="address"/> is not an IP address.</exception>
        /// <exception cref="InvalidOperationException">This policy already has an allow-list.</exception>
        /// <exception cref="ObjectDisposedException">The authenticator was disposed.</exception>
        public ZapPolicy DenyAddress(string address)
        {
            IPAddress ip = ParseAddress(address);
            lock (_sync)
            {
                ThrowIfClosed();
                if (_allowedAddresses.Count != 0)
                {
                    throw new InvalidOperationException("This policy has an allow-list; an allow-list and a deny-list cannot be combined.");
                }

                _deniedAddresses.Add(ip);
            }

            return this;
        }

        /// <summary>Accepts NULL-mechanism clients (no credentials) whose address passes the address check. Off by default.
        /// Only sockets with a ZAP domain (<see cref="SocketSecurityExtensions.SetZapDomain"/>) ask about NULL clients.</summary>
        /// <returns>This policy.</returns>
        /// <exception cref="ObjectDisposedException">The authenticator was disposed.</exception>
        public ZapPolicy AllowNullMechanism()
        {
            lock (_sync)
            {
                ThrowIfClosed();
                _allowNull = true;
            }

            return this;
        }

        /// <summary>Accepts PLAIN clients presenting <paramref name="username"/> and <paramref name="password"/> (compared in
        /// constant time). Replaces an earlier entry for the same user. The password is kept as UTF-8 bytes and cleared when
        /// the entry is removed or the authenticator disposed.</summary>
        /// <param name="username">The user name, at most 255 UTF-8 bytes.</param>
        /// <param name="password">The password, at most 255 UTF-8 bytes.</param>
        /// <param name="userId">The <c>User-Id</c> receivers see; the user name when null.</param>
        /// <returns>This policy.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="username"/> or <paramref name="password"/> is null.</exception>
        /// <exception cref="ArgumentException">A value is over 255 UTF-8 bytes or contains a NUL (the password is never quoted).</exception>
        /// <exception cref="ObjectDisposedException">The authenticator was disposed.</exception>
        public ZapPolicy AddPlainUser(string username, string password, string? userId = null)
        {
            ThrowIfInvalid(username, nameof(username));
            ThrowIfInvalid(password, nameof(password));
            ThrowIfInvalid(userId ?? username, nameof(userId));
            var entry = new PlainUser(Encoding.UTF8.GetBytes(password), userId ?? username);
            lock (_sync)
            {
                if (_closed)
                {
                    SecretMemory.Clear(entry.Password);
                    ThrowIfClosed();
                }
                if (_plainUsers.TryGetValue(username, out PlainUser old))
                {
                    SecretMemory.Clear(old.Password);
                }

                _plainUsers[username] = entry;
            }

            return this;
        }

        /// <summary>Removes a PLAIN user (clearing its password); later handshakes of that user are denied.</summary>
        /// <param name="username">The user name.</param>
        /// <returns>True if the user was present.</returns>
        /// <exception cref="ObjectDisposedException">The authenticator was disposed.</exception>
        public bool RemovePlainUser(string username)
        {
            lock (_sync)
            {
                ThrowIfClosed();
                if (username is null || !_plainUsers.TryGetValue(username, out PlainUser old))
                {
                    return false;
                }

                _plainUsers.Remove(username);
                SecretMemory.Clear(old.Password);
                return true;
            }
        }

        /// <summary>Decides PLAIN clients that no <see cref="AddPlainUser"/> entry accepts. Runs on a worker thread, bounded by
        /// <see cref="ZapAuthenticator.CallbackTimeout"/>; throwing or returning <c>default</c> denies.</summary>
        /// <param name="callback">The callback, or null to remove it.</param>
        /// <returns>This policy.</returns>
        /// <exception cref="ObjectDisposedException">The authenticator was disposed.</exception>
        public ZapPolicy SetPlainCallback(Func<ZapRequest, ZapDecision>? callback)
        {
            lock (_sync)
            {
                ThrowIfClosed();
                _plainCallback = callback;
            }

            return this;
        }

        /// <summary>Accepts CURVE clients whose long-term public key is <paramref name="clientKey"/>.</summary>
        /// <param name="clientKey">The client's public key.</param>
        /// <param name="userId">The <c>User-Id</c> receivers see; the key's Z85 text when null.</param>
        /// <returns>This policy.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="clientKey"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="userId"/> is over 255 UTF-8 bytes or contains a NUL.</exception>
        /// <exception cref="ObjectDisposedException">The authenticator was disposed.</exception>
        public ZapPolicy AllowCurveKey(CurveKey clientKey, string? userId = null)
        {
            if (clientKey is null)
            {
                throw new ArgumentNullException(nameof(clientKey));
            }

            string id = userId ?? clientKey.ToZ85();
            ThrowIfInvalid(id, nameof(userId));
            lock (_sync)
            {
                ThrowIfClosed();
                _curveKeys[clientKey] = id;
            }

            return this;
        }

        /// <summary>Removes a CURVE key from the allow-list; later handshakes with it are denied (unless a callback or
        /// <see cref="AllowAnyCurveClient"/> accepts them).</summary>
        /// <param name="clientKey">The key.</param>
        /// <returns>True if the key was present.</returns>
        /// <exception cref="ObjectDisposedException">The authenticator was disposed.</exception>
        public bool RemoveCurveKey(CurveKey clientKey)
        {
            lock (_sync)
            {
                ThrowIfClosed();
                return clientKey is not null && _curveKeys.Remove(clientKey);
            }
        }

        /// <summary>Decides CURVE clients whose key is not on the allow-list. Runs on a worker thread, bounded by
        /// <see cref="ZapAuthenticator.CallbackTimeout"/>; throwing or returning <c>default</c> denies.</summary>
        /// <param name="callback">The callback, or null to remove it.</param>
        /// <returns>This policy.</returns>
        /// <exception cref="ObjectDisposedException">The authenticator was disposed.</exception>
        public ZapPolicy SetCurveCallback(Func<ZapRequest, ZapDecision>? callback)
        {
            lock (_sync)
            {
                ThrowIfClosed();
                _curveCallback = callback;
            }

            return this;
        }

        /// <summary>
        /// Accepts every CURVE client whose address passes the address check, whatever its key: encryption and server
        /// authentication without client authentication (libzmq's "Stonehouse"). Off by default; this is the explicit way to
        /// get what a CURVE server without ZAP does silently. The user id is the client key's Z85 text.
        /// </summary>
        /// <returns>This policy.</returns>
        /// <exception cref="ObjectDisposedException">The authenticator was disposed.</exception>
        public ZapPolicy AllowAnyCurveClient()
        {
            lock (_sync)
            {
                ThrowIfClosed();
                _allowAnyCurve = true;
            }

            return this;
        }

        /// <summary>Decides one request. Callbacks run outside the lock, through <paramref name="runCallback"/>.</summary>
        internal ZapDecision Decide(ZapRequest request, Func<Func<ZapRequest, ZapDecision>, ZapRequest, ZapDecision> runCallback)
        {
            Func<ZapRequest, ZapDecision>? callback;
            lock (_sync)
            {
                bool listed = false;
                if (_allowedAddresses.Count != 0 || _deniedAddresses.Count != 0)
                {
                    IPAddress? ip = TryParse(request.Address);
                    if (ip is not null && _deniedAddresses.Contains(ip))
                    {
                        return ZapDecision.Deny("Address denied");
                    }

                    if (_allowedAddresses.Count != 0)
                    {
                        listed = ip is not null && _allowedAddresses.Contains(ip);
                        if (!listed)
                        {
                            return ZapDecision.Deny("Address not allowed");
                        }
                    }
                }

                switch (request.Mechanism)
                {
                    case "NULL":
                        return listed || _allowNull ? ZapDecision.Allow() : ZapDecision.Deny("NULL mechanism not allowed");

                    case "PLAIN":
                        if (_plainUsers.TryGetValue(request.Username!, out PlainUser user)
                            && SecretMemory.FixedTimeEquals(user.Password, request.PasswordUtf8))
                        {
                            return ZapDecision.Allow(user.UserId);
                        }

                        callback = _plainCallback;
                        if (callback is null)
                        {
                            return ZapDecision.Deny("Invalid user name or password");
                        }

                        break;

                    case "CURVE":
                        if (_curveKeys.TryGetValue(request.ClientKey!, out string? userId))
                        {
                            return ZapDecision.Allow(userId);
                        }

                        callback = _curveCallback;
                        if (callback is null)
                        {
                            return _allowAnyCurve ? ZapDecision.Allow(request.ClientKey!.ToZ85()) : ZapDecision.Deny("Unknown key");
                        }

                        break;

                    default:
                        return ZapDecision.Deny("Unsupported mechanism");
                }
            }

            return runCallback(callback, request);
        }

        /// <summary>Clears every stored password and refuses further changes (the authenticator is being disposed).</summary>
        internal void ClearSecrets()
        {
            lock (_sync)
            {
                _closed = true;
                foreach (PlainUser user in _plainUsers.Values)
                {
                    SecretMemory.Clear(user.Password);
                }

                _plainUsers.Clear();
            }
        }

        /// <summary>Called under the lock by every change.</summary>
        private void ThrowIfClosed()
        {
            if (_closed)
            {
                throw new ObjectDisposedException(nameof(ZapAuthenticator), "The ZapAuthenticator of this policy was disposed; its policies take no changes.");
            }
        }

        private static IPAddress ParseAddress(string address)
        {
            IPAddress? ip = address is null ? null : TryParse(address);
            return ip ?? throw new ArgumentException("Not an IP address: '" + address + "'.", nameof(address));
        }

        private static IPAddress? TryParse(string address)
        {
            if (!IPAddress.TryParse(address, out IPAddress? ip))
            {
                return null;
            }

            return ip.IsIPv4MappedToIPv6 ? ip.MapToIPv4() : ip;
        }

        private static void ThrowIfInvalid(string value, string paramName)
        {
            if (value is null)
            {
                throw new ArgumentNullException(paramName);
            }

            if (value.IndexOf('\0') >= 0 || Encoding.UTF8.GetByteCount(value) > 255)
            {
                throw new ArgumentException("The " + paramName + " is at most 255 UTF-8 bytes, without NUL.", paramName);
            }
        }

        private readonly struct PlainUser
        {
            internal PlainUser(byte[] password, string userId)
            {
                Password = password;
                UserId = userId;
            }

            internal byte[] Password { get; }

            internal string UserId { get; }
        }
    }
}
