using System;
using System.Collections.Generic;
using Microsoft.Extensions.Options;

namespace NetZeroMQ.Hosting
{
    /// <summary>
    /// Checks <see cref="NetZeroMQOptions"/> when the host starts (<c>ValidateOnStart</c>). Every failure names its
    /// configuration key (<c>NetZeroMQ:Sockets:frontend:Bind:0</c>), so that the exception says what to fix.
    /// </summary>
    internal sealed class NetZeroMQOptionsValidator : IValidateOptions<NetZeroMQOptions>
    {
        /// <summary>The longest linger accepted: the stop must stay within a host's shutdown timeout (30 s by default).</summary>
        internal static readonly TimeSpan MaxLinger = TimeSpan.FromMinutes(1);

        private const string Prefix = NetZeroMQOptions.SectionName + ":";

        public ValidateOptionsResult Validate(string? name, NetZeroMQOptions options)
        {
            var failures = new List<string>(options.BindingErrors);
            if (options.IOThreads is < 0)
            {
                failures.Add(Prefix + "IOThreads: must be 0 or more (was " + options.IOThreads + ").");
            }

            if (options.MaxSockets is < 1)
            {
                failures.Add(Prefix + "MaxSockets: must be 1 or more (was " + options.MaxSockets + ").");
            }

            if (options.Linger < TimeSpan.Zero || options.Linger > MaxLinger)
            {
                failures.Add(Prefix + "Linger: must be between 00:00:00 and " + MaxLinger + " (was " + options.Linger + ").");
            }

            foreach (KeyValuePair<string, SocketDefinition> entry in options.Sockets)
            {
                ValidateSocket(Prefix + "Sockets:" + entry.Key + ":", entry.Value, failures);
            }

            return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
        }

        private static void ValidateSocket(string key, SocketDefinition socket, List<string> failures)
        {
            if (socket.Type is not { } type)
            {
                failures.Add(key + "Type: required (Pair, Pub, Sub, Req, Rep, Dealer, Router, Pull, Push, XPub, XSub, Stream).");
            }
            else if (!Enum.IsDefined(type))
            {
                failures.Add(key + "Type: '" + type + "' is not a socket type.");
            }

            ValidateEndpoints(key + "Bind:", socket.Bind, failures);
            ValidateEndpoints(key + "Connect:", socket.Connect, failures);
            if (socket.Bind.Count + socket.Connect.Count == 0)
            {
                failures.Add(key + "Bind: a socket needs at least one endpoint to bind or connect to.");
            }

            ValidateKey(key + "CurveSecretKey", socket.CurveSecretKey, failures);
            ValidateKey(key + "CurveServerKey", socket.CurveServerKey, failures);
            if (socket.CurveServerKey is not null && socket.CurveSecretKey is null)
            {
                failures.Add(key + "CurveSecretKey: a CURVE client (CurveServerKey is set) needs its own secret key.");
            }

            for (int i = 0; i < socket.CurveClientKeys.Count; i++)
            {
                ValidateKey(key + "CurveClientKeys:" + i, socket.CurveClientKeys[i], failures);
            }

            bool curveServer = socket.CurveSecretKey is not null && socket.CurveServerKey is null;
            if (curveServer && socket.CurveClientKeys.Count == 0 && !socket.AllowAnyCurveClient)
            {
                failures.Add(key + "CurveClientKeys: a CURVE server admits no client without the clients' public keys (or AllowAnyCurveClient: true).");
            }
            else if (!curveServer && (socket.CurveClientKeys.Count > 0 || socket.AllowAnyCurveClient))
            {
                failures.Add(key + "CurveClientKeys: only a CURVE server (CurveSecretKey without CurveServerKey) admits clients.");
            }

            if (socket.RequirePeerWithin is { } within && within <= TimeSpan.Zero)
            {
                failures.Add(key + "RequirePeerWithin: must be positive (was " + within + ").");
            }

            if (!Enum.IsDefined(socket.HandlerErrors))
            {
                failures.Add(key + "HandlerErrors: '" + socket.HandlerErrors + "' is not LogAndContinue or StopHost.");
            }

            if (socket.ReceiveHighWatermark is < 0)
            {
                failures.Add(key + "ReceiveHighWatermark: must be 0 or more (was " + socket.ReceiveHighWatermark + ").");
            }

            if (socket.SendHighWatermark is < 0)
            {
                failures.Add(key + "SendHighWatermark: must be 0 or more (was " + socket.SendHighWatermark + ").");
            }
        }

        private static void ValidateEndpoints(string key, IList<string> endpoints, List<string> failures)
        {
            for (int i = 0; i < endpoints.Count; i++)
            {
                string endpoint = endpoints[i];
                int scheme = string.IsNullOrWhiteSpace(endpoint) ? -1 : endpoint.IndexOf("://", StringComparison.Ordinal);
                if (scheme <= 0 || scheme + 3 == endpoint.Length)
                {
                    failures.Add(key + i + ": '" + endpoint + "' is not an endpoint (transport://address, e.g. tcp://127.0.0.1:5555).");
                }
            }
        }

        private static void ValidateKey(string key, string? z85, List<string> failures)
        {
            if (z85 is null)
            {
                return;
            }

            bool valid = z85.Length == 40;
            if (valid)
            {
                try
                {
                    Z85.Decode(z85);
                }
                catch (ArgumentException)
                {
                    valid = false;
                }
            }

            if (!valid)
            {
                // The value is a secret (or half of one): never repeat it.
                failures.Add(key + ": not a CURVE key (40 Z85 characters).");
            }
        }
    }
}
