using System;
using System.Text;

namespace NetZeroMQ
{
    public sealed unsafe partial class Socket
    {
        private enum EndpointCall
        {
            Bind,
            Connect,
            Unbind,
            Disconnect,
        }

        /// <summary>
        /// Accepts connections on an endpoint (<c>zmq_bind</c>): <c>tcp://interface:port</c> (port <c>*</c> picks a free one;
        /// read it back from <see cref="LastEndpoint"/>), <c>ipc://path</c> (<c>ipc://*</c> picks a temporary path),
        /// <c>inproc://name</c>, and the other transports the loaded libzmq supports.
        /// See <see href="http://api.zeromq.org/4-3:zmq-bind">zmq_bind</see>.
        /// </summary>
        /// <remarks>
        /// Bind, Connect, Unbind and Disconnect check the endpoint text before libzmq sees it, because libzmq 4.3 reads some
        /// malformed text as something else (<c>tcp://127.0.0.1:-1</c> binds port 65535, <c>:5555abc</c> port 5555). Malformed
        /// text is an <see cref="ArgumentException"/> that quotes it and says what is wrong. The rules: a tcp, ws or udp port is
        /// a number from 1 to 65535 in digits only with nothing before or after it (no sign, space or leading zero), or, where
        /// a port is bound, <c>*</c> or <c>0</c> for a free one; an IPv6 address goes in brackets (<c>tcp://[::1]:5555</c>,
        /// with a zone <c>[fe80::1%eth0]</c>); a host is at most 255 bytes: <c>*</c> or an interface name where bound, an
        /// IP address, or a DNS name (letters, digits, '.', '-', '_') where connected; <c>tcp://source:port;peer:port</c> is
        /// for Connect; a ws path has one segment (<c>ws://host:port/path</c>); an ipc path fits in <c>sockaddr_un</c>
        /// (at most 107 bytes of UTF-8 on Linux and Windows, 103 on macOS), and <c>ipc://*</c> is only bound; an inproc name is any non-empty text. Unbind and Disconnect
        /// accept what Bind or Connect accepts. Nothing is resolved or looked up here: a name or interface that does not exist
        /// stays libzmq's to report, as does a transport the loaded libzmq lacks (<see cref="ZmqError.ProtocolNotSupported"/>).
        /// </remarks>
        /// <param name="endpoint">The endpoint.</param>
        /// <exception cref="ArgumentNullException"><paramref name="endpoint"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="endpoint"/> is empty or malformed (see the remarks).</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq refused; the endpoint is in the exception: <see cref="ZmqError.NoDevice"/>
        /// (no such interface or address here), <see cref="ZmqError.InvalidArgument"/> (an address libzmq cannot use, such as an
        /// unknown zone index), <see cref="ZmqError.ProtocolNotSupported"/> (unknown transport), <see cref="ZmqError.AddressInUse"/>,
        /// <see cref="ZmqError.IncompatibleProtocol"/>, <see cref="ZmqError.NoIOThread"/>; <see cref="ZmqError.TooManyOpenFiles"/>
        /// when the process is within a few file descriptors of its limit (any transport but inproc; see
        /// <see cref="Socket(Context, SocketType)"/>).</exception>
        public void Bind(string endpoint) => CallEndpoint(EndpointCall.Bind, endpoint);

        /// <summary>
        /// Connects to an endpoint (<c>zmq_connect</c>). The connection is made in the background and re-made after failures;
        /// messages queue meanwhile (see <see cref="SocketOptions.Immediate"/>).
        /// See <see href="http://api.zeromq.org/4-3:zmq-connect">zmq_connect</see>.
        /// </summary>
        /// <remarks>The endpoint text is checked as the remarks of <see cref="Bind(string)"/> say. A tcp peer's name is resolved in
        /// the background, so a name that does not resolve is not an error here.</remarks>
        /// <param name="endpoint">The endpoint.</param>
        /// <exception cref="ArgumentNullException"><paramref name="endpoint"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="endpoint"/> is empty or malformed (see <see cref="Bind(string)"/>).</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq refused; the endpoint is in the exception. <see cref="ZmqError.TooManyOpenFiles"/>
        /// when the process is within a few file descriptors of its limit (any transport but inproc; see
        /// <see cref="Socket(Context, SocketType)"/>).</exception>
        public void Connect(string endpoint) => CallEndpoint(EndpointCall.Connect, endpoint);

        /// <summary>Stops accepting on an endpoint that was bound (<c>zmq_unbind</c>); use the resolved endpoint for wildcards.</summary>
        /// <param name="endpoint">The endpoint as bound, or as <see cref="LastEndpoint"/> reported it.</param>
        /// <exception cref="ArgumentNullException"><paramref name="endpoint"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="endpoint"/> is empty or malformed (see <see cref="Bind(string)"/>).</exception>
        /// <exception cref="ZmqException"><see cref="ZmqError.EndpointNotFound"/> if it was not bound.</exception>
        public void Unbind(string endpoint) => CallEndpoint(EndpointCall.Unbind, endpoint);

