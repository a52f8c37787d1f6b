using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <remarks>
    /// <para>
    /// <b>Biased mode.</b> Most sockets and messages are used by one thread for most of their lives (a socket per worker, a
    /// reused message per loop), and for them the compare-exchange of a checked claim is most of what the guard costs
    /// (the reused-message loop claims five times per message: 0.71 of native C's throughput against 0.99 with the checks off).
    /// So once one thread has made <see cref="BiasAfterCalls"/> calls in a row on an object, the object is biased to it: that
    /// thread, its owner, claims with a plain store to <see cref="_ownerInside"/> and a plain re-read of the mode, and leaves
    /// with a plain store. Any other thread must first revoke the bias: it marks the mode revoking (a compare-exchange), flushes
    /// every processor's store buffer (<c>Interlocked.MemoryBarrierProcessWide</c>), and then looks at
    /// <see cref="_ownerInside"/>. An owner claim whose store came before the flush is visible then, and the revoker gives the
    /// bias back and reports concurrent use, as a second thread entering a checked object does; an owner claim after the flush
    /// re-reads the mode after it, sees the revocation and withdraws to a checked claim. So the guarantee of the checked mode
    /// holds exactly, and a thread's own re-entry is caught too. A revoked object stays checked for good: one barrier per object at
    /// most, never per message, whatever threads use it later; and while no bias is live, a change of thread costs nothing
    /// (it only starts the count again), so objects handed from thread to thread per message never pay a barrier.
    /// </para>
    /// <para>
    /// While a bias is live, every claim is the owner's (checked claims need the checked or undecided mode), so the owner's
    /// exit may release the object after a Dispose without looking at the state, and a checked holder's exit without looking
    /// at <see cref="_ownerInside"/>. Only the owner ever sets <see cref="_ownerInside"/>, so an exiting thread tells which
    /// claim it holds by the mode alone (HeldByOwner).
    /// </para>
    /// </remarks>
    internal partial struct UsageGuard
    {
        /// <summary>How many calls in a row one thread makes, checked, before the object is biased to it.</summary>
        internal const int BiasAfterCalls = 64;

        /// <summary>Mode: another thread is revoking the owner's bias (for the length of one process-wide barrier).</summary>
        private const int Revoking = 2 << 16;

        /// <summary>Mode: biased to the owner (no holder bits: every claim is the owner's own).</summary>
        private const int Biased = 3 << 16;

        private bool OwnerIsInside => Volatile.Read(ref _ownerInside) != 0;

#if NET
        /// <summary>Whether the object is biased to a thread now (for tests).</summary>
        internal bool IsBiased => Volatile.Read(ref _state) == Biased;

        /// <summary>Whether every claim is checked now, for good (for tests).</summary>
        internal bool IsCheckedForGood => (Volatile.Read(ref _state) & ~HolderMask) == Checked;
#endif

#if NET
        /// <summary>
        /// The owner's claim: true (held) when the object is biased to <paramref name="me"/> and the mode still says so after
        /// this thread marked itself inside; else false with nothing held (the caller claims another way).
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private bool TryEnterBiased(int me)
        {
            if (Volatile.Read(ref _state) == Biased && _owner == me && _ownerInside == 0)
            {
                // The store and the re-read below are both volatile, so the compiler keeps them in this order; the processor
                // may still satisfy the read before the store leaves its store buffer, and that is what the revoker's
                // process-wide barrier settles (as it does the unchecked mode's plain claim against a Dispose).
                Volatile.Write(ref _ownerInside, 1);
                if (Volatile.Read(ref _state) == Biased)
                {
                    return true;
                }

                // A revocation began: withdraw (the revoker's barrier came before this re-read, so it never counted on us).
                Volatile.Write(ref _ownerInside, 0);
            }

            return false;
        }

        /// <summary>
        /// For an exit, whose caller holds the object: whether the hold is the owner's biased claim. While the mode is biased
        /// (or being revoked, which only a biased mode can be, and which gives the bias back while the owner is inside), every
        /// claim is the owner's; in any other mode every claim is in the state. So the mode tells, with no thread identity.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private static bool HeldByOwner(int state) => state == Biased || state == Revoking;

        /// <summary>Enter's path for what its inline claims did not take; returns as <see cref="Enter"/> does, or throws.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private bool EnterSlow(object owner, int me)
        {
            TryClaim(owner, me);
            return Volatile.Read(ref _disposeRequested) == 0;
        }

        /// <summary>
        /// Claims the object whatever its mode: true when held. When another call holds it, throws concurrent use for
        /// <paramref name="owner"/>, or returns false if <paramref name="owner"/> is null. Waits only for what ends by itself: a
        /// revocation in progress (one barrier) and the machinery's short retry.
        /// </summary>
        private bool TryClaim(object? owner, int me)
        {
            var spinner = default(SpinWait);
            while (true)
            {
                int state = Volatile.Read(ref _state);
                int mode = state & ~HolderMask;
                if (mode == Biased)
                {
                    if (_owner != me)
                    {
                        if (!Revoke(owner))
                        {
                            return false;
                        }
                    }
                    else if (_ownerInside != 0)
                    {
                        return Conflict(owner); // this thread is inside a call on it already
                    }
                    else if (TryEnterBiased(me))
                    {
                        return true;
                    }

                    continue;
                }

                if (mode == Revoking)
                {
                    spinner.SpinOnce();
                    continue;
                }

                int holder = state & HolderMask;
                if (holder == Free)
                {
                    if (Interlocked.CompareExchange(ref _state, state | UserCall, state) == state)
                    {
                        return true;
                    }

                    continue;
                }

                if (_shared != 0)
                {
                    // Another call is in flight on a thread-safe object: join it.
                    Interlocked.Increment(ref _state);
                    return true;
                }

                if (holder == InternalCall)
                {
                    // The binding's own async retry (a few non-blocking libzmq calls): the caller did nothing wrong.
                    spinner.SpinOnce();
                    continue;
                }

                return Conflict(owner);
            }
        }

        /// <summary>
        /// A thread that is not the owner ends the bias (see the remarks): true when the object is checked now (or changed
        /// meanwhile: look again); when the owner is inside, the bias stays and this is concurrent use (throws for
        /// <paramref name="owner"/>, false if it is null).
        /// </summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private bool Revoke(object? owner)
        {
            if (Interlocked.CompareExchange(ref _state, Revoking, Biased) != Biased)
            {
                return true;
            }

            Interlocked.MemoryBarrierProcessWide();
            if (OwnerIsInside)
            {
                Volatile.Write(ref _state, Biased);
                return Conflict(owner);
            }

            Volatile.Write(ref _state, Checked);
            return true;
        }

        private static bool Conflict(object? owner)
        {
            if (owner is not null)
            {
                ZmqThrow.ConcurrentUse(owner);
            }

            return false;
        }

        /// <summary>A checked claim ends in the undecided mode (or is the machinery's): the state to leave behind.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private void ExitUndecided() => Volatile.Write(ref _state, ModeAfterCheckedCall(Volatile.Read(ref _state)));

        /// <summary>
        /// The state a checked holder leaves: its mode with no holder, except that in the undecided mode a caller's call counts
        /// toward the bias, and the <see cref="BiasAfterCalls"/>th call in a row of one thread biases the object to it (the
        /// release store of the state publishes <see cref="_owner"/>). A call by another thread starts the count again: no
        /// bias is live yet, so changing the candidate costs nothing.
        /// </summary>
        private int ModeAfterCheckedCall(int state)
        {
            int mode = state & ~HolderMask;
            if (mode != Undecided || (state & HolderMask) != UserCall)
            {
                return mode;
            }

            int me = ThreadToken.Current;
            if (_candidate != me)
            {
                _candidate = me;
                _candidateCalls = 1;
                return Undecided;
            }

            if (++_candidateCalls < BiasAfterCalls)
            {
                return Undecided;
            }

            _owner = me;
            return Biased;
        }

        /// <summary>
        /// For <see cref="RequireChecks"/>, by the thread that holds the object: the mode becomes checked for good. A holder of a
        /// biased object is its owner, marked inside: its claim moves into the state, where the machinery's compare-exchange
        /// sees it.
        /// </summary>
        private void EndBiasWhileHeld()
        {
            var spinner = default(SpinWait);
            while (true)
            {
                int state = Volatile.Read(ref _state);
                int mode = state & ~HolderMask;
                if (mode == Checked)
                {
                    return;
                }

                if (mode == Revoking)
                {
                    spinner.SpinOnce(); // the revoker finds this thread inside and gives the bias back
                    continue;
                }

                if (mode == Undecided)
                {
                    if (Interlocked.CompareExchange(ref _state, Checked | (state & HolderMask), state) == state)
                    {
                        return;
                    }

                    continue;
                }

                System.Diagnostics.Debug.Assert(_owner == ThreadToken.Current && _ownerInside != 0, "the holder of a biased object is its owner");
                if (Interlocked.CompareExchange(ref _state, Checked | UserCall, Biased) == Biased)
                {
                    Volatile.Write(ref _ownerInside, 0);
                    return;
                }
            }
        }

        /// <summary>
        /// For <see cref="RequestDispose"/>, after its fenced store: whether every claim that could be in flight is fenced (a
        /// compare-exchange), so that the disposer's own fence settles the handshake. Not so when a plain claim may sit in
        /// another thread's store buffer: in unchecked mode, under a bias to another thread or one being revoked, or while a
        /// call holds the object (its exit is a plain store).
        /// </summary>
        private bool NoPlainClaimCanBeInFlight()
        {
            if (_unchecked != 0 || OwnerIsInside)
            {
                return false;
            }

            int state = Volatile.Read(ref _state);
            return state == Checked || state == Undecided
                || (state == Biased && _owner == ThreadToken.Current);
        }
#endif
    }
}
