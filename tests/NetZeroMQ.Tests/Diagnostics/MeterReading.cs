using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Linq;

namespace NetZeroMQ.Tests.Diagnostics
{
    /// <summary>
    /// Reads the NetZeroMQ meter the way a tool does: a <see cref="MeterListener"/> that enables every instrument of the meter
    /// and collects the observable ones on demand. Each reading is a map from <c>name{tag=value,...}</c> (tags sorted) to the
    /// value, which is also how a child process prints it for its parent.
    /// </summary>
    internal sealed class MeterReading : IDisposable
    {
        private readonly MeterListener _listener = new MeterListener();
        private readonly HashSet<string> _instruments = new HashSet<string>();
        private Dictionary<string, long> _current = new Dictionary<string, long>();

        internal MeterReading()
        {
            _listener.InstrumentPublished = (instrument, listener) =>
            {
                if (instrument.Meter.Name == ZmqTelemetry.MeterName)
                {
                    lock (_instruments)
                    {
                        _instruments.Add(instrument.Name + " (" + instrument.Unit + ")");
                    }

                    listener.EnableMeasurementEvents(instrument);
                }
            };
            _listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
                _current[Key(instrument.Name, tags.ToArray())] = value);
            _listener.Start();
        }

        /// <summary>The instruments the meter published, as "name (unit)".</summary>
        internal IReadOnlyCollection<string> Instruments
        {
            get
            {
                lock (_instruments)
                {
                    return _instruments.ToArray();
                }
            }
        }

        /// <summary>Collects every observable instrument now.</summary>
        internal Dictionary<string, long> Collect()
        {
            _current = new Dictionary<string, long>();
            _listener.RecordObservableInstruments();
            return _current;
        }

        public void Dispose() => _listener.Dispose();

        internal static string Key(string name, params KeyValuePair<string, object?>[] tags) =>
            tags.Length == 0
                ? name
                : name + "{" + string.Join(",", tags.OrderBy(t => t.Key, StringComparer.Ordinal).Select(t => t.Key + "=" + t.Value)) + "}";
    }
}
