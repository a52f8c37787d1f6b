using System;
using System.Collections.Generic;

namespace NetZeroMQ
{
    /// <summary>
    /// The inproc endpoints a context's sockets connected to, kept where libzmq's <c>zmq_ctx_term</c> would crash on a connect
    /// still pending (<see cref="LibzmqVersions.TermCrashesOnPendingInprocConnect"/>: libzmq 4.1), and bound before the
    /// context shuts down.
    /// </summary>
    /// <remarks>
    /// libzmq 4.1 lets an inproc connect wait for its endpoint to be bound. <c>zmq_ctx_term</c> first binds every endpoint still
    /// waiting with a PAIR socket it makes (<c>ctx_t::terminate</c>), but after <c>zmq_ctx_shutdown</c> making a socket fails
    /// (ETERM) and it dereferences the null socket: SIGSEGV (measured on 4.1.8, in plain C too). <see cref="Context.Shutdown"/>
    /// and <see cref="Context.Dispose()"/> shut the context down before terminating it, so they first do that step themselves,
    /// while sockets can still be made: each endpoint is bound by a PAIR that is closed at once (an endpoint a socket bound
    /// refuses it with EADDRINUSE, and has nothing pending). 4.2 dropped the step.
    /// </remarks>
    internal sealed unsafe class PendingInprocConnects
    {
        private readonly HashSet<string> _endpoints = new HashSet<string>(StringComparer.Ordinal); // connected to since the last BindAll

        /// <summary>Remembers an inproc endpoint a socket of the context connected to.</summary>
        internal void Add(string endpoint)
        {
            lock (_endpoints)
            {
                _endpoints.Add(endpoint);
            }
        }

        /// <summary>Binds and unbinds every remembered endpoint once, before the caller shuts <paramref name="context"/> down.</summary>
        internal void BindAll(nint context)
        {
            string[] endpoints;
            lock (_endpoints)
            {
                endpoints = new string[_endpoints.Count];
                _endpoints.CopyTo(endpoints);
                _endpoints.Clear();
            }

            foreach (string endpoint in endpoints)
            {
                BindOnce(context, endpoint);
            }
        }

        private static void BindOnce(nint context, string endpoint)
        {
            // A PAIR, as libzmq 4.1's own step makes. No socket (every slot in use, or the context already shut down): nothing
            // more can be done here.
            nint pair = Interop.Zmq.zmq_socket(context, (int)SocketType.Pair);
            if (pair == 0)
            {
                return;
            }

            int linger = 0;
            Interop.Zmq.zmq_setsockopt(pair, SocketOptions.Linger.Id, &linger, sizeof(int));
            using var text = new Utf8.CString(endpoint, stackalloc byte[Utf8.StackLimit]);
            fixed (byte* p = text)
            {
                Interop.Zmq.zmq_bind(pair, p);
            }

            Interop.Zmq.zmq_close(pair);
        }
    }
}
