using System;

namespace NetZeroMQ
{
    /// <summary>
    /// Holds the guards of a proxy's sockets for as long as the proxy (libzmq's, or the steerable proxy's own loop) runs on
    /// them: the proxy uses the sockets from its thread, so any other thread that touches one meanwhile gets <see cref="InvalidOperationException"/>, and a Dispose of one
    /// is carried out when the proxy returns.
    /// </summary>
    internal sealed class ProxySockets
    {
        private readonly Socket?[] _sockets;
        private readonly SocketLease[] _leases;
        private int _entered;

        private ProxySockets(Socket?[] sockets)
        {
            _sockets = sockets;
            _leases = new SocketLease[sockets.Length];
        }

        internal nint Frontend { get; private set; }

        internal nint Backend { get; private set; }

        internal nint Capture { get; private set; }

        internal nint Control { get; private set; }

        /// <summary>Validates the sockets (frontend may equal backend; nothing else may repeat) without entering them.</summary>
        internal static void Validate(Socket frontend, Socket backend, Socket? capture)
        {
            if (frontend is null)
            {
                throw new ArgumentNullException(nameof(frontend));
            }

            if (backend is null)
            {
                throw new ArgumentNullException(nameof(backend));
            }

            if (capture is not null && (ReferenceEquals(capture, frontend) || ReferenceEquals(capture, backend)))
            {
                throw new ArgumentException("The capture socket must differ from the frontend and the backend.", nameof(capture));
            }
        }

        /// <summary>Enters every socket's guard (each distinct socket once); on failure releases those entered and throws.</summary>
        internal static ProxySockets Enter(Socket frontend, Socket backend, Socket? capture, Socket? control)
        {
            var held = new ProxySockets(new[] { frontend, ReferenceEquals(backend, frontend) ? null : backend, capture, control });
            try
            {
                for (; held._entered < held._sockets.Length; held._entered++)
                {
                    Socket? socket = held._sockets[held._entered];
                    if (socket is not null)
                    {
                        held._leases[held._entered] = socket.Lease();
                    }
                }
            }
            catch
            {
                held.Exit();
                throw;
            }

            held.Frontend = held.NativeOf(frontend);
            held.Backend = held.NativeOf(backend);
            held.Capture = capture is null ? 0 : held.NativeOf(capture);
            held.Control = control is null ? 0 : held.NativeOf(control);
            return held;
        }

        /// <summary>The native socket of one of the held sockets (the frontend stands for the backend when they are one socket).</summary>
        private nint NativeOf(Socket socket) => LeaseOf(socket).Native;

        /// <summary>
        /// The lease of one of the held sockets, for the managed steering loop's transfers (the frontend stands for the backend
        /// when they are one socket); valid until <see cref="Exit"/>.
        /// </summary>
        internal SocketLease LeaseOf(Socket socket) => _leases[Array.IndexOf(_sockets, socket)];

        /// <summary>Releases the guards; a socket disposed while the proxy ran is closed here.</summary>
        internal void Exit()
        {
            for (int i = _entered - 1; i >= 0; i--)
            {
                _leases[i].Dispose();
                _leases[i] = default;
            }

            _entered = 0;
        }
    }
}
