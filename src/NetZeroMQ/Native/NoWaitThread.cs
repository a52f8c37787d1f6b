using System;

namespace NetZeroMQ
{
    /// <summary>
    /// Marks the current thread as one on which a call must not wait: the async reactor's thread while it runs continuations
    /// inline (the AppContext switch <c>NetZeroMQ.InlineAsyncCompletions</c>). Every async wait in the process is woken by
    /// that thread, so a call waiting there would stop all of them, for ever if what it waits for comes from an async
    /// operation. The waits of the core (a socket's blocking and timed sends and receives) ask <see cref="ThrowIfMarked"/>
    /// before each turn, so such a call ends with an exception instead.
    /// </summary>
    internal static class NoWaitThread
    {
        [ThreadStatic]
        private static bool t_marked;

        /// <summary>Marks or unmarks the calling thread.</summary>
        internal static bool IsMarked
        {
            get => t_marked;
            set => t_marked = value;
        }

        /// <summary>Throws <see cref="InvalidOperationException"/> when the calling thread is marked and
        /// <paramref name="operation"/> (a "send" or "receive") is about to wait.</summary>
        internal static void ThrowIfMarked(string operation)
        {
            if (t_marked)
            {
                throw new InvalidOperationException(
                    "A " + operation + " that has to wait was called on NetZeroMQ's async reactor thread, where continuations run " +
                    "inline (NetZeroMQ.InlineAsyncCompletions is on): waiting there would stop every async wait in the process. " +
                    "Await SendAsync/RecvAsync instead, use TrySend/TryRecv without a timeout, or turn the switch off.");
            }
        }
    }
}
