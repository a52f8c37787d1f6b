using System;
using System.Diagnostics;
using System.Threading;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>Waits, bounded, for a condition that another thread (libzmq's I/O thread, a finalizer) makes true.</summary>
    public static class Eventually
    {
        /// <summary>Returns true as soon as <paramref name="condition"/> holds, false if it still does not after <paramref name="timeout"/>.</summary>
        public static bool True(Func<bool> condition, TimeSpan? timeout = null)
        {
            var clock = Stopwatch.StartNew();
            TimeSpan limit = timeout ?? TestTimeouts.Expected;
            while (!condition())
            {
                if (clock.Elapsed > limit)
                {
                    return false;
                }

                Thread.Sleep(1);
            }

            return true;
        }
    }
}
