using System;
using System.Collections.Generic;
using Microsoft.Extensions.Logging;

namespace NetZeroMQ.Hosting
{
    /// <summary>
    /// Creates the sockets described in configuration (<c>NetZeroMQ:Sockets:&lt;name&gt;</c>) in the host's one
    /// <see cref="Context"/>, and tracks their peers. Registered by <c>services.AddNetZeroMQ()</c>; socket workers use it.
    /// </summary>
    /// <remarks>
    /// A socket is not thread-safe (ZeroMQ's rule): the caller owns the socket it gets, uses it from one thread at a time and
    /// disposes it. When the host stops, the context shuts down (the socket's pending and future calls end with
    /// <see cref="ZmqError.ContextTerminated"/>) and is then disposed, which closes any socket still open.
    /// </remarks>
    public sealed class SocketFactory
    {
        private readonly NetZeroMQRuntime _runtime;

        internal SocketFactory(NetZeroMQRuntime runtime) => _runtime = runtime;

        /// <summary>The host's context, made on first use from the validated options.</summary>
        /// <exception cref="ObjectDisposedException">The host has stopped.</exception>
        public Context Context => _runtime.Context;

        /// <summary>
        /// Creates the socket named <paramref name="name"/> in configuration: its type, high-water marks, linger and CURVE keys
        /// set, bound and connected to its endpoints in order, its peers tracked (<see cref="GetPeers"/>). Each name is created
        /// once.
        /// </summary>
        /// <param name="name">The socket's name under <c>NetZeroMQ:Sockets</c> (case-insensitive).</param>
        /// <returns>The socket, owned by the caller.</returns>
        /// <exception cref="ArgumentException"><paramref name="name"/> is empty.</exception>
        /// <exception cref="KeyNotFoundException">No socket of that name is configured.</exception>
        /// <exception cref="InvalidOperationException">The socket of that name was already created.</exception>
        /// <exception cref="ZmqException">A bind or connect failed (the exception names the endpoint).</exception>
        /// <exception cref="ObjectDisposedException">The host has stopped.</exception>
        public Socket Create(string name)
        {
            ArgumentException.ThrowIfNullOrEmpty(name);
            if (!_runtime.Options.Sockets.TryGetValue(name, out SocketDefinition? definition))
            {
                throw new KeyNotFoundException("No socket named '" + name + "' is configured (" + NetZeroMQOptions.SectionName + ":Sockets:" + name + ").");
            }

            var socket = new Socket(_runtime.Context, definition.Type!.Value);
            try
            {
                Configure(socket, name, definition);
                foreach (string endpoint in definition.Bind)
                {
                    socket.Bind(endpoint);
                }

                foreach (string endpoint in definition.Connect)
                {
                    socket.Connect(endpoint);
                }

                var peers = new SocketPeers(name, socket.LastEndpoint, definition.RequirePeerWithin, _runtime.Logger);
                _runtime.AddPeers(peers);
                peers.Start(socket);
                return socket;
            }
            catch
            {
                socket.Dispose();
                throw;
            }
        }

        /// <summary>The peers of the socket created under <paramref name="name"/>.</summary>
        /// <param name="name">The socket's name under <c>NetZeroMQ:Sockets</c>.</param>
        /// <returns>Its peer tracker.</returns>
        /// <exception cref="InvalidOperationException">No socket of that name was created (yet).</exception>
        public SocketPeers GetPeers(string name) =>
            _runtime.FindPeers(name) ?? throw new InvalidOperationException("No socket named '" + name + "' has been created.");

        private void Configure(Socket socket, string name, SocketDefinition definition)
        {
            socket.Linger = _runtime.Options.Linger;
            if (definition.ReceiveHighWatermark is { } receiveHighWatermark)
            {
                socket.ReceiveHighWatermark = receiveHighWatermark;
            }

            if (definition.SendHighWatermark is { } sendHighWatermark)
            {
                socket.SendHighWatermark = sendHighWatermark;
            }

            if (definition.CurveSecretKey is { } secret)
            {
                using CurveKeyPair keys = CurveKeyPair.FromSecretKey(secret);
                if (definition.CurveServerKey is { } serverKey)
                {
                    socket.SetCurveClient(keys, CurveKey.FromZ85(serverKey));
                }
                else
                {
                    _runtime.AdmitCurveClients(name, definition);
                    socket.SetCurveServer(keys, zapDomain: name);
                }
            }
        }
    }
}
