using System;
using System.Diagnostics.CodeAnalysis;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;

namespace NetZeroMQ.Hosting
{
    /// <summary>What <c>services.AddNetZeroMQ()</c> returns: adds socket workers to the registration.</summary>
    public sealed class NetZeroMQBuilder
    {
        internal NetZeroMQBuilder(IServiceCollection services) => Services = services;

        /// <summary>The service collection the package was added to.</summary>
        public IServiceCollection Services { get; }

        /// <summary>
        /// Adds a worker (a hosted service) that creates the socket named <paramref name="socketName"/> in configuration,
        /// receives on it in an async loop and hands each message to a <typeparamref name="THandler"/> (made once, with
        /// constructor injection). See <see cref="ISocketHandler"/> for the handler's rules and
        /// <see cref="SocketDefinition.HandlerErrors"/> for a handler that throws.
        /// </summary>
        /// <typeparam name="THandler">The handler type.</typeparam>
        /// <param name="socketName">The socket's name under <c>NetZeroMQ:Sockets</c>; it must be configured (checked at start).</param>
        /// <returns>This builder.</returns>
        /// <exception cref="ArgumentException"><paramref name="socketName"/> is empty.</exception>
        public NetZeroMQBuilder AddSocketWorker<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] THandler>(string socketName)
            where THandler : class, ISocketHandler
        {
            ArgumentException.ThrowIfNullOrEmpty(socketName);
            Services.TryAddSingleton<THandler>();
            Services.AddSingleton<IHostedService>(sp => new SocketWorker<THandler>(socketName, sp));
            Services.AddOptions<NetZeroMQOptions>().Validate(
                options => options.Sockets.ContainsKey(socketName),
                NetZeroMQOptions.SectionName + ":Sockets:" + socketName + ": a socket worker uses this socket, but it is not configured.");
            return this;
        }
    }
}
