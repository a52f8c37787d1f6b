using System;
using System.Diagnostics;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;

namespace NetZeroMQ.Tests.Races
{
    /// <summary>
    /// Child-process scenarios: two threads using one <see cref="Message"/> (or the frames of one <see cref="MultipartMessage"/>)
    /// at once. Each iteration must end in a whole payload, the guard's <see cref="InvalidOperationException"/>, or (when one
    /// side disposes) <see cref="ObjectDisposedException"/>; never a crash, never torn bytes. See <see cref="MessageRaceTests"/>.
    /// </summary>
    internal static class MessageRaceScenarios
    {
        internal const string Prefix = "race:";

        /// <summary>Not a race: <c>Rebuild(message.Data)</c>, whose old content is released before it is copied.</summary>
        internal const string RebuildFromOwnData = "rebuild-from-own-data";

        /// <summary>The pairs, by name: "first member/second member".</summary>
        internal static readonly string[] Names =
        {
            "Rebuild(bytes)/ToArray",
            "Rebuild(bytes)/GetString",
            "Rebuild(bytes)/Rebuild(bytes)",
            "Rebuild(bytes)/CopyFrom",
            "MoveFrom/ToArray",
            "Recv(Message)/ToArray",
            "Dispose/ToArray",
            "Dispose/GetString",
            "Dispose/Rebuild(bytes)",
            "MultipartMessage frame Rebuild(bytes)/ToArrays",
        };

        internal static bool TryRun(string scenario, string[] args, out int exitCode)
        {
            exitCode = 2;
            if (scenario == RebuildFromOwnData)
            {
                exitCode = RebuildFromOwn();
                return true;
            }

            if (!scenario.StartsWith(Prefix, StringComparison.Ordinal))
            {
                return false;
            }

            var duration = TimeSpan.FromMilliseconds(args.Length > 0 ? int.Parse(args[0], System.Globalization.CultureInfo.InvariantCulture) : 1500);
            string name = scenario.Substring(Prefix.Length);
            exitCode = name switch
            {
                "Rebuild(bytes)/ToArray" => RebuildVersusRead(duration, m => RacePayloads.Check(m.ToArray())),
                "Rebuild(bytes)/GetString" => RebuildVersusRead(duration, m => RacePayloads.Check(m.GetString())),
                "Rebuild(bytes)/Rebuild(bytes)" => RebuildVersusRebuild(duration),
                "Rebuild(bytes)/CopyFrom" => RebuildVersusCopyFrom(duration),
                "MoveFrom/ToArray" => MoveFromVersusToArray(duration),
                "Recv(Message)/ToArray" => RecvVersusToArray(duration),
                "Dispose/ToArray" => DisposeVersus(duration, m => RacePayloads.Check(m.ToArray())),
                "Dispose/GetString" => DisposeVersus(duration, m => RacePayloads.Check(m.GetString())),
                "Dispose/Rebuild(bytes)" => DisposeVersus(duration, m =>
                {
                    m.Rebuild(RacePayloads.For(1));
                    return null;
                }),
                "MultipartMessage frame Rebuild(bytes)/ToArrays" => MultipartFramesVersusToArrays(duration),
                _ => Unknown(name),
            };
            return true;
        }

        private static int Unknown(string name)
        {
            Console.WriteLine("unknown race " + name);
            return 2;
        }

        /// <summary>
        /// Rebuilds messages of several sizes (inline in the struct, heap, mmap) from their own content and from a slice of it:
        /// the result must be the bytes that were there.
        /// </summary>
        private static int RebuildFromOwn()
        {
            int wrong = 0;
            foreach (int size in new[] { 20, 1000, 100_000, 1024 * 1024, 3 * 1024 * 1024 })
            {
                var expected = new byte[size];
                for (int i = 0; i < size; i++)
                {
                    expected[i] = (byte)((i * 7) + 1);
                }

                using var message = new Message(expected);
                message.Rebuild(message.Data);
                bool whole = message.Data.SequenceEqual(expected);
                message.Rebuild(message.Data.Slice(size / 2));
                bool slice = message.Data.SequenceEqual(expected.AsSpan(size / 2));
                Console.WriteLine("size " + size + ": whole " + (whole ? "ok" : "WRONG") + ", slice " + (slice ? "ok" : "WRONG"));
                wrong += (whole ? 0 : 1) + (slice ? 0 : 1);
            }

            Console.WriteLine("wrong=" + wrong);
            return wrong == 0 ? 0 : 1;
        }

        /// <summary>The case: one thread rebuilds the message from arrays, the other reads it.</summary>
        private static int RebuildVersusRead(TimeSpan duration, Func<Message, string?> read)
        {
            using var message = new Message(RacePayloads.For(0));
            return Race.Run(
                "Rebuild(bytes)",
                i =>
                {
                    message.Rebuild(RacePayloads.For(i));
                    return null;
                },
                "read",
                _ => read(message),
                duration);
        }

        /// <summary>Two threads rebuild the same message; afterwards it must hold one whole payload.</summary>
        private static int RebuildVersusRebuild(TimeSpan duration)
        {
            using var message = new Message(RacePayloads.For(0));
            Func<int, string?> rebuild = i =>
            {
                message.Rebuild(RacePayloads.For(i));
                return null;
            };
            int exitCode = Race.Run("Rebuild(bytes)", rebuild, "Rebuild(bytes) 2", i => rebuild(i + 3), duration);
            string? final = RacePayloads.Check(message.ToArray());
            Console.WriteLine("final=" + (final ?? "whole"));
            return final is null ? exitCode : 1;
        }

