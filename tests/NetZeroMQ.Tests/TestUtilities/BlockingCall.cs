using System;
using System.Diagnostics;
using System.Threading;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// A call that is expected to block, run on a dedicated thread (never the thread pool, so a loaded machine cannot delay its
    /// start) and joined with a timeout, so a test that fails fails instead of hanging.
    /// </summary>
    public sealed class BlockingCall
    {
        private readonly Thread _thread;
        private readonly ManualResetEventSlim _started = new ManualResetEventSlim();
        private long _endTimestamp;

        private BlockingCall(Action action)
        {
            _thread = new Thread(() =>
            {
                _started.Set();
                try
                {
                    action();
                }
                catch (Exception e)
                {
                    Exception = e;
                }
                finally
                {
                    Volatile.Write(ref _endTimestamp, Stopwatch.GetTimestamp());
                }
            })
            {
                IsBackground = true,
                Name = "BlockingCall",
            };
        }

        /// <summary>What the call threw, or null if it returned.</summary>
        public Exception? Exception { get; private set; }

        /// <summary>Whether the call has ended.</summary>
        public bool HasEnded => !_thread.IsAlive;

        /// <summary>Starts <paramref name="action"/> and returns once its thread is running.</summary>
        public static BlockingCall Start(Action action)
        {
            var call = new BlockingCall(action);
            call._thread.Start();
            call._started.Wait();
            return call;
        }

        /// <summary>Waits for the call to end; false if it did not end within <paramref name="timeout"/>.</summary>
        public bool Join(TimeSpan timeout) => _thread.Join(timeout);

        /// <summary>Time from <paramref name="startTimestamp"/> (a <see cref="Stopwatch"/> timestamp) to the end of the call.</summary>
        public TimeSpan EndedAfter(long startTimestamp) =>
            TimeSpan.FromSeconds((Volatile.Read(ref _endTimestamp) - startTimestamp) / (double)Stopwatch.Frequency);
    }
}
