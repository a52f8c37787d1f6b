using System;
using System.Collections.Generic;

namespace NetZeroMQ.Hosting
{
    /// <summary>
    /// The options of <c>services.AddNetZeroMQ()</c>, bound from the configuration section <c>NetZeroMQ</c>
    /// (<see cref="SectionName"/>) and validated when the host starts: a bad value stops the host with an
    /// <see cref="Microsoft.Extensions.Options.OptionsValidationException"/> that names the key, before any socket exists.
    /// </summary>
    /// <remarks>
    /// <code>
    /// "NetZeroMQ": {
    ///   "IOThreads": 1,
    ///   "Linger": "00:00:01",
    ///   "Sockets": {
    ///     "frontend": { "Type": "Router", "Bind": [ "tcp://*:5555" ], "RequirePeerWithin": "00:00:30" }
    ///   }
    /// }
    /// </code>
    /// </remarks>
    public sealed class NetZeroMQOptions
    {
        /// <summary>The configuration section the options are bound from: <c>NetZeroMQ</c>.</summary>
        public const string SectionName = "NetZeroMQ";

        /// <summary>libzmq's I/O threads of the context (<see cref="Context.IOThreads"/>), 0 or more; null keeps libzmq's default (1).</summary>
        public int? IOThreads { get; set; }

        /// <summary>The most sockets the context may have (<see cref="Context.MaxSockets"/>), 1 or more; null keeps libzmq's default.</summary>
        public int? MaxSockets { get; set; }

        /// <summary>
        /// How long queued outgoing messages may delay the shutdown: the linger of every socket of the context
        /// (<see cref="Context.DefaultLinger"/>), 0 up to one minute. Default: one second. It bounds the context's termination
        /// when the host stops; an infinite linger is refused, since it could hang the stop.
        /// </summary>
        public TimeSpan Linger { get; set; } = Context.StandardLinger;

        /// <summary>The named sockets (<c>NetZeroMQ:Sockets:&lt;name&gt;</c>), created by <see cref="SocketFactory.Create"/> and by socket workers.</summary>
        public IDictionary<string, SocketDefinition> Sockets { get; } = new Dictionary<string, SocketDefinition>(StringComparer.OrdinalIgnoreCase);

        /// <summary>What the configuration binder could not convert, as "key: message", reported by the validator (by key).</summary>
        internal List<string> BindingErrors { get; } = new List<string>();
    }
}