        /// <summary>Disconnects from an endpoint that was connected (<c>zmq_disconnect</c>).</summary>
        /// <param name="endpoint">The endpoint as connected.</param>
        /// <exception cref="ArgumentNullException"><paramref name="endpoint"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="endpoint"/> is empty or malformed (see <see cref="Bind(string)"/>).</exception>
        /// <exception cref="ZmqException"><see cref="ZmqError.EndpointNotFound"/> if it was not connected.</exception>
        public void Disconnect(string endpoint) => CallEndpoint(EndpointCall.Disconnect, endpoint);

        /// <summary>SUB: receive messages that start with <paramref name="prefix"/> (UTF-8); "" receives everything.</summary>
        /// <param name="prefix">The topic prefix.</param>
        /// <exception cref="ArgumentNullException"><paramref name="prefix"/> is null.</exception>
        /// <exception cref="ZmqException"><see cref="ZmqError.InvalidArgument"/> on a socket that is not SUB.</exception>
        public void Subscribe(string prefix) => SetTopic(SocketOptions.Subscribe, prefix);

        /// <summary>SUB: receive messages that start with <paramref name="prefix"/>; empty receives everything.</summary>
        /// <param name="prefix">The topic prefix.</param>
        public void Subscribe(ReadOnlySpan<byte> prefix) => SetOption(SocketOptions.Subscribe, prefix);

        /// <summary>SUB: remove a subscription made with the same prefix.</summary>
        /// <param name="prefix">The topic prefix.</param>
        public void Unsubscribe(string prefix) => SetTopic(SocketOptions.Unsubscribe, prefix);

        /// <summary>SUB: remove a subscription made with the same prefix.</summary>
        /// <param name="prefix">The topic prefix.</param>
        public void Unsubscribe(ReadOnlySpan<byte> prefix) => SetOption(SocketOptions.Unsubscribe, prefix);

        private void SetTopic(SocketOption<byte[]> option, string prefix)
        {
            if (prefix is null)
            {
                throw new ArgumentNullException(nameof(prefix));
            }

            int max = Encoding.UTF8.GetMaxByteCount(prefix.Length);
            Span<byte> bytes = max <= Utf8.StackLimit ? stackalloc byte[Utf8.StackLimit] : new byte[Encoding.UTF8.GetByteCount(prefix)];
            int length;
            fixed (char* chars = prefix)
            fixed (byte* p = bytes)
            {
                length = Encoding.UTF8.GetBytes(chars, prefix.Length, p, bytes.Length);
            }

            SetOption(option, bytes.Slice(0, length));
        }

        /// <summary>
        /// libzmq 4.3.4 asserts (aborts the process) in its PLAIN server when ZAP_ENFORCE_DOMAIN is on and the ZAP domain is
        /// empty, as soon as a client connects. The combination can only be reached through the raw options, so it is refused
        /// here, before a connection can exist, rather than left to take the process down. The caller holds the guard.
        /// </summary>
        private void ThrowIfPlainServerWouldAbort()
        {
            if (!ReadFlagUnguarded(SocketOptions.PlainServer.Id) || !ReadFlagUnguarded(SocketOptions.ZapEnforceDomain.Id))
            {
                return;
            }

            byte* domain = stackalloc byte[2];
            nuint length = 2;
            if (Interop.Zmq.zmq_getsockopt(_socket, SocketOptions.ZapDomain.Id, domain, &length) == 0 && length <= 1)
            {
                throw new InvalidOperationException(
                    "A PLAIN server with ZapEnforceDomain on needs a ZapDomain: with an empty domain libzmq 4.3 aborts the process " +
                    "(assertion zap_required()) when a client connects. Set SocketOptions.ZapDomain, or use SetPlainServer(domain).");
            }
        }

        /// <summary>Reads an int option as a flag; false when libzmq does not know the option (draft options on older builds).</summary>
        private bool ReadFlagUnguarded(int option)
        {
            int value;
            nuint length = sizeof(int);
            return Interop.Zmq.zmq_getsockopt(_socket, option, &value, &length) == 0 && value != 0;
        }

        /// <summary>
        /// After a tcp or ipc Bind: libzmq adopted the <see cref="SocketOptions.UseFd"/> descriptor (if one was set) for this
        /// listener, but keeps the option and would adopt the same descriptor again at the next Bind, which aborts the process
        /// (libzmq 4.3.4 epoll.cpp:100, the descriptor already registered or, after an Unbind, closed). The option goes back to
        /// -1: the descriptor belongs to this listener now. libzmq 4.1 has no such option (nothing to forget).
        /// </summary>
        private void ForgetAdoptedDescriptor(string endpoint)
        {
            if ((endpoint.StartsWith("tcp://", StringComparison.Ordinal) || endpoint.StartsWith("ipc://", StringComparison.Ordinal))
                && LibzmqVersions.HasOption(SocketOptions.UseFd.Id, Libzmq.Version)
                && GetInt32Unguarded(SocketOptions.UseFd.Id) != -1)
            {
                SetInt32Unguarded(SocketOptions.UseFd.Id, -1);
            }
        }

