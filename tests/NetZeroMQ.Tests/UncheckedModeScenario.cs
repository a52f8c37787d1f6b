using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using NetZeroMQ.Tests.TestUtilities;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// Runs in a child process, because the switch is read once per process: with concurrency checks turned off, data still
    /// flows, Dispose from another thread still ends a blocked receive safely, a visibly busy socket still refuses a second
    /// thread, and async still works (it forces the checks back on for its socket).
    /// </summary>
    internal static class UncheckedModeScenario
    {
        internal const string Name = "unchecked-mode";

        internal static int Run()
        {
            AppContext.SetSwitch(ConcurrencyChecks.DisableSwitchName, true);
            if (ConcurrencyChecks.Enabled)
            {
                Console.WriteLine("unchecked: switch ignored");
                return 1;
            }

            using Context context = Zmq.NewContext();
            MovesData(context);
            DisposeEndsBlockedReceive(context);
            BusySocketRefusesSecondThread(context);
            AsyncStillWorks(context).GetAwaiter().GetResult();
            Console.WriteLine("unchecked: ok");
            return 0;
        }

        private static void MovesData(Context context)
        {
            using Socket a = Zmq.NewSocket(context, SocketType.Pair);
            using Socket b = Zmq.NewSocket(context, SocketType.Pair);
            b.Connect(Transports.BindAnywhere(a, "inproc"));
            var buffer = new byte[8];
            for (int i = 0; i < 100_000; i++)
            {
                b.Send(BitConverter.GetBytes(i));
                a.Recv(buffer);
                if (BitConverter.ToInt32(buffer) != i)
                {
                    throw new InvalidOperationException("wrong data at " + i);
                }
            }
        }

        private static void DisposeEndsBlockedReceive(Context context)
        {
            for (int round = 0; round < 200; round++)
            {
                Socket pull = Zmq.NewSocket(context, SocketType.Pull);
                pull.ReceiveTimeout = Timeout.InfiniteTimeSpan;
                pull.Bind(Transports.BindEndpoint("inproc"));
                Exception? error = null;
                var receiver = new Thread(() =>
                {
                    try
                    {
                        pull.Recv(new byte[8]);
                    }
                    catch (Exception e)
                    {
                        error = e;
                    }
                });
                receiver.Start();
                Thread.Sleep(1);
                var clock = Stopwatch.StartNew();
                pull.Dispose();
                if (!receiver.Join(TimeSpan.FromSeconds(2)) || error is not ObjectDisposedException)
                {
                    throw new InvalidOperationException($"round {round}: blocked receive ended with {error?.GetType().Name ?? "nothing"} after {clock.Elapsed}");
                }
            }
        }

        private static void BusySocketRefusesSecondThread(Context context)
        {
            using Socket pair = Zmq.NewSocket(context, SocketType.Pair);
            pair.Bind(Transports.BindEndpoint("inproc"));
            pair.ReceiveTimeout = TimeSpan.FromSeconds(2);
            var receiver = new Thread(() =>
            {
                try
                {
                    pair.Recv(new byte[8]);
                }
                catch (ZmqException)
                {
                    // the timeout ends the blocked call
                }
            });
            receiver.Start();
            Thread.Sleep(200);
            try
            {
                pair.TrySend("x");
                throw new InvalidOperationException("a second thread entered a busy socket");
            }
            catch (InvalidOperationException e) when (e.Message.Contains("another thread", StringComparison.Ordinal))
            {
            }

            receiver.Join();
        }

        private static async Task AsyncStillWorks(Context context)
        {
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, "inproc"));
            for (int i = 0; i < 1000; i++)
            {
                ValueTask<RecvResult> pending = pull.RecvAsync(new byte[8]);
                push.Send(BitConverter.GetBytes(i));
                RecvResult result = await pending.AsTask().WaitAsync(TestTimeouts.Expected);
                if (result.BytesWritten != 4)
                {
                    throw new InvalidOperationException("async receive got " + result.BytesWritten + " bytes");
                }
            }
        }
    }
}
