using System;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;

namespace NetZeroMQ.Hosting.Tests.TestUtilities
{
    /// <summary>What the test handlers saw, shared with the test through the container (a singleton).</summary>
    internal sealed class Probe
    {
        internal ConcurrentQueue<string[]> Handled { get; } = new ConcurrentQueue<string[]>();

        internal TaskCompletionSource Entered { get; } = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);

        /// <summary>Released by the test only at its end: a handler that ignores its token waits on it.</summary>
        internal TaskCompletionSource Release { get; } = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);

        internal ConcurrentQueue<(ActivityTraceId TraceId, ActivityContext Parent)> Traces { get; } = new ConcurrentQueue<(ActivityTraceId, ActivityContext)>();

        internal async Task<string[]> NextAsync()
        {
            DateTime end = DateTime.UtcNow + TestHosts.Timeout;
            while (DateTime.UtcNow < end)
            {
                if (Handled.TryDequeue(out string[]? frames))
                {
                    return frames;
                }

                await Task.Delay(10);
            }

            throw new TimeoutException("The handler received nothing in time.");
        }
    }

    /// <summary>Records each message's frames as strings (a ROUTER's routing id skipped), and replies with them on a ROUTER.</summary>
    internal sealed class EchoHandler : ISocketHandler
    {
        private readonly Probe _probe;

        public EchoHandler(Probe probe) => _probe = probe;

        public async ValueTask HandleAsync(SocketMessage message, CancellationToken stoppingToken)
        {
            bool router = message.Socket.Type == SocketType.Router;
            string[] frames = new string[message.Frames.Count - (router ? 1 : 0)];
            for (int i = 0; i < frames.Length; i++)
            {
                frames[i] = message.Frames[i + (router ? 1 : 0)].GetString();
            }

            _probe.Traces.Enqueue((Activity.Current?.TraceId ?? default, message.ParentContext));
            _probe.Handled.Enqueue(frames);
            if (router)
            {
                await message.Socket.SendMultipartAsync(message.Frames, stoppingToken);
            }
        }
    }

    /// <summary>Throws on a message "boom", records the others.</summary>
    internal sealed class ThrowingHandler : ISocketHandler
    {
        private readonly Probe _probe;

        public ThrowingHandler(Probe probe) => _probe = probe;

        public ValueTask HandleAsync(SocketMessage message, CancellationToken stoppingToken)
        {
            string text = message.Frames[0].GetString();
            if (text == "boom")
            {
                throw new InvalidOperationException("the handler failed on purpose");
            }

            _probe.Handled.Enqueue(new[] { text });
            return ValueTask.CompletedTask;
        }
    }

    /// <summary>Signals that it is inside the handler, then waits for the stopping token (a well-behaved long handler).</summary>
    internal sealed class SlowHandler : ISocketHandler
    {
        private readonly Probe _probe;

        public SlowHandler(Probe probe) => _probe = probe;

        public async ValueTask HandleAsync(SocketMessage message, CancellationToken stoppingToken)
        {
            _probe.Entered.TrySetResult();
            await Task.Delay(Timeout.InfiniteTimeSpan, stoppingToken);
        }
    }

    /// <summary>Signals that it is inside the handler, then ignores the stopping token until the test releases it.</summary>
    internal sealed class StubbornHandler : ISocketHandler
    {
        private readonly Probe _probe;

        public StubbornHandler(Probe probe) => _probe = probe;

        public async ValueTask HandleAsync(SocketMessage message, CancellationToken stoppingToken)
        {
            _probe.Entered.TrySetResult();
            await _probe.Release.Task;
        }
    }
}
