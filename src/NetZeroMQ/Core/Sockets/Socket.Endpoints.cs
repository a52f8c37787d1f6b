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
        /// <param name="endpoint">The endpoint.</param>
        /// <exception cref="ArgumentException"><paramref name="endpoint"/> is null, empty, contains a NUL, or has a tcp port above 65535.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq refused; the endpoint is in the exception: <see cref="ZmqError.InvalidArgument"/>
        /// (malformed), <see cref="ZmqError.ProtocolNotSupported"/> (unknown transport), <see cref="ZmqError.AddressInUse"/>,
        /// <see cref="ZmqError.IncompatibleProtocol"/>, <see cref="ZmqError.NoDevice"/>, <see cref="ZmqError.NoIOThread"/>.</exception>
        public void Bind(string endpoint) => CallEndpoint(EndpointCall.Bind, endpoint);

        /// <summary>
        /// Connects to an endpoint (<c>zmq_connect</c>). The connection is made in the background and re-made after failures;
        /// messages queue meanwhile (see <see cref="SocketOptions.Immediate"/>).
        /// See <see href="http://api.zeromq.org/4-3:zmq-connect">zmq_connect</see>.
        /// </summary>
        /// <param name="endpoint">The endpoint.</param>
        /// <exception cref="ArgumentException"><paramref name="endpoint"/> is null, empty, contains a NUL, or has a tcp port above 65535.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq refused; the endpoint is in the exception.</exception>
        public void Connect(string endpoint) => CallEndpoint(EndpointCall.Connect, endpoint);

        /// <summary>Stops accepting on an endpoint that was bound (<c>zmq_unbind</c>); use the resolved endpoint for wildcards.</summary>
        /// <param name="endpoint">The endpoint as bound, or as <see cref="LastEndpoint"/> reported it.</param>
        /// <exception cref="ZmqException"><see cref="ZmqError.EndpointNotFound"/> if it was not bound.</exception>
        public void Unbind(string endpoint) => CallEndpoint(EndpointCall.Unbind, endpoint);

        /// <summary>Disconnects from an endpoint that was connected (<c>zmq_disconnect</c>).</summary>
        /// <param name="endpoint">The endpoint as connected.</param>
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
        /// libzmq 4.3.4 takes a tcp port above 65535 modulo 65536 instead of rejecting it (<c>tcp://127.0.0.1:99999</c> binds
        /// port 34463; 65536 itself is rejected), so a typo would silently bind or connect to another port. Checks the
        /// numeric port of each address of a tcp endpoint (<c>tcp://[source:port;]host:port</c>); <c>*</c> and names pass.
        /// </summary>
        private static void ThrowIfTcpPortOutOfRange(string endpoint)
        {
            const string Scheme = "tcp://";
            if (!endpoint.StartsWith(Scheme, StringComparison.Ordinal))
            {
                return;
            }

            int start = Scheme.Length;
            while (start <= endpoint.Length)
            {
                int end = endpoint.IndexOf(';', start);
                if (end < 0)
                {
                    end = endpoint.Length;
                }

                int colon = endpoint.LastIndexOf(':', end - 1, end - start);
                if (colon >= 0 && end - colon - 1 > 0)
                {
                    long port = 0;
                    int i = colon + 1;
                    while (i < end && endpoint[i] >= '0' && endpoint[i] <= '9' && port <= 65535)
                    {
                        port = port * 10 + (endpoint[i] - '0');
                        i++;
                    }

                    if (port > 65535)
                    {
                        throw new ArgumentException("The tcp port in '" + endpoint + "' is above 65535.", nameof(endpoint));
                    }
                }

                start = end + 1;
            }
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

        private void CallEndpoint(EndpointCall call, string endpoint)
        {
            Utf8.ThrowIfInvalidName(endpoint, nameof(endpoint));
            if (call == EndpointCall.Bind || call == EndpointCall.Connect)
            {
                // Unbind and Disconnect only look the text up: one that was never bound or connected is EndpointNotFound.
                ThrowIfTcpPortOutOfRange(endpoint);
            }

            using var text = new Utf8.CString(endpoint, stackalloc byte[Utf8.StackLimit]);
            Enter();
            try
            {
                if (call == EndpointCall.Bind || call == EndpointCall.Connect)
                {
                    ThrowIfPlainServerWouldAbort();
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
                }
            }
            finally
            {
                Exit();
            }
        }
    }
}
