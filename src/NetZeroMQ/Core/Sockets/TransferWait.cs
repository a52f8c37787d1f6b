using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// How one send or receive waits when libzmq says it would block, as the public forms ask for it: <see cref="Blocking"/>
    /// (<c>Send</c>/<c>Recv</c>: up to the socket's <c>SendTimeout</c>/<c>ReceiveTimeout</c>, then an exception),
    /// <see cref="None"/> (<c>TrySend</c>/<c>TryRecv</c>: false at once) or <see cref="Within"/> (the timed <c>Try</c> forms:
    /// up to their own timeout, then false; cancellable). Only the wait loops read it: the first, non-blocking attempt of every
    /// transfer does not look at it.
    /// </summary>
    internal readonly struct TransferWait
    {
        /// <summary>The marker for "the socket's own timeout", which no caller can give (they are -1 or more).</summary>
        private const int SocketTimeout = -2;

        private TransferWait(int timeoutMilliseconds, CancellationToken cancellationToken)
        {
            TimeoutMilliseconds = timeoutMilliseconds;
            CancellationToken = cancellationToken;
        }

        /// <summary>Wait up to the socket's timeout option and throw <see cref="ZmqError.TryAgain"/> when it passes.</summary>
        internal static TransferWait Blocking
        {
            // Inlined: NativeAOT left it a call, whose instructions and spills on each blocking span receive the span path's
            // instruction budget (benchmarks/instructions/budgets.txt) has no room for.
            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            get => new TransferWait(SocketTimeout, default);
        }

        /// <summary>Do not wait: "would block" is a false result.</summary>
        internal static TransferWait None
        {
            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            get => new TransferWait(0, default);
        }

        /// <summary>The call's own timeout (-1: no limit, 0: do not wait); when it passes the result is false.</summary>
        internal int TimeoutMilliseconds { get; }

        /// <summary>Ends the wait with <see cref="OperationCanceledException"/>.</summary>
        internal CancellationToken CancellationToken { get; }

        /// <summary>Whether the socket's timeout option applies, and its passing is an exception rather than false.</summary>
        internal bool UsesSocketTimeout => TimeoutMilliseconds == SocketTimeout;

        /// <summary>Whether "would block" ends the call at once.</summary>
        internal bool IsNonBlocking => TimeoutMilliseconds == 0;

        /// <summary>
        /// Wait up to <paramref name="timeout"/>, then give up with false. Checks the arguments before any native call: a bad
        /// timeout throws, and a token cancelled already throws before anything is sent or received.
        /// </summary>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than
        /// <see cref="Timeout.InfiniteTimeSpan"/>) or longer than <see cref="int.MaxValue"/> milliseconds.</exception>
        /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> is cancelled.</exception>
        internal static TransferWait Within(TimeSpan timeout, CancellationToken cancellationToken)
        {
            int timeoutMilliseconds = Milliseconds.FromTimeSpan(timeout, nameof(timeout));
            cancellationToken.ThrowIfCancellationRequested();
            return new TransferWait(timeoutMilliseconds, cancellationToken);
        }
    }
}