        /// <summary>One thread rebuilds a message, the other makes a second message share its content and reads that.</summary>
        private static int RebuildVersusCopyFrom(TimeSpan duration)
        {
            using var source = new Message(RacePayloads.For(0));
            using var copy = new Message();
            return Race.Run(
                "Rebuild(bytes)",
                i =>
                {
                    source.Rebuild(RacePayloads.For(i));
                    return null;
                },
                "CopyFrom+ToArray",
                _ =>
                {
                    copy.CopyFrom(source);
                    return RacePayloads.Check(copy.ToArray());
                },
                duration);
        }

        /// <summary>One thread moves fresh content into the message (releasing the old), the other reads it.</summary>
        private static int MoveFromVersusToArray(TimeSpan duration)
        {
            using var message = new Message(RacePayloads.For(0));
            using var source = new Message();
            return Race.Run(
                "MoveFrom",
                i =>
                {
                    source.Rebuild(RacePayloads.For(i));
                    message.MoveFrom(source);
                    return null;
                },
                "ToArray",
                _ => RacePayloads.Check(message.ToArray()),
                duration);
        }

        /// <summary>One thread receives into the message (libzmq releases the previous frame), the other reads it.</summary>
        private static int RecvVersusToArray(TimeSpan duration)
        {
            using Context context = Zmq.NewContext();
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);

            // A few frames in flight are enough to keep the receiver busy; the default 1000 would queue a gigabyte or two.
            push.SendHighWatermark = 4;
            pull.ReceiveHighWatermark = 4;
            pull.Bind("inproc://race-recv");
            push.Connect("inproc://race-recv");
            using var message = new Message();
            using var stop = new CancellationTokenSource();
            var pusher = new Thread(() =>
            {
                // Never blocks, so the loop sees the stop request at once. Now and then it pauses for longer than a blocking
                // receive's native wait (10 ms), which then lets go of the message between its attempts, where libzmq has
                // already released the old content: the reader must find the message empty, not its freed bytes.
                for (int i = 0; !stop.IsCancellationRequested;)
                {
                    if (push.TrySend(RacePayloads.For(i)))
                    {
                        i++;
                        if (i % 8 == 0)
                        {
                            Thread.Sleep(15);
                        }
                    }
                    else
                    {
                        Thread.Yield();
                    }
                }
            }) { IsBackground = true };
            push.Send(RacePayloads.For(0));
            pull.Recv(message);
            pusher.Start();
            try
            {
                return Race.Run(
                    "Recv(Message)",
                    _ =>
                    {
                        pull.Recv(message);
                        return null;
                    },
                    "ToArray",
                    _ =>
                    {
                        // Empty is what a receive whose native wait ran out leaves between its attempts.
                        byte[] bytes = message.ToArray();
                        return bytes.Length == 0 ? null : RacePayloads.Check(bytes);
                    },
                    duration);
            }
            finally
            {
                stop.Cancel();
                pusher.Join(TestTimeouts.Expected);
            }
        }

        /// <summary>
        /// One thread disposes the current message a random moment after the other began using it (reading or rebuilding;
        /// up to one and a half times as long as a use takes), then puts a new one in its place. The user must see a whole payload or <see cref="ObjectDisposedException"/>.
        /// </summary>
        private static int DisposeVersus(TimeSpan duration, Func<Message, string?> use)
        {
            Message current = new Message(RacePayloads.For(0));
            int uses = 0;
            long useTicks = 0;
            var random = new Random(13);
            var clock = Stopwatch.StartNew();
            int exitCode = Race.Run(
                "Dispose",
                i =>
                {
                    Message message = Volatile.Read(ref current);
                    int seen = Volatile.Read(ref uses);
                    TimeSpan until = clock.Elapsed + TimeSpan.FromMilliseconds(1);
                    while (Volatile.Read(ref uses) == seen && clock.Elapsed < until)
                    {
                        Thread.SpinWait(20);
                    }

                    long resume = clock.ElapsedTicks + (long)(random.NextDouble() * 1.5 * Volatile.Read(ref useTicks));
                    while (clock.ElapsedTicks < resume)
                    {
                        Thread.SpinWait(20);
                    }

                    message.Dispose();
                    Volatile.Write(ref current, new Message(RacePayloads.For(i)));
                    return null;
                },
                "use",
                _ =>
                {
                    Message message = Volatile.Read(ref current);
                    Interlocked.Increment(ref uses);
                    long began = clock.ElapsedTicks;
                    string? result = use(message);
                    Volatile.Write(ref useTicks, clock.ElapsedTicks - began); // not reached by a use that threw
                    return result;
                },
                duration,
                paceA: false);
            current.Dispose();
            return exitCode;
        }

        /// <summary>One thread rebuilds the frames of a multipart message, the other copies all of them out.</summary>
        private static int MultipartFramesVersusToArrays(TimeSpan duration)
        {
            using var multipart = new MultipartMessage(new[] { RacePayloads.For(0), RacePayloads.For(1) });
            return Race.Run(
                "frame Rebuild(bytes)",
                i =>
                {
                    multipart[i % 2].Rebuild(RacePayloads.For(i));
                    return null;
                },
                "ToArrays",
                _ =>
                {
                    byte[][] frames = multipart.ToArrays();
                    return frames.Length != 2 ? frames.Length + " frames" : RacePayloads.Check(frames[0]) ?? RacePayloads.Check(frames[1]);
                },
                duration);
        }
    }
}
