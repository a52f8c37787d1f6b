using System;
using System.Collections.Generic;
using System.Diagnostics;
using NetZeroMQ.Tests.TestUtilities;

namespace NetZeroMQ.Tests.Monitoring
{
    internal static class MonitorTestExtensions
    {
        /// <summary>Reads events until one of <paramref name="kind"/> arrives (bounded); returns it and everything read before it.</summary>
        internal static MonitorEvent WaitFor(this SocketMonitor monitor, MonitorEvents kind, List<MonitorEvent>? seen = null)
        {
            var clock = Stopwatch.StartNew();
            while (true)
            {
                TimeSpan left = TestTimeouts.Expected - clock.Elapsed;
                if (left <= TimeSpan.Zero || !monitor.TryRecv(left, out MonitorEvent? next))
                {
                    throw new TimeoutException("No " + kind + " event; saw: " + string.Join(", ", seen ?? new List<MonitorEvent>()));
                }

                seen?.Add(next);
                if (next.Kind == kind)
                {
                    return next;
                }
            }
        }
    }
}
