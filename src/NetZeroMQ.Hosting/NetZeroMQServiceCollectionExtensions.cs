using System;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using NetZeroMQ;
using NetZeroMQ.Hosting;

namespace Microsoft.Extensions.DependencyInjection
{
    /// <summary>Adds NetZeroMQ to a service collection (the Generic Host, ASP.NET Core, Worker Services).</summary>
    public static class NetZeroMQServiceCollectionExtensions
    {
        /// <summary>
        /// Registers NetZeroMQ: one <see cref="Context"/> (a singleton, made on first use), a <see cref="SocketFactory"/> for
        /// the sockets described in configuration, <see cref="NetZeroMQOptions"/> bound from the configuration section
        /// <c>NetZeroMQ</c> and validated when the host starts, the ordered shutdown (the context shuts down as the host begins
        /// to stop, and is disposed after the hosted services stopped, within the host's shutdown timeout), and the
        /// <c>NetZeroMQ</c> event source's records in <see cref="ILogger"/>. Calling it again adds nothing but
        /// <paramref name="configure"/>.
        /// </summary>
        /// <param name="services">The service collection.</param>
        /// <param name="configure">Changes the options after configuration was bound (e.g. a socket defined in code); or null.</param>
        /// <returns>A builder to add socket workers.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
        public static NetZeroMQBuilder AddNetZeroMQ(this IServiceCollection services, Action<NetZeroMQOptions>? configure = null)
        {
            ArgumentNullException.ThrowIfNull(services);
            OptionsBuilder<NetZeroMQOptions> options = services.AddOptions<NetZeroMQOptions>();
            if (!services.Any(static d => d.ServiceType == typeof(NetZeroMQRuntime)))
            {
                options.Configure<IServiceProvider>(BindConfiguration).ValidateOnStart();
                services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<NetZeroMQOptions>, NetZeroMQOptionsValidator>());
                services.TryAddSingleton<NetZeroMQRuntime>();
                services.TryAddSingleton(static sp => new SocketFactory(sp.GetRequiredService<NetZeroMQRuntime>()));
                services.TryAddSingleton(static sp => sp.GetRequiredService<NetZeroMQRuntime>().Context);
                // First among the hosted services: its Stopping hook must run before any worker stops, its Stopped hook
                // after all of them (IHostedLifecycleService runs those hooks around every StopAsync, whatever the order).
                services.Insert(0, ServiceDescriptor.Singleton<IHostedService, NetZeroMQLifetime>());
            }

            if (configure is not null)
            {
                options.Configure(configure);
            }

            return new NetZeroMQBuilder(services);
        }

        /// <summary>
        /// Binds the <c>NetZeroMQ</c> section, turning a value the binder cannot convert into a validation failure that names
        /// its key (instead of an exception from deep inside the options factory).
        /// </summary>
        private static void BindConfiguration(NetZeroMQOptions options, IServiceProvider services)
        {
            if (services.GetService<IConfiguration>() is not { } configuration)
            {
                return;
            }

            IConfigurationSection section = configuration.GetSection(NetZeroMQOptions.SectionName);
            try
            {
                section.Bind(options);
            }
            catch (InvalidOperationException e)
            {
                options.BindingErrors.Add(e.Message);
            }
        }

        private static bool Any(this IServiceCollection services, Func<ServiceDescriptor, bool> predicate)
        {
            foreach (ServiceDescriptor descriptor in services)
            {
                if (predicate(descriptor))
                {
                    return true;
                }
            }

            return false;
        }
    }
}
