#if NET
using System;
using System.Collections.Generic;
using System.Runtime.ExceptionServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// Where the continuation of an async operation that the reactor completed runs: on a thread-pool thread (the default), or,
    /// with the AppContext switch <c>NetZeroMQ.InlineAsyncCompletions</c>, on the reactor thread itself, right after the
    /// reactor's retry has released the socket. Inline saves the hand-over to a pool thread (a wake-up and a thread switch per
    /// awaited wait), as <c>DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS</c> does for System.Net.Sockets, at the same price:
    /// user code runs on the thread that wakes every async wait of the process, so a continuation that blocks stops them all.
    /// The library's own waits refuse to wait there (<see cref="NoWaitThread"/>); any other blocking (a lock, <c>Task.Wait</c>)
    /// is the application's to avoid. The switch is read once, when the reactor first dispatches.
    /// </summary>
    /// <remarks>
    /// Why after the release: an operation completes while the reactor holds the socket's guard (the retry attempts under it),
    /// and a continuation run there would meet that claim on its next call on the same socket. So while the reactor tells a
    /// client, completions are only collected (<see cref="TryDefer"/>: the operation is already out of Pending, so a
    /// cancellation or Dispose that arrives meanwhile leaves it alone, and the frame it took is delivered); when the client
    /// returns, its guard released, they are signalled here, with the core's continuations run synchronously. A continuation
    /// with a captured <see cref="SynchronizationContext"/> or <see cref="System.Threading.Tasks.TaskScheduler"/> is still
    /// posted there by the core, never run on the reactor thread.
    /// </remarks>
    internal static class InlineCompletions
    {
        /// <summary>The AppContext switch (runtimeconfig.json, or <c>AppContext.SetSwitch</c> before the first async call).</summary>
        internal const string Switch = "NetZeroMQ.InlineAsyncCompletions";

        /// <summary>Whether continuations run on the reactor thread; read once.</summary>
        internal static readonly bool Enabled = AppContext.TryGetSwitch(Switch, out bool inline) && inline;

        private static readonly Action<object?> s_rethrow = static captured => ((ExceptionDispatchInfo)captured!).Throw();

        /// <summary>The completions collected while the reactor thread tells a client (null on every other thread, and
        /// between clients).</summary>
        [ThreadStatic]
        private static List<Deferred>? t_collecting;

        /// <summary>The reactor thread's list, kept between clients so that collecting allocates nothing.</summary>
        [ThreadStatic]
        private static List<Deferred>? t_list;

        /// <summary>
        /// The reactor thread: tells <paramref name="client"/> its descriptor is readable, and with the switch on runs the
        /// continuations of what that completed, inline, once the client has returned. Never throws.
        /// </summary>
        internal static void Dispatch(IReactorClient client)
        {
            if (!Enabled)
            {
                client.OnReadable();
                return;
            }

            List<Deferred> collected = t_list ??= new List<Deferred>();
            t_collecting = collected;
            try
            {
                client.OnReadable();
            }
            finally
            {
                // Also if OnReadable failed (it never throws, by its contract): what it completed is signalled all the same.
                t_collecting = null;
                SignalCollected(collected);
            }
        }

        /// <summary>
        /// Called by an operation that has just left Pending for good: true when it is to be signalled by
        /// <see cref="Dispatch"/> once the reactor's client has returned (the reactor thread, switch on), false when the
        /// caller signals it now.
        /// </summary>
        internal static bool TryDefer(AsyncOperation operation, int result, Exception? error)
        {
            if (!Enabled || t_collecting is not { } collected)
            {
                return false;
            }

            collected.Add(new Deferred(operation, result, error));
            return true;
        }

        /// <summary>Signals the collected completions in order, their continuations inline; never throws.</summary>
        private static void SignalCollected(List<Deferred> collected)
        {
            NoWaitThread.IsMarked = true;
            try
            {
                for (int i = 0; i < collected.Count; i++)
                {
                    Deferred completion = collected[i];
                    try
                    {
                        completion.Operation.SignalInline(completion.Result, completion.Error);
                    }
                    catch (Exception e)
                    {
                        // A continuation threw (an awaiting async method never does; a hand-written awaiter might). On a pool
                        // thread that would be an unhandled exception, so it becomes one there; the other completions still run.
                        ThreadPool.UnsafeQueueUserWorkItem(s_rethrow, ExceptionDispatchInfo.Capture(e), preferLocal: false);
                    }
                }
            }
            finally
            {
                NoWaitThread.IsMarked = false;
                collected.Clear();
            }
        }

        private readonly struct Deferred
        {
            internal Deferred(AsyncOperation operation, int result, Exception? error)
            {
                Operation = operation;
                Result = result;
                Error = error;
            }

            internal AsyncOperation Operation { get; }

            internal int Result { get; }

            internal Exception? Error { get; }
        }
    }
}
#endif
