using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Hosting;

namespace NetZeroMQ.Hosting
{
    /// <summary>
    /// Ties <see cref="NetZeroMQRuntime"/> to the host's lifecycle: the <c>Starting</c>/<c>Stopping</c>/<c>Stopped</c> hooks
    /// of <see cref="IHostedLifecycleService"/> run before every hosted service's start, before every hosted service's stop and
    /// after all of them stopped, which is the order the context needs (see the numbered note on the runtime).
    /// </summary>
    internal sealed class NetZeroMQLifetime : IHostedLifecycleService
    {
        private readonly NetZeroMQRuntime _runtime;

        public NetZeroMQLifetime(NetZeroMQRuntime runtime) => _runtime = runtime;

        public Task StartingAsync(CancellationToken cancellationToken)
        {
            _runtime.Starting();
            return Task.CompletedTask;
        }

        public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

        public Task StartedAsync(CancellationToken cancellationToken) => Task.CompletedTask;

        public Task StoppingAsync(CancellationToken cancellationToken)
        {
            _runtime.Stopping();
            return Task.CompletedTask;
        }

        public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

        public Task StoppedAsync(CancellationToken cancellationToken) => _runtime.StoppedAsync(cancellationToken);
    }
}
