using System;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Logging;

namespace NetZeroMQ.Hosting
{
    /// <summary>
    /// Whether a named socket has peers: how many connections completed their ZMTP handshake and are still up, an event when
    /// that changes, and <see cref="WaitForPeerAsync"/>. Built on a socket monitor (<see cref="SocketMonitor"/>) read by a
    /// background thread of its own; made by <see cref="SocketFactory.Create"/> for every named socket.
    /// </summary>
    /// <remarks>
    /// A peer counts from its handshake (<see cref="MonitorEvents.HandshakeSucceeded"/>) until its disconnection; a
    /// connection whose handshake failed never counts. tcp and ipc report these events; inproc connections report none, so an
    /// inproc socket's count stays 0. A libzmq that never reports a handshake's success (4.2 release builds; the monitor
    /// refuses it there) counts a peer from its connection (<see cref="MonitorEvents.Connected"/> or
    /// <see cref="MonitorEvents.Accepted"/>) until its handshake fails or it disconnects. Thread-safe.
    /// </remarks>
    public sealed class SocketPeers
    {
        /// <summary>How long one monitor read waits before checking whether tracking stopped.</summary>
        private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(200);

        private readonly ILogger _logger;
        private readonly object _gate = new object();
        private SocketMonitor? _monitor;           // owned by the reading thread, which disposes it as it ends
        private Thread? _thread;
        private TaskCompletionSource _peerArrived = NewSignal();
        private int _count;
        private int _failedHandshakes;             // failed handshakes whose Disconnected event is still to come
        private bool _countsConnections;           // libzmq never reports a handshake's success: peers count from their connection
        private DateTimeOffset? _noPeerSince;
        private volatile bool _stopping;

        internal SocketPeers(string name, string lastEndpoint, TimeSpan? requirePeerWithin, ILogger logger)
        {
            Name = name;
            LastEndpoint = lastEndpoint;
            RequirePeerWithin = requirePeerWithin;
            _logger = logger;
            _noPeerSince = DateTimeOffset.UtcNow;
        }

        /// <summary>Raised on the monitor's thread after <see cref="Count"/> changed; the argument is the new count.</summary>
        public event EventHandler<int>? Changed;

        /// <summary>The socket's name in configuration.</summary>
        public string Name { get; }

        /// <summary>The socket's last endpoint once it was bound and connected (the port a wildcard bind chose, for example).</summary>
        public string LastEndpoint { get; }

        /// <summary>The configured time the socket may be without a peer before the health check reports Degraded, or null.</summary>
        public TimeSpan? RequirePeerWithin { get; }

        /// <summary>The peers connected now (handshake completed, not yet disconnected).</summary>
        public int Count => Volatile.Read(ref _count);

        /// <summary>Since when the socket has had no peer (since its creation if it never had one), or null while it has one.</summary>
        public DateTimeOffset? NoPeerSince
        {
            get
            {
                lock (_gate)
                {
                    return _noPeerSince;
                }
            }
        }

        /// <summary>Waits until the socket has at least one peer.</summary>
        /// <param name="timeout">How long to wait at most; <see cref="Timeout.InfiniteTimeSpan"/> to wait until cancelled.</param>
        /// <param name="cancellationToken">Ends the wait with <see cref="OperationCanceledException"/>.</param>
        /// <returns>True when a peer is there (at once if one already is); false when <paramref name="timeout"/> passed first.</returns>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite).</exception>
        /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled.</exception>
        public async Task<bool> WaitForPeerAsync(TimeSpan timeout, CancellationToken cancellationToken = default)
        {
            if (timeout < TimeSpan.Zero && timeout != Timeout.InfiniteTimeSpan)
            {
                throw new ArgumentOutOfRangeException(nameof(timeout), timeout, "The timeout must be 0 or more, or infinite.");
            }

            Task arrived;
            lock (_gate)
            {
                if (_count > 0)
                {
                    return true;
                }

                arrived = _peerArrived.Task;
            }

            try
            {
                await arrived.WaitAsync(timeout, cancellationToken).ConfigureAwait(false);
                return true;
            }
            catch (TimeoutException)
            {
                return false;
            }
        }

