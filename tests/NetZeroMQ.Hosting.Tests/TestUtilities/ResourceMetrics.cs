using System;
using System.Diagnostics.Metrics;
using System.Threading;
using System.Threading.Tasks;

namespace NetZeroMQ.Hosting.Tests.TestUtilities
{
    /// <summary>
    /// The NetZeroMQ meter's resource counts (<c>netzeromq.sockets</c>, <c>netzeromq.contexts</c>), read as a metrics tool
    /// would: process-wide, which is why this assembly runs its tests one at a time (xunit.runner.json).
    /// </summary>
    internal static class ResourceMetrics
    {
        internal static (long Sockets, long Contexts) Read()
        {
            long sockets = 0;
            long contexts = 0;
            using var listener = new MeterListener();
            listener.InstrumentPublished = (instrument, l) =>
            {
                if (instrument.Meter.Name == ZmqTelemetry.MeterName && instrument.Name is "netzeromq.sockets" or "netzeromq.contexts")
                {
                    l.EnableMeasurementEvents(instrument);
                }
            };
            listener.SetMeasurementEventCallback<long>((instrument, value, tags, state) =>
            {
                if (instrument.Name == "netzeromq.sockets")
                {
                    Interlocked.Add(ref sockets, value);
                }
                else
                {
                    Interlocked.Add(ref contexts, value);
                }
            });
            listener.SetMeasurementEventCallback<int>((instrument, value, tags, state) =>
            {
                if (instrument.Name == "netzeromq.sockets")
                {
                    Interlocked.Add(ref sockets, value);
                }
                else
                {
                    Interlocked.Add(ref contexts, value);
                }
            });
            listener.Start();
            listener.RecordObservableInstruments();
            return (sockets, contexts);
        }

        /// <summary>Waits until no socket and no context is open (a context's termination may finish just after a stop).</summary>
        internal static async Task<(long Sockets, long Contexts)> WaitForNoneOpenAsync()
        {
            DateTime end = DateTime.UtcNow + TestHosts.Timeout;
            (long Sockets, long Contexts) counts = Read();
            while ((counts.Sockets != 0 || counts.Contexts != 0) && DateTime.UtcNow < end)
            {
                await Task.Delay(20);
                counts = Read();
            }

            return counts;
        }
    }
}
