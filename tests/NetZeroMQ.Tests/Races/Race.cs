using System;
using System.Diagnostics;
using System.Threading;

namespace NetZeroMQ.Tests.Races
{
    /// <summary>
    /// Runs two loops on two threads at once for a bounded time and tallies what each iteration saw: success, the guard's
    /// <see cref="InvalidOperationException"/> (the other thread held the object), <see cref="ObjectDisposedException"/>, a
    /// torn result (an iteration returns a description of what was wrong), or any other exception; and how often an iteration
    /// began while the other thread was inside one (proof that the two really ran at once). A side that was turned away
    /// retries almost at once; a side that succeeded waits until the other has started an iteration and then a random time of
    /// up to twice its own last iteration, so it lands sometimes inside the other's call and sometimes after it. Without that,
    /// the side that holds the object longer re-enters at once and the other is turned away for the whole run.
    /// Meant for a child process: the defect these races look for kills the process, which the parent test reports.
    /// </summary>
    internal sealed class Race
    {
        private readonly Side _a;
        private readonly Side _b;

        private Race(string nameA, string nameB, bool paceA)
        {
            _a = new Side(nameA, seed: 1) { Paced = paceA };
            _b = new Side(nameB, seed: 2);
            _a.Other = _b;
            _b.Other = _a;
        }

        /// <summary>Each side must succeed this often before the race ends (unless it runs into <see cref="MaxDuration"/>).</summary>
        private const int MinSuccesses = 3;

        /// <summary>How long a race may run while a side is still short of <see cref="MinSuccesses"/> (a loaded machine).</summary>
        private static readonly TimeSpan MaxDuration = TimeSpan.FromSeconds(10);

        /// <summary>
        /// Runs <paramref name="a"/> and <paramref name="b"/> (each called with its iteration number; a non-null return is a
        /// torn result) until <paramref name="duration"/> has passed and each side has succeeded a few times, prints the tallies as <c>key=value</c> lines, and
        /// returns the exit code: 0 when nothing torn or unexpected was seen. <paramref name="paceA"/> false: side A paces
        /// itself (it waits for B inside its iterations), so it skips the turn-giving pause.
        /// </summary>
        internal static int Run(string nameA, Func<int, string?> a, string nameB, Func<int, string?> b, TimeSpan duration, bool paceA = true)
        {
            var race = new Race(nameA, nameB, paceA);
            using var start = new Barrier(2);
            var clock = new Stopwatch();
            Thread threadB = new Thread(() => race._b.Loop(b, start, clock, duration)) { IsBackground = true, Name = "race " + nameB };
            threadB.Start();
            race._a.Loop(a, start, clock, duration);
            if (!threadB.Join(TestUtilities.TestTimeouts.Expected))
            {
                Console.WriteLine("error=side " + nameB + " did not stop");
                return 1;
            }

            race._a.Print("a");
            race._b.Print("b");
            long torn = race._a.Torn + race._b.Torn;
            long unexpected = race._a.Unexpected + race._b.Unexpected;
            Console.WriteLine("overlaps=" + (race._a.Overlaps + race._b.Overlaps));
            Console.WriteLine("torn=" + torn);
            Console.WriteLine("unexpected=" + unexpected);
            return torn == 0 && unexpected == 0 ? 0 : 1;
        }

        /// <summary>Whether <paramref name="e"/> is the usage guard's report of concurrent use.</summary>
        internal static bool IsConcurrentUse(Exception e) =>
            e is InvalidOperationException && e.Message.Contains("is being used by another thread", StringComparison.Ordinal);

        private sealed class Side
        {
            private readonly string _name;
            private readonly Random _random;
            private string? _firstProblem;
            private volatile bool _inside;
            private volatile int _started;
            private volatile bool _finished;
            private volatile bool _waiting;

            internal Side(string name, int seed)
            {
                _name = name;
                _random = new Random(seed);
            }

            internal Side? Other { get; set; }

            internal bool Paced { get; set; } = true;

            internal long Overlaps { get; private set; }

            internal long Ok { get; private set; }

            internal long Busy { get; private set; }

            internal long Disposed { get; private set; }

            internal long Torn { get; private set; }

            internal long Unexpected { get; private set; }

            internal void Loop(Func<int, string?> body, Barrier start, Stopwatch clock, TimeSpan duration)
            {
                start.SignalAndWait();
                lock (clock)
                {
                    clock.Start();
                }

                for (int i = 0; !IsOver(clock.Elapsed, duration); i++)
                {
                    long began = clock.ElapsedTicks;
                    bool succeeded = false;
                    _started++;
                    _inside = true;
                    if (Other!._inside)
                    {
                        Overlaps++;
                    }

                    try
                    {
                        string? torn = body(i);
                        if (torn is null)
                        {
                            Ok++;
                            succeeded = true;
                        }
                        else
                        {
                            Torn++;
                            _firstProblem ??= "torn: " + torn;
                        }
                    }
                    catch (Exception e) when (IsConcurrentUse(e))
                    {
                        Busy++;
                    }
                    catch (ObjectDisposedException)
                    {
                        Disposed++;
                    }
                    catch (Exception e)
                    {
                        Unexpected++;
                        _firstProblem ??= "unexpected: " + e;
                    }

                    _inside = false;
                    if (succeeded && Paced)
                    {
                        GiveTheOtherATurn(clock, clock.ElapsedTicks - began);
                    }
                    else
                    {
                        Thread.SpinWait(_random.Next(0, 200));
                    }
                }

                _finished = true;
            }

            private bool IsOver(TimeSpan elapsed, TimeSpan duration) =>
                elapsed >= duration && (elapsed >= MaxDuration || (Ok >= MinSuccesses && Other!.Ok >= MinSuccesses));

            private void GiveTheOtherATurn(Stopwatch clock, long took)
            {
                // Not when the other is waiting for this side already: both would wait out the whole bound.
                int otherStarted = Other!._started;
                long until = clock.ElapsedTicks + took + (Stopwatch.Frequency / 500);
                var spinner = default(SpinWait);
                _waiting = true;
                while (Other._started == otherStarted && !Other._waiting && !Other._finished && clock.ElapsedTicks < until)
                {
                    spinner.SpinOnce(sleep1Threshold: -1);
                }

                _waiting = false;
                long resume = clock.ElapsedTicks + (long)(_random.NextDouble() * 2 * took);
                while (clock.ElapsedTicks < resume && !Other._finished)
                {
                    Thread.SpinWait(20);
                }
            }

            internal void Print(string key)
            {
                Console.WriteLine(key + ".name=" + _name);
                Console.WriteLine(key + ".ok=" + Ok);
                Console.WriteLine(key + ".busy=" + Busy);
                Console.WriteLine(key + ".disposed=" + Disposed);
                Console.WriteLine(key + ".torn=" + Torn);
                Console.WriteLine(key + ".unexpected=" + Unexpected);
                if (_firstProblem is not null)
                {
                    Console.WriteLine(key + " first problem: " + _firstProblem.Replace('\n', ' '));
                }
            }
        }
    }
}
