using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace NetZeroMQ.Hosting
{
    /// <summary>
    /// The health of NetZeroMQ in the host: Unhealthy when the context is shut down (the host is stopping, or someone shut it
    /// down) or a worker's receive loop stopped on an error (this is how a stopped async reactor shows: every awaited receive
    /// fails); Degraded when a socket with <see cref="SocketDefinition.RequirePeerWithin"/> has had no peer for longer than
    /// that; otherwise Healthy. The data holds each named socket's peer count.
    /// </summary>
    internal sealed class NetZeroMQHealthCheck : IHealthCheck
    {
        private readonly NetZeroMQRuntime _runtime;

        public NetZeroMQHealthCheck(NetZeroMQRuntime runtime) => _runtime = runtime;

        public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
        {
            var data = new Dictionary<string, object>();
            SocketPeers[] sockets = _runtime.AllPeers();
            foreach (SocketPeers peers in sockets)
            {
                data[peers.Name + ".peers"] = peers.Count;
            }

            if (_runtime.HasStopped || _runtime.ContextIfCreated is { IsShutdown: true })
            {
                return Task.FromResult(new HealthCheckResult(context.Registration.FailureStatus, "The NetZeroMQ context is shut down.", data: data));
            }

            foreach (KeyValuePair<string, string> fault in _runtime.Faults)
            {
                return Task.FromResult(new HealthCheckResult(
                    context.Registration.FailureStatus, "The receive loop of socket '" + fault.Key + "' stopped: " + fault.Value, data: data));
            }

            DateTimeOffset now = DateTimeOffset.UtcNow;
            var lonely = new List<string>();
            foreach (SocketPeers peers in sockets)
            {
                if (peers.RequirePeerWithin is { } within && peers.NoPeerSince is { } since && now - since > within)
                {
                    lonely.Add(peers.Name);
                }
            }

            return Task.FromResult(lonely.Count > 0
                ? HealthCheckResult.Degraded("No peer for longer than allowed on: " + string.Join(", ", lonely) + ".", data: data)
                : HealthCheckResult.Healthy(sockets.Length + " sockets", data));
        }
    }
}
