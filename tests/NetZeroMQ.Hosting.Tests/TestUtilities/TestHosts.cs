using System;
using System.Collections.Generic;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace NetZeroMQ.Hosting.Tests.TestUtilities
{
    /// <summary>Real Generic Hosts for the tests: in-memory configuration, the records kept, a named shutdown timeout.</summary>
    internal static class TestHosts
    {
        /// <summary>How long any single wait of a test may take before it fails (never a hang).</summary>
        internal static readonly TimeSpan Timeout = TimeSpan.FromSeconds(20);

        internal static IHost Build(
            IDictionary<string, string?> configuration, Action<IServiceCollection> services, LogRecords records, TimeSpan? shutdownTimeout = null)
        {
            HostApplicationBuilder builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
            builder.Configuration.AddInMemoryCollection(configuration);
            builder.Logging.SetMinimumLevel(LogLevel.Debug);
            builder.Logging.AddProvider(records);
            builder.Services.Configure<HostOptions>(o => o.ShutdownTimeout = shutdownTimeout ?? TimeSpan.FromSeconds(10));
            services(builder.Services);
            return builder.Build();
        }

        /// <summary>A configuration of one socket.</summary>
        internal static Dictionary<string, string?> Socket(string name, string type, string? bind = "tcp://127.0.0.1:*", string? connect = null)
        {
            var values = new Dictionary<string, string?> { ["NetZeroMQ:Sockets:" + name + ":Type"] = type };
            if (bind is not null)
            {
                values["NetZeroMQ:Sockets:" + name + ":Bind:0"] = bind;
            }

            if (connect is not null)
            {
                values["NetZeroMQ:Sockets:" + name + ":Connect:0"] = connect;
            }

            return values;
        }

        internal static Dictionary<string, string?> With(this Dictionary<string, string?> values, string key, string? value)
        {
            values[key] = value;
            return values;
        }
    }
}