        /// <inheritdoc/>
        public override string ToString() => "SocketPeers(" + Name + ", " + Count + " peers)";

        /// <summary>Starts monitoring; called by the factory on the thread that owns the socket (a monitor's start uses it).</summary>
        internal void Start(Socket socket)
        {
            try
            {
                _monitor = socket.Monitor(MonitorEvents.HandshakeSucceeded | MonitorEvents.HandshakeFailed | MonitorEvents.Disconnected);
            }
            catch (NotSupportedException)
            {
                // The loaded libzmq never sends some of these (a 4.2 release build never reports a success): every event it
                // sends instead, a peer counted from its connection.
                _countsConnections = true;
                _monitor = socket.Monitor(MonitorEvents.All);
            }

            using (ExecutionContext.SuppressFlow())
            {
                _thread = new Thread(Run) { Name = "NetZeroMQ peers " + Name, IsBackground = true };
                _thread.Start();
            }
        }

        /// <summary>Asks the monitor thread to end (it ends within one poll interval, or at once when the context shuts down).</summary>
        internal void Stop() => _stopping = true;

        /// <summary>Waits for the monitor thread to end, at most <paramref name="timeout"/>.</summary>
        internal bool Join(TimeSpan timeout) => _thread is null || _thread.Join(timeout);

        private void Run()
        {
            SocketMonitor monitor = _monitor!;
            try
            {
                while (!_stopping)
                {
                    if (monitor.TryRecv(PollInterval, out MonitorEvent? monitorEvent))
                    {
                        // MonitorEvent.Kind holds one flag of MonitorEvents; the cast keeps this independent of the enum
                        // type that spells it.
                        On((MonitorEvents)(int)monitorEvent.Kind);
                    }
                }
            }
            catch (ZmqException e)
            {
                // The context shut down (the host is stopping): the normal end. Anything else is reported.
                if (e.Error != ZmqError.ContextTerminated && !_stopping)
                {
                    Log.PeerMonitorFailed(_logger, Name, e.Message);
                }
            }
            catch (ObjectDisposedException)
            {
                // The monitored socket or the context was disposed under the monitor: tracking ends with it.
            }
            finally
            {
                monitor.Dispose();
            }
        }

        private void On(MonitorEvents kind)
        {
            int count;
            lock (_gate)
            {
                bool arrived = _countsConnections
                    ? kind == MonitorEvents.Connected || kind == MonitorEvents.Accepted
                    : kind == MonitorEvents.HandshakeSucceeded;
                if (arrived)
                {
                    count = ++_count;
                    _noPeerSince = null;
                    _peerArrived.TrySetResult();
                }
                else if ((kind & MonitorEvents.HandshakeFailed) != 0)
                {
                    _failedHandshakes++;
                    if (!_countsConnections || _count == 0)
                    {
                        return;
                    }

                    // Counted from its connection: it leaves the count now, and its Disconnected is skipped.
                    count = Departed();
                }
                else if (kind != MonitorEvents.Disconnected)
                {
                    return;
                }
                else if (_failedHandshakes > 0)
                {
                    // The disconnection that follows a failed handshake: that connection never counted.
                    _failedHandshakes--;
                    return;
                }
                else if (_count > 0)
                {
                    count = Departed();
                }
                else
                {
                    return;
                }
            }

            Log.PeersChanged(_logger, Name, count);
            Changed?.Invoke(this, count);
        }

        /// <summary>A counted peer left; the caller holds <see cref="_gate"/>. Returns the new count.</summary>
        private int Departed()
        {
            int count = --_count;
            if (count == 0)
            {
                _noPeerSince = DateTimeOffset.UtcNow;
                _peerArrived = NewSignal();
            }

            return count;
        }

        private static TaskCompletionSource NewSignal() => new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
    }
}