        /// <summary>A bind or connect succeeded and the event source listens: tell it, with the endpoint a wildcard bind chose.
        /// The caller holds the guard.</summary>
        private void WriteEndpointEvent(EndpointCall call, string endpoint)
        {
            string type = SocketTypeNames.Of((int)Type);
            if (call == EndpointCall.Bind)
            {
                NetZeroMQEventSource.Log.SocketBound(_traffic.Id, type, GetStringUnguarded(SocketOptions.LastEndpoint.Id, "LastEndpoint"));
            }
            else
            {
                NetZeroMQEventSource.Log.SocketConnected(_traffic.Id, type, endpoint);
            }
        }

        private void CallEndpoint(EndpointCall call, string endpoint)
        {
            EndpointSyntax.ThrowIfMalformed(endpoint, call switch
            {
                EndpointCall.Bind => EndpointUse.Bind,
                EndpointCall.Connect => EndpointUse.Connect,
                _ => EndpointUse.Lookup, // only looked up: well-formed text never used stays EndpointNotFound
            });

            // libzmq 4.1 refuses a wildcard source port in a connect: passed as 0 there (LibzmqVersions.ConnectText).
            string native = call is EndpointCall.Connect or EndpointCall.Disconnect ? LibzmqVersions.ConnectText(endpoint, Libzmq.Version) : endpoint;
            using var text = new Utf8.CString(native, stackalloc byte[Utf8.StackLimit]);
            Enter();
            try
            {
                if (call == EndpointCall.Bind || call == EndpointCall.Connect)
                {
                    ThrowIfPlainServerWouldAbort();

                    // Every transport but inproc opens a descriptor (a listener, a connection, an interface look-up).
                    if (!endpoint.StartsWith("inproc://", StringComparison.Ordinal))
                    {
                        DescriptorHeadroom.ThrowIfLow(call == EndpointCall.Bind ? "bind" : "connect", endpoint);
                    }
                }

                // libzmq 4.2.3 to 4.3.1 leave a wildcard ipc listener's socket file (and its directory) when it closes: the file
                // is unlinked just before its unbind or the socket's close, and libzmq then removes the directory itself.
                bool unlinkAtClose = call == EndpointCall.Bind && endpoint == "ipc://*" && LibzmqVersions.LeavesWildcardIpcFile(Libzmq.Version)
                    && GetInt32Unguarded(SocketOptions.UseFd.Id) == -1; // an adopted descriptor's file is its owner's
                if (call == EndpointCall.Unbind && endpoint.StartsWith("ipc://", StringComparison.Ordinal))
                {
                    _handle.UnlinkBeforeUnbind(endpoint.Substring("ipc://".Length));
                }

                fixed (byte* p = text)
                {
                    int rc = call switch
                    {
                        EndpointCall.Bind => Interop.Zmq.zmq_bind(_socket, p),
                        EndpointCall.Connect => Interop.Zmq.zmq_connect(_socket, p),
                        EndpointCall.Unbind => Interop.Zmq.zmq_unbind(_socket, p),
                        _ => Interop.Zmq.zmq_disconnect(_socket, p),
                    };
                    if (rc == 0 && call == EndpointCall.Bind)
                    {
                        ForgetAdoptedDescriptor(endpoint);
                        if (unlinkAtClose)
                        {
                            _handle.UnlinkAtClose(GetStringUnguarded(SocketOptions.LastEndpoint.Id, "LastEndpoint").Substring("ipc://".Length));
                        }
                    }

                    if (rc == 0 && call == EndpointCall.Connect && !endpoint.StartsWith("inproc://", StringComparison.Ordinal))
                    {
                        // libzmq opens the connection later, and the peer's accept with it when the peer is in this process.
                        DescriptorHeadroom.Promise(2);
                    }
                    else if (rc == 0 && call == EndpointCall.Connect)
                    {
                        // On libzmq 4.1 a connect still pending at the context's shutdown would crash zmq_ctx_term.
                        _context.NoteInprocConnect(endpoint);
                    }

                    if (rc != 0)
                    {
                        ZmqThrow.LastError(call switch
                        {
                            EndpointCall.Bind => "bind",
                            EndpointCall.Connect => "connect",
                            EndpointCall.Unbind => "unbind",
                            _ => "disconnect",
                        }, endpoint);
                    }

                    if (call <= EndpointCall.Connect && NetZeroMQEventSource.Log.IsEnabled())
                    {
                        WriteEndpointEvent(call, endpoint);
                    }
                }
            }
            finally
            {
                Exit();
            }
        }
    }
}
