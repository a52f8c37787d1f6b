using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace NetZeroMQ.Hosting
{
    /// <summary>
    /// The one owner of everything the package creates in a host: the <see cref="Context"/> (made on first use, after the
    /// options were validated), the peer trackers of named sockets, the workers' failures, the event-source logger. Its
    /// lifecycle is driven by <see cref="NetZeroMQLifetime"/>:
    /// 1. host starting: the event-source logger starts (before any socket, so that every bind is logged);
    /// 2. host stopping, before any hosted service's StopAsync: the context shuts down, so pending and future receives end
    ///    (workers leave their loops and close their sockets with the configured linger);
    /// 3. host stopped, after every hosted service stopped (or the shutdown timeout passed): the peer monitors end, then the
    ///    context is disposed (closing what is still open, bounded by the linger) on a thread-pool thread, awaited only
    ///    until the host's shutdown timeout; a termination that takes longer goes on in the background and is logged.
    /// </summary>
    internal sealed class NetZeroMQRuntime : IDisposable
    {
        private readonly IOptions<NetZeroMQOptions> _options;
        private readonly ILoggerFactory _loggerFactory;
        private readonly object _gate = new object();
        private readonly Dictionary<string, SocketPeers> _peers = new Dictionary<string, SocketPeers>(StringComparer.OrdinalIgnoreCase);
        private readonly ConcurrentDictionary<string, string> _faults = new ConcurrentDictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        private Context? _context;                 // made on first use; disposed when the host has stopped
        private EventSourceLogger? _eventLog;      // from the host's start until it stopped
        private ZapAuthenticator? _authenticator;  // made with the first CURVE server; disposed before the context
        private int _stopped;

        public NetZeroMQRuntime(IOptions<NetZeroMQOptions> options, ILoggerFactory loggerFactory)
        {
            _options = options;
            _loggerFactory = loggerFactory;
            Logger = loggerFactory.CreateLogger("NetZeroMQ.Hosting");
        }

        internal ILogger Logger { get; }

        internal NetZeroMQOptions Options => _options.Value;

        /// <summary>The context, made on first use from the validated options.</summary>
        /// <exception cref="ObjectDisposedException">The host has stopped.</exception>
        internal Context Context
        {
            get
            {
                if (Volatile.Read(ref _context) is { } context)
                {
                    return context;
                }

                lock (_gate)
                {
                    ObjectDisposedException.ThrowIf(_stopped != 0, this);
                    if (_context is null)
                    {
                        NetZeroMQOptions options = Options;
                        var created = new Context();
                        try
                        {
                            if (options.IOThreads is { } ioThreads)
                            {
                                created.IOThreads = ioThreads;
                            }

                            if (options.MaxSockets is { } maxSockets)
                            {
                                created.MaxSockets = maxSockets;
                            }

                            created.DefaultLinger = options.Linger;
                        }
                        catch
                        {
                            created.Dispose();
                            throw;
                        }

                        Volatile.Write(ref _context, created);
                    }

                    return _context;
                }
            }
        }

        /// <summary>The context if it was made, else null (the health check must not make one).</summary>
        internal Context? ContextIfCreated => Volatile.Read(ref _context);

        internal bool HasStopped => Volatile.Read(ref _stopped) != 0;

        /// <summary>The workers whose receive loop ended on an error, with the reason.</summary>
        internal IReadOnlyDictionary<string, string> Faults => _faults;

        internal void AddPeers(SocketPeers peers)
        {
            lock (_gate)
            {
                if (!_peers.TryAdd(peers.Name, peers))
                {
                    throw new InvalidOperationException("The socket '" + peers.Name + "' was already created; each named socket is created once.");
                }
            }
        }

        internal SocketPeers? FindPeers(string name)
        {
            lock (_gate)
            {
                return _peers.TryGetValue(name, out SocketPeers? peers) ? peers : null;
            }
        }

        internal SocketPeers[] AllPeers()
        {
            lock (_gate)
            {
                var all = new SocketPeers[_peers.Count];
                _peers.Values.CopyTo(all, 0);
                return all;
            }
        }

        /// <summary>Lets the host's ZAP authenticator admit a CURVE server's configured clients (its ZAP domain is its name).</summary>
        internal void AdmitCurveClients(string name, SocketDefinition definition)
        {
            lock (_gate)
            {
                _authenticator ??= new ZapAuthenticator(Context);
                ZapPolicy policy = _authenticator.ForDomain(name);
                if (definition.AllowAnyCurveClient)
                {
                    policy.AllowAnyCurveClient();
                }

                foreach (string key in definition.CurveClientKeys)
                {
                    policy.AllowCurveKey(CurveKey.FromZ85(key));
                }
            }
        }

        internal void ReportFault(string socketName, Exception exception) => _faults[socketName] = exception.Message;

        /// <summary>Step 1: the host is starting.</summary>
        internal void Starting()
        {
            lock (_gate)
            {
                _eventLog ??= new EventSourceLogger(_loggerFactory.CreateLogger(ZmqTelemetry.EventSourceName));
            }
        }

        /// <summary>Step 2: the host begins to stop.</summary>
        internal void Stopping()
        {
            foreach (SocketPeers peers in AllPeers())
            {
                peers.Stop();
            }

            if (ContextIfCreated is { } context && !context.IsDisposed)
            {
                context.Shutdown();
                Log.ContextShutDown(Logger);
            }
        }

        /// <summary>Step 3: every hosted service has stopped (or the shutdown timeout passed, then the token is cancelled).</summary>
        internal async Task StoppedAsync(CancellationToken cancellationToken)
        {
            Context? context;
            lock (_gate)
            {
                _stopped = 1;
                context = _context;
            }

            ZapAuthenticator? authenticator = _authenticator;

            Task termination = Task.Run(() =>
            {
                foreach (SocketPeers peers in AllPeers())
                {
                    peers.Stop();
                    peers.Join(TimeSpan.FromSeconds(1));
                }

                authenticator?.Dispose();
                context?.Dispose();
                _eventLog?.Dispose();
            });
            try
            {
                await termination.WaitAsync(cancellationToken).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                Log.ContextTerminationTimedOut(Logger);
            }
        }

        /// <summary>The container's disposal: the last resort when the host never ran its stop (the context ends either way).</summary>
        public void Dispose()
        {
            Volatile.Write(ref _stopped, 1);
            foreach (SocketPeers peers in AllPeers())
            {
                peers.Stop();
            }

            _authenticator?.Dispose();
            Volatile.Read(ref _context)?.Dispose();
            _eventLog?.Dispose();
        }
    }
}
