using System.Collections.Generic;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using NetZeroMQ.Hosting;

namespace Microsoft.Extensions.DependencyInjection
{
    /// <summary>Adds NetZeroMQ's health check (<c>services.AddHealthChecks().AddNetZeroMQ()</c>).</summary>
    public static class NetZeroMQHealthChecksBuilderExtensions
    {
        /// <summary>
        /// Adds the NetZeroMQ health check: Unhealthy when the context is shut down or a worker's receive loop stopped on an
        /// error (a stopped async reactor, for one); Degraded when a socket configured with <c>RequirePeerWithin</c> has had
        /// no peer for longer than that; Healthy otherwise. Needs <c>services.AddNetZeroMQ()</c>.
        /// </summary>
        /// <param name="builder">The health checks builder.</param>
        /// <param name="name">The check's name. Default: <c>netzeromq</c>.</param>
        /// <param name="failureStatus">What an unhealthy result reports; null: <see cref="HealthStatus.Unhealthy"/>.</param>
        /// <param name="tags">Tags to filter checks by (e.g. <c>ready</c>); or null.</param>
        /// <returns>The builder.</returns>
        public static IHealthChecksBuilder AddNetZeroMQ(
            this IHealthChecksBuilder builder, string name = "netzeromq", HealthStatus? failureStatus = null, IEnumerable<string>? tags = null)
        {
            System.ArgumentNullException.ThrowIfNull(builder);
            return builder.Add(new HealthCheckRegistration(
                name, static sp => new NetZeroMQHealthCheck(sp.GetRequiredService<NetZeroMQRuntime>()), failureStatus, tags));
        }
    }
}
