using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// Guards a native object that one thread uses at a time (a libzmq socket or message) against <c>Dispose</c> from another
    /// thread and against accidental concurrent use: with no interlocked instruction per call for an object one thread uses
    /// (its owner, see <c>UsageGuard.Bias.cs</c>), one compare-exchange per call otherwise.
    /// </summary>
    /// <remarks>
    /// <para>
    /// Each native call is bracketed by <see cref="Enter"/> and <see cref="Exit"/>. <see cref="_state"/> holds, in its low
    /// bits, who holds the object (free, a caller's call, the binding's own async machinery, or in shared mode the count of
    /// calls in flight) and, in its high bits, its mode: not decided yet, checked, or biased to one thread. A checked claim is
    /// one compare-exchange on <see cref="_state"/>: that both detects a second thread using the object at the same time (libzmq
    /// would assert or corrupt memory) and is the full fence the dispose handshake needs. An exit is a plain store.
    /// </para>
    /// <para>
    /// The dispose handshake is a Dekker pair: the user stores "held" then loads <c>disposeRequested</c>; the disposer stores
    /// <c>disposeRequested</c> then loads "held". Because an exit's store (and a biased claim's) is not fenced, a disposer that
    /// cannot rule out a call in flight flushes every processor's store buffer (<c>Interlocked.MemoryBarrierProcessWide</c>, an
    /// IPI-based barrier) and looks again; this moves the fence cost from every call to the rare Dispose that races one. After
    /// that, exactly one side wins <see cref="TryClaimRelease"/>: the disposer if no call is in flight, else the thread whose
    /// call was in flight, when it leaves. Either way no native call starts after the release and none is in flight during it.
    /// </para>
    /// <para>netstandard2.0 has no process-wide barrier: there every claim is checked and an exit is an interlocked exchange.</para>
    /// <para>
    /// Unchecked mode (opt-in, process-wide, see <see cref="ConcurrencyChecks"/>): <see cref="Enter"/> becomes a plain store and
    /// a plain read for every thread. Dispose stays race-free: the disposer then always flushes the store buffers before it
    /// trusts "held". What is lost is the guarantee of catching two threads entering at the same instant (a busy object is still
    /// noticed when it is visibly busy). Objects with async machinery attached always use the checked mode, because the
    /// reactor thread claims them with a compare-exchange.
    /// </para>
    /// <para>
    /// Shared mode (libzmq's thread-safe socket types, which lock inside every call): any number of calls may be in flight at
    /// once, so the low bits count them. A shared claim is an interlocked increment and its end an interlocked decrement, each
    /// a full fence, so the same Dekker argument holds without the process-wide barrier; the call that brings the count to
    /// zero after a Dispose releases the object.
    /// </para>
    /// </remarks>
    internal partial struct UsageGuard
    {
        private const int HolderMask = 0xFFFF;
        private const int Free = 0;
        private const int UserCall = 1;
        private const int InternalCall = 2;

        /// <summary>Mode: no call has decided yet (the default of a new object); calls are checked meanwhile.</summary>
        private const int Undecided = 0;

        /// <summary>Mode: every claim is a compare-exchange, for good (shared, machinery attached, or used by a second thread).</summary>
        private const int Checked = 1 << 16;

        /// <summary>The holder and mode bits (see the remarks).</summary>
        private int _state;
        private int _disposeRequested;
        private int _released;

        /// <summary>1 in unchecked mode (plain-store enter); 0 in the default checked mode and in shared mode.</summary>
        private int _unchecked;

        /// <summary>1 in shared mode (a thread-safe native object: the holder bits count the calls in flight); else 0.</summary>
        private int _shared;

        /// <summary>
        /// 1 when an exit cannot be <see cref="ExitPlain"/>: in shared mode, or after the owner asked for its own exit
        /// (<see cref="RequireSlowExit"/>: a socket with async machinery attached). One flag for both, so the owner's exit
        /// tests one field on its hot path instead of two (callgrind: 3 instructions per call).
        /// </summary>
        private int _slowExit;

        // Biased mode (UsageGuard.Bias.cs).
        /// <summary>1 while the owner of a biased object is inside a call; written only by the owner.</summary>
        private int _ownerInside;

#if NET
        /// <summary>The managed thread id the object was biased to; set once, before the mode says biased.</summary>
        private int _owner;

        /// <summary>Undecided mode: the thread of the last calls, and how many it made in a row (written by holders only).</summary>
        private int _candidate;
        private int _candidateCalls;
#endif

        /// <summary>Applies the process-wide choice of <see cref="ConcurrencyChecks"/>; called once, by the owner's constructor.</summary>
        internal void UseConfiguredMode()
        {
#if NET
            if (!ConcurrencyChecks.Enabled)
            {
                _unchecked = 1;
                _state = Checked;
            }
#endif
        }

        /// <summary>Lets any number of calls in at once (libzmq's thread-safe sockets); called once, by the owner's constructor
        /// before the object is published. Overrides <see cref="UseConfiguredMode"/>: there is nothing to check.</summary>
        internal void UseSharedMode()
        {
            _unchecked = 0;
            _shared = 1;
            _slowExit = 1;
            _state = Checked;
        }

        /// <summary>Whether an exit must go through <see cref="Exit"/> (or the owner's own exit) rather than <see cref="ExitPlain"/>.</summary>
        internal bool HasSlowExit => _slowExit != 0;

        /// <summary>Makes <see cref="HasSlowExit"/> true for good; called by the thread that holds the object, so its own exit
        /// sees it, and a later holder sees it through its claim.</summary>
        internal void RequireSlowExit() => _slowExit = 1;

        /// <summary>Whether any number of calls may be in flight at once (<see cref="UseSharedMode"/>).</summary>
        internal bool IsShared => _shared != 0;

        /// <summary>Switches to checked mode for good (async machinery attached); called by the thread that holds the object.
        /// A shared object stays shared: its calls never exclude each other.</summary>
        internal void RequireChecks()
        {
            Interlocked.Exchange(ref _unchecked, 0);
#if NET
            EndBiasWhileHeld();
#endif
        }

        /// <summary>Whether <see cref="RequestDispose"/> has been called.</summary>
        internal bool IsDisposeRequested => Volatile.Read(ref _disposeRequested) != 0;

        /// <summary>Whether a call is in flight right now (a hint for waking it up; not a synchronisation point).</summary>
        internal bool IsBusy => (Volatile.Read(ref _state) & HolderMask) != Free || OwnerIsInside;

        /// <summary>
        /// Claims the object for one call; throws <see cref="System.InvalidOperationException"/> (concurrent use) with
        /// <paramref name="owner"/> named. Returns false when the object was disposed: the claim is then still held, and the
        /// caller must <see cref="Exit"/> (releasing the object if that returns true) and throw
        /// <see cref="System.ObjectDisposedException"/>. A Dispose that lands between the claim and the check has left the
        /// release to this thread, so simply dropping the claim here would leak the native object.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal bool Enter(object owner)
        {
#if NET
            int me = ThreadToken.Current;
            if (TryEnterBiased(me))
            {
                return Volatile.Read(ref _disposeRequested) == 0;
            }

            if (_unchecked != 0)
            {
                if (Volatile.Read(ref _state) != Checked)
                {
                    ZmqThrow.ConcurrentUse(owner);
                }

                Volatile.Write(ref _state, Checked | UserCall);
                return Volatile.Read(ref _disposeRequested) == 0;
            }

            if (Interlocked.CompareExchange(ref _state, Checked | UserCall, Checked) != Checked)
            {
                return EnterSlow(owner, me);
            }
#else
            if (Interlocked.CompareExchange(ref _state, UserCall, Free) != Free)
            {
                EnterContended(owner);
            }
#endif
            return Volatile.Read(ref _disposeRequested) == 0;
        }

        /// <summary>
        /// Claims the object for a caller's call if it is free, as <see cref="Enter"/> would, but never waits or throws: false
        /// (nothing held) when another call holds it, or when the claim needs more than one step (the usual path's
        /// <see cref="Enter"/> takes it). For a hot path's first attempt, which then takes its usual path. A true result is a
        /// claim even if a Dispose raced in: the caller checks <see cref="IsDisposeRequested"/> and exits.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal bool TryEnterFree()
        {
#if NET
            if (TryEnterBiased(ThreadToken.Current))
            {
                return true;
            }

            if (_unchecked != 0)
            {
                if (Volatile.Read(ref _state) != Checked)
                {
                    return false;
                }

                Volatile.Write(ref _state, Checked | UserCall);
                return true;
            }

            return Interlocked.CompareExchange(ref _state, Checked | UserCall, Checked) == Checked;
#else
            return Interlocked.CompareExchange(ref _state, UserCall, Free) == Free;
#endif
        }

        /// <summary>
        /// Claims the object if it is free, without throwing; for the async machinery, which must not fail because the owner
        /// happens to be in a call right now. Marks the hold as internal, so a caller's Enter waits for it. A true result is a
        /// claim even if a Dispose raced in: the caller must end it with an exit (which then releases the object), because that
        /// Dispose left the release to this thread. The machinery works only on checked objects (<see cref="RequireChecks"/>).
        /// </summary>
        internal bool TryEnter()
        {
            if (_shared != 0)
            {
                Interlocked.Increment(ref _state);
                return true;
            }

            int state = Volatile.Read(ref _state);
            return (state & HolderMask) == Free && IsCheckedMode(state)
                && Interlocked.CompareExchange(ref _state, state | InternalCall, state) == state;
        }

        /// <summary>
        /// Claims the object for one call without throwing: false when it is disposed (then <paramref name="disposed"/> is true)
        /// or in use by another thread. For rare callers that must not fail, such as a monitor stopping itself. As with
        /// <see cref="TryEnter()"/>, a true result must be ended with an exit even if a Dispose raced in.
        /// </summary>
        internal bool TryEnter(out bool disposed)
        {
            disposed = Volatile.Read(ref _disposeRequested) != 0;
            if (disposed)
            {
                return false;
            }

            if (_shared != 0)
            {
                Interlocked.Increment(ref _state);
                return true;
            }

#if NET
            return TryClaim(owner: null, ThreadToken.Current);
#else
            return Interlocked.CompareExchange(ref _state, UserCall, Free) == Free;
#endif
        }

        /// <summary>
        /// Ends a call with a full fence, so that a flag another thread set before failing <see cref="TryEnter()"/> is seen by the
        /// caller's next read. Returns true when this thread must release the object (see <see cref="Exit"/>).
        /// </summary>
        internal bool ExitFenced()
        {
            if (_shared != 0)
            {
                return ExitShared();
            }

#if NET
            int state = Volatile.Read(ref _state);
            if (HeldByOwner(state))
            {
                Interlocked.Exchange(ref _ownerInside, 0);
            }
            else
            {
                Interlocked.Exchange(ref _state, ModeAfterCheckedCall(state));
            }
#else
            Interlocked.Exchange(ref _state, Free);
#endif
            return Volatile.Read(ref _disposeRequested) != 0 && TryClaimRelease();
        }

        /// <summary>Ends a call. Returns true when a Dispose arrived during the call and this thread must now release the object.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal bool Exit()
        {
            if (_shared != 0)
            {
                return ExitShared();
            }

            return ExitPlain();
        }

        /// <summary>
        /// <see cref="Exit"/> of an object that is not shared, for owners that have checked <see cref="HasSlowExit"/> already.
        /// Returns true when a Dispose arrived during the call and this thread must now release the object.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal bool ExitPlain()
        {
#if NET
            int state = _state;
            if (HeldByOwner(state))
            {
                Volatile.Write(ref _ownerInside, 0);
            }
            else if (state == (Checked | UserCall))
            {
                Volatile.Write(ref _state, Checked);
            }
            else
            {
                ExitUndecided();
            }
#else
            Interlocked.Exchange(ref _state, Free);
#endif
            return Volatile.Read(ref _disposeRequested) != 0 && TryClaimRelease();
        }

        /// <summary>
        /// Marks the object disposed. Returns true when the caller must release it now; false when it was already disposed or a
        /// call in flight on another thread will release it as it leaves (the caller should then wake that call up).
        /// </summary>
        internal bool RequestDispose()
        {
            if (Interlocked.Exchange(ref _disposeRequested, 1) != 0)
            {
                return false;
            }

#if NET
            // A call whose claim was a plain store (a biased or unchecked claim) may still sit in its thread's store buffer;
            // only when no such claim can be in flight is the disposer's own fence enough.
            if (!NoPlainClaimCanBeInFlight())
            {
                Interlocked.MemoryBarrierProcessWide();
            }
#endif
            if ((Volatile.Read(ref _state) & HolderMask) != Free || OwnerIsInside)
            {
                return false;
            }

            return TryClaimRelease();
        }

        /// <summary>Whether a mode state allows checked claims (a compare-exchange on the state).</summary>
        private static bool IsCheckedMode(int state) => (state & ~HolderMask) is Checked or Undecided;

#if !NET
        /// <summary>Another call holds the object: join it (shared), wait for the machinery's short retry, or throw.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private void EnterContended(object owner)
        {
            if (_shared != 0)
            {
                Interlocked.Increment(ref _state);
                return;
            }

            var spinner = default(SpinWait);
            int prior;
            while ((prior = Interlocked.CompareExchange(ref _state, UserCall, Free)) == InternalCall)
            {
                spinner.SpinOnce();
            }

            if (prior != Free)
            {
                ZmqThrow.ConcurrentUse(owner);
            }
        }
#endif

        /// <summary>Ends one of the shared calls; the last one out after a Dispose releases the object.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private bool ExitShared() =>
            (Interlocked.Decrement(ref _state) & HolderMask) == Free && Volatile.Read(ref _disposeRequested) != 0 && TryClaimRelease();

        private bool TryClaimRelease() => Interlocked.Exchange(ref _released, 1) == 0;
    }
}
