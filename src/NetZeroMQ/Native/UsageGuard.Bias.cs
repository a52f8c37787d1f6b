using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <remarks>
    /// <para>
    /// <b>Biased mode.</b> Most sockets and messages are used by one thread for most of their lives (a socket per worker, a
    /// reused message per loop), and for them the compare-exchange of a checked claim is most of what the guard costs
    /// (the reused-message loop claims five times per message: 0.71 of native C's throughput against 0.99 with no
    /// interlocked claim at all). So once one thread has made <see cref="BiasAfterCalls"/> calls in a row on an object, the
    /// object is biased to it: that thread, its owner, claims with a plain store to <see cref="_ownerInside"/> and a re-read
    /// of the state, and leaves with a plain store. Any other thread must first revoke the bias: it marks the state revoking
    /// (a compare-exchange), flushes every processor's store buffer (<c>Interlocked.MemoryBarrierProcessWide</c>), and then
    /// looks at <see cref="_ownerInside"/>. An owner claim whose store came before the flush is visible then, and the revoker
    /// gives the bias back and reports concurrent use, as a second thread entering a checked object does; an owner claim
    /// after the flush re-reads the state after it, sees the revocation and withdraws to a checked claim. So the guarantee of
    /// the checked mode holds exactly, and a thread's own re-entry is caught too. A revoked object stays checked for good:
    /// one barrier per object at most, never per message, whatever threads use it later; and while no bias is live, a change
    /// of thread costs nothing (it only starts the count again), so objects handed from thread to thread per message never
    /// pay a barrier.
    /// </para>
    /// <para>
    /// While a bias is live, every claim is the owner's (checked claims need the checked or undecided mode), so the owner's
    /// exit may release the object after a Dispose without looking at the state, and a checked holder's exit without looking
    /// at <see cref="_ownerInside"/>. Only the owner ever sets <see cref="_ownerInside"/>, so an exiting thread tells which
    /// claim it holds by the mode alone (<see cref="HeldByOwner"/>).
    /// </para>
    /// </remarks>
    internal partial struct UsageGuard
    {
        /// <summary>
        /// The owner's claim (T7): true (held) when the object is biased to <paramref name="me"/> and the state still says so
        /// after this thread marked itself inside; else false with nothing held (the caller claims another way).
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private bool TryEnterBiased(int me)
        {
            if (Volatile.Read(ref _state) == (int)State.Biased && _owner == me && _ownerInside == 0)
            {
                // The store and the re-read below are both volatile, so the compiler keeps them in this order; the processor
                // may still satisfy the read before the store leaves its store buffer, and that is what the revoker's
                // process-wide barrier settles.
                Volatile.Write(ref _ownerInside, 1);
                if (Volatile.Read(ref _state) == (int)State.Biased)
                {
                    return true;
                }

                // T9: a revocation began; withdraw (the revoker's barrier came before this re-read, so it never counted on us).
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
        private static bool HeldByOwner(int state) => state == (int)State.Biased || state == (int)State.Revoking;

        /// <summary>Enter's path for what the owner's claim did not take; returns as <see cref="Enter"/> does, or throws.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private bool EnterSlow(object owner, int me)
        {
            // A shared object is every call of a thread-safe socket: its claim (T15) is taken here at once rather than through
            // TryClaim's cases, none of which applies to it (a shared object stays shared and its calls never exclude each other).
            if (Volatile.Read(ref _state) >= (int)State.Shared)
            {
                Interlocked.Increment(ref _state); // T15
            }
            else
            {
                TryClaim(owner, me);
            }

            return Volatile.Read(ref _disposeRequested) == 0;
        }

        /// <summary>
        /// Claims the object whatever its state: true when held. When another call holds it, throws concurrent use for
        /// <paramref name="owner"/>, or returns false if <paramref name="owner"/> is null. Waits only for what ends by itself: a
        /// revocation in progress (one barrier) and the machinery's short retry.
        /// </summary>
        private bool TryClaim(object? owner, int me)
        {
            var spinner = default(SpinWait);
            while (true)
            {
                int state = Volatile.Read(ref _state);
                switch ((State)state)
                {
                    case State.Biased when _owner != me:
                        if (!Revoke(owner))
                        {
                            return false; // T11: the owner is inside
                        }

                        continue; // T12 (or the state changed meanwhile): look again

                    case State.Biased when _ownerInside != 0:
                        return Conflict(owner); // this thread, the owner, is inside a call on it already

                    case State.Biased:
                        if (TryEnterBiased(me))
                        {
                            return true; // T7
                        }

                        continue;

                    case State.Revoking:
                    case State.UndecidedMachinery:
                    case State.CheckedMachinery:
                        // A revocation (one barrier), or the binding's own async retry (a few non-blocking libzmq calls): the
                        // caller did nothing wrong, and either ends by itself.
                        spinner.SpinOnce();
                        continue;

                    case State.Undecided:
                    case State.Checked:
                        if (Interlocked.CompareExchange(ref _state, state | (int)State.Call, state) == state)
                        {
                            return true; // T1
                        }

                        continue;

                    case State.UndecidedCall:
                    case State.CheckedCall:
                        return Conflict(owner);

                    default:
                        if (Mode(state) != State.Shared)
                        {
                            ImpossibleState(state, nameof(TryClaim));
                        }

                        Interlocked.Increment(ref _state); // T15
                        return true;
                }
            }
        }

        /// <summary>
        /// A thread that is not the owner ends the bias (T10 then T11 or T12): true when the object is checked now (or the
        /// state changed meanwhile: look again); when the owner is inside, the bias stays and this is concurrent use (throws
        /// for <paramref name="owner"/>, false if it is null).
        /// </summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private bool Revoke(object? owner)
        {
            if (Interlocked.CompareExchange(ref _state, (int)State.Revoking, (int)State.Biased) != (int)State.Biased)
            {
                return true;
            }

            Interlocked.MemoryBarrierProcessWide();
            if (Volatile.Read(ref _ownerInside) != 0)
            {
                Debug.Assert(_state == (int)State.Revoking, "T11: only the revoker leaves the revoking state");
                Volatile.Write(ref _state, (int)State.Biased);
                return Conflict(owner);
            }

            Debug.Assert(_state == (int)State.Revoking, "T12: only the revoker leaves the revoking state");
            Volatile.Write(ref _state, (int)State.Checked);
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

        /// <summary>
        /// The state a checked holder leaves (T3 to T6): its mode with no holder, except that in the undecided mode a caller's
        /// call counts toward the bias, and the <see cref="BiasAfterCalls"/>th call in a row of one thread biases the object to
        /// it (the release store of the state publishes <see cref="_owner"/>). A call by another thread starts the count again:
        /// no bias is live yet, so changing the candidate costs nothing.
        /// </summary>
        private int StateAfterCheckedCall(int state)
        {
            switch ((State)state)
            {
                case State.CheckedCall:
                case State.CheckedMachinery:
                    return (int)State.Checked; // T5
                case State.UndecidedMachinery:
                    return (int)State.Undecided; // T4
                case State.UndecidedCall:
                    break;
                default:
                    ImpossibleState(state, "a checked exit");
                    return state;
            }

            int me = ThreadToken.Current;
            if (_candidate != me)
            {
                _candidate = me;
                _candidateCalls = 1;
                return (int)State.Undecided; // T4
            }

            if (++_candidateCalls < BiasAfterCalls)
            {
                return (int)State.Undecided; // T4
            }

            _owner = me;
            return (int)State.Biased; // T3
        }

        /// <summary>
        /// For <see cref="RequireChecks"/>, by the thread that holds the object: the mode becomes checked for good (T13, T14).
        /// A holder of a biased object is its owner, marked inside: its claim moves into the state, where the machinery's
        /// compare-exchange sees it.
        /// </summary>
        private void EndBiasWhileHeld()
        {
            var spinner = default(SpinWait);
            while (true)
            {
                int state = Volatile.Read(ref _state);
                switch ((State)state)
                {
                    case State.CheckedCall:
                    case State.CheckedMachinery:
                        return;

                    case State.Revoking:
                        spinner.SpinOnce(); // the revoker finds this thread inside and gives the bias back (T11)
                        continue;

                    case State.UndecidedCall:
                    case State.UndecidedMachinery:
                        if (Interlocked.CompareExchange(ref _state, state | (int)State.Checked, state) == state)
                        {
                            return; // T13
                        }

                        continue;

                    case State.Biased:
                        Debug.Assert(_owner == ThreadToken.Current && _ownerInside != 0, "T14: the holder of a biased object is its owner");
                        if (Interlocked.CompareExchange(ref _state, (int)State.CheckedCall, (int)State.Biased) == (int)State.Biased)
                        {
                            Volatile.Write(ref _ownerInside, 0); // T14
                            return;
                        }

                        continue;

                    default:
                        if (Mode(state) != State.Shared)
                        {
                            ImpossibleState(state, nameof(RequireChecks)); // nothing held: RequireChecks needs a holder
                        }

                        return; // a shared object stays shared
                }
            }
        }
    }
}
