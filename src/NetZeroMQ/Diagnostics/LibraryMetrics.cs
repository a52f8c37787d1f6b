using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Runtime.CompilerServices;

namespace NetZeroMQ
{
    /// <summary>
    /// The <c>NetZeroMQ</c> meter and its instruments (listed in <see cref="ZmqTelemetry"/>). Every instrument is observable:
    /// the counts are kept where things happen (per-socket plain counters, <see cref="SocketTraffic"/>; process-wide counts of
    /// rare events, <see cref="TelemetryCounters"/> and <see cref="ResourceCounters"/>) and read only when a listener collects,
    /// so a message costs nothing more than the two additions its socket makes.
    /// </summary>
    internal static class LibraryMetrics
    {
        private const string SocketTypeTag = "netzeromq.socket.type";

        private static Meter? s_meter;

        /// <summary>
        /// Creates the meter when the library is loaded. A meter must exist for tools to see it, and the core may not call a
        /// feature to create it, so the library's module initializer does (once, before any of its types is used). Metrics
        /// must never break the library: if the platform's metrics cannot start, there are none.
        /// </summary>
#pragma warning disable CA2255 // A module initializer in a library: the meter has to exist before any socket is made, see above.
        [ModuleInitializer]
#pragma warning restore CA2255
        internal static void Start()
        {
            try
            {
                s_meter ??= Create();
            }
            catch (Exception)
            {
                // No metrics rather than a library that cannot load.
            }
        }

        private static Meter Create()
        {
            var meter = new Meter(ZmqTelemetry.MeterName, typeof(LibraryMetrics).Assembly.GetName().Version?.ToString());
            meter.CreateObservableUpDownCounter(
                "netzeromq.contexts", () => ResourceCounters.Snapshot().LiveContexts, "{context}", "Contexts not yet terminated.");
            meter.CreateObservableUpDownCounter(
                "netzeromq.sockets", () => PerSocketType(static t => t.Open), "{socket}", "Sockets open now.");
            meter.CreateObservableCounter(
                "netzeromq.messages.sent", () => PerSocketType(static t => t.FramesSent), "{message}", "Frames (message parts) sent.");
            meter.CreateObservableCounter(
                "netzeromq.messages.received", () => PerSocketType(static t => t.FramesReceived), "{message}", "Frames (message parts) received.");
            meter.CreateObservableCounter(
                "netzeromq.bytes.sent", () => PerSocketType(static t => t.BytesSent), "By", "Bytes of the frames sent.");
            meter.CreateObservableCounter(
                "netzeromq.bytes.received", () => PerSocketType(static t => t.BytesReceived), "By", "Bytes of the frames received.");
            meter.CreateObservableCounter(
                "netzeromq.would_block", () => PerSocketType(static t => t.WouldBlock), "{attempt}",
                "Sends and receives that found the socket not ready (EAGAIN).");
            meter.CreateObservableCounter("netzeromq.errors", Errors, "{error}", "ZmqExceptions raised for failed libzmq calls.");
            meter.CreateObservableUpDownCounter(
                "netzeromq.zerocopy.buffers", () => (long)ReleaseSlots.Outstanding, "{buffer}", "Zero-copy buffers libzmq still holds.");
            meter.CreateObservableUpDownCounter(
                "netzeromq.async.pending", () => TelemetryCounters.PendingAsyncOperations, "{operation}",
                "Async sends and receives waiting for their socket.");
            meter.CreateObservableCounter("netzeromq.zap.decisions", ZapDecisions, "{decision}", "ZAP requests answered.");
            return meter;
        }

        /// <summary>One measurement per socket type that has had a socket, read from the registry at once.</summary>
        private static IEnumerable<Measurement<long>> PerSocketType(Func<TrafficTotals, long> field)
        {
            var totals = new TrafficTotals[SocketTrafficRegistry.TypeCount];
            SocketTrafficRegistry.Read(totals);
            var measurements = new List<Measurement<long>>();
            for (int type = 0; type < totals.Length; type++)
            {
                if (totals[type].Opened > 0)
                {
                    measurements.Add(new Measurement<long>(field(totals[type]), new KeyValuePair<string, object?>(SocketTypeTag, SocketTypeNames.Of(type))));
                }
            }

            return measurements;
        }

        /// <summary>One measurement per <see cref="ZmqError"/> that happened.</summary>
        private static IEnumerable<Measurement<long>> Errors()
        {
            var measurements = new List<Measurement<long>>();
            for (int i = 0; i < TelemetryCounters.ErrorCount; i++)
            {
                long count = TelemetryCounters.Errors((ZmqError)i);
                if (count > 0)
                {
                    measurements.Add(new Measurement<long>(count, new KeyValuePair<string, object?>("error.type", ((ZmqError)i).ToString())));
                }
            }

            return measurements;
        }

        /// <summary>One measurement per mechanism and outcome that happened.</summary>
        private static IEnumerable<Measurement<long>> ZapDecisions()
        {
            var measurements = new List<Measurement<long>>();
            for (int mechanism = 0; mechanism < TelemetryCounters.ZapMechanisms.Length; mechanism++)
            {
                foreach (bool allowed in new[] { true, false })
                {
                    long count = TelemetryCounters.ZapDecisions(mechanism, allowed);
                    if (count > 0)
                    {
                        measurements.Add(new Measurement<long>(
                            count,
                            new KeyValuePair<string, object?>("netzeromq.zap.mechanism", TelemetryCounters.ZapMechanisms[mechanism]),
                            new KeyValuePair<string, object?>("netzeromq.zap.decision", allowed ? "allowed" : "denied")));
                    }
                }
            }

            return measurements;
        }
    }
}
