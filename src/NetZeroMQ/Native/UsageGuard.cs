using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// Guards a native object that one thread uses at a time (a libzmq socket or message) against <c>Dispose</c> from another
    /// thread and against concurrent use, with no interlocked instruction per call for an object one thread keeps using. This
    /// is the net8.0 build's guard; netstandard2.0, which has no process-wide barrier, builds UsageGuard.NetStandard.cs instead.
    /// </summary>
    /// <remarks>
    /// <para>The protocol, in order (the numbers are the transitions of the table below):</para>
    /// <para>1. Every native call is bracketed by a claim (<see cref="Enter"/> and its variants) and an exit
    /// (<see cref="ExitPlain"/> and its variants). <see cref="_state"/> holds a <see cref="State"/>: a mode in its high bits
    /// and the holder (none, a caller's call, the async machinery's) in its low bits.</para>
    /// <para>2. A new object is undecided: a claim is a compare-exchange of the state (T1), which both catches a second thread
    /// entering (libzmq would assert or corrupt memory) and is the full fence the dispose handshake needs; an exit is a release
    /// store (T4, T5).</para>
    /// <para>3. The <see cref="BiasAfterCalls"/>th call in a row of one thread biases the object to that thread, its owner (T3).
    /// The owner claims with a plain store to <see cref="_ownerInside"/> and a re-read of the state (T7), and leaves with a
    /// plain store (T8). That is the one fast path, the only claim inlined into callers; everything else is out of line.</para>
    /// <para>4. Any other thread revokes the bias first (UsageGuard.Bias.cs): the state becomes revoking (T10), a
    /// process-wide barrier drains every processor's store buffer, and then <see cref="_ownerInside"/> is exact: the owner is
    /// inside (the bias is given back and the call refused as concurrent use, T11) or not (the object is checked for good,
    /// T12). An owner's claim that comes after the barrier re-reads the state, sees the revocation and withdraws (T9).</para>
    /// <para>5. Dispose is a Dekker pair: a caller stores "held" then loads <see cref="_disposeRequested"/>; the disposer
    /// exchanges <see cref="_disposeRequested"/> then loads "held" (D1). A plain claim or exit may still sit in its thread's
    /// store buffer, so a disposer that cannot rule one out runs the process-wide barrier before it looks. Then exactly one
    /// side wins <see cref="TryClaimRelease"/> (D2): the disposer if no call is in flight, else the call, as it leaves. A call
    /// that finds the Dispose only after it left releases only if no other claim holds the object by then (another thread
    /// may have claimed it in between). No native call starts after the release and none is in flight during it.</para>
    /// <para>6. Shared mode (libzmq's thread-safe sockets, which lock inside every call): the low bits count the calls in
    /// flight; a claim is an interlocked increment and an exit a decrement (T15), each a full fence, so the handshake holds
    /// without the barrier, and the call that brings the count to zero after a Dispose releases the object.</para>
    /// <para>Transitions (a state is the mode, + Call or + Machinery for the holder, and for the biased modes whether the owner
    /// is inside; "release store" is <c>Volatile.Write</c>, "plain" a store with no fence). Each is asserted where it happens;
    /// a state outside this table fails the process (<see cref="ImpossibleState"/>). tests/NetZeroMQ.Tests/Races/
    /// UsageGuardModel.cs runs every interleaving of a model of these steps, store buffers included.</para>
    /// <code>
    ///      from                       event (method)                        to                          who                 access
    ///  T1  Undecided|Checked          caller's claim (TryClaim)             same mode + Call            any thread          compare-exchange
    ///  T2  Undecided|Checked          machinery's claim (TryEnter())        same mode + Machinery       the machinery       compare-exchange
    ///  T3  Undecided + Call           exit of the BiasAfterCalls-th call    Biased (owner: the holder)  the holder          release store (publishes _owner)
    ///                                 in a row of one thread (ExitChecked)
    ///  T4  Undecided + Call|Machinery any other exit (ExitChecked)          Undecided                   the holder          release store
    ///  T5  Checked + Call|Machinery   exit (ExitChecked)                    Checked                     the holder          release store
    ///  T6  mode + Machinery|Call      fenced exit (ExitFenced)              mode (T3 counts as above)   the holder          exchange
    ///  T7  Biased, out                owner's claim (TryEnterBiased)        Biased, inside              the owner           plain store, then re-read
    ///  T8  Biased|Revoking, inside    owner's exit (ExitPlain)              same mode, out              the owner           release store
    ///  T9  Revoking|Checked, inside   owner's claim saw a revocation        same mode, out              the owner           release store
    ///  T10 Biased                     revocation starts (Revoke)            Revoking                    not the owner       compare-exchange, then barrier
    ///  T11 Revoking, inside           the owner is in a call (Revoke)       Biased (call refused)       the revoker         release store
    ///  T12 Revoking, out              the owner is out (Revoke)             Checked                     the revoker         release store
    ///  T13 Undecided + Call|Machinery RequireChecks (EndBiasWhileHeld)      Checked + same holder       the holder          compare-exchange
    ///  T14 Biased, inside             RequireChecks (EndBiasWhileHeld)      Checked + Call, out         the owner           compare-exchange, release store
    ///  T15 Shared + n                 claim / exit                          Shared + (n + 1) / (n - 1)  any thread          increment / decrement
    ///  D1  not disposed               RequestDispose                        disposed                    any thread          exchange, then barrier unless every
    ///                                                                                                                       claim in flight is fenced
    ///  D2  disposed, nobody holds     TryClaimRelease (after an exit:       released (once)             disposer or the     exchange: the first one wins
    ///                                 TryClaimReleaseAfterExit)                                         last holder
    /// </code>
    /// </remarks>
    internal partial struct UsageGuard
    {
        /// <summary>The values of <see cref="_state"/>: a mode in the high bits, the holder in the low bits. Internal, not
        /// private, because it is the guard's documented state machine: the tests read the state word by it (through
        /// UnsafeAccessor) instead of the guard carrying members for them.</summary>
        internal enum State
        {
            /// <summary>No call has decided the mode yet (the default of a new object): claims are checked meanwhile.</summary>
            Undecided = 0,
            UndecidedCall = Undecided | Call,
            UndecidedMachinery = Undecided | Machinery,

            /// <summary>Every claim is a compare-exchange, for good (machinery attached, or used by a second thread).</summary>
            Checked = 1 << 16,
            CheckedCall = Checked | Call,
            CheckedMachinery = Checked | Machinery,

            /// <summary>Another thread is revoking the owner's bias (for the length of one process-wide barrier).</summary>
            Revoking = 2 << 16,

            /// <summary>Biased to <see cref="_owner"/>: every claim is the owner's, in <see cref="_ownerInside"/>.</summary>
            Biased = 3 << 16,

            /// <summary>Any number of calls at once (libzmq's thread-safe sockets): the holder bits count them. The highest
            /// mode, so that <see cref="IsShared"/> is one comparison (it is read on every receive).</summary>
            Shared = 4 << 16,

            /// <summary>Holder: a caller's call.</summary>
            Call = 1,

            /// <summary>Holder: the binding's own async machinery (a caller's claim waits for it).</summary>
            Machinery = 2,

            /// <summary>The holder bits.</summary>
            HolderMask = 0xFFFF,
        }

        /// <summary>How many calls in a row one thread makes, checked, before the object is biased to it.</summary>
        internal const int BiasAfterCalls = 64;

        /// <summary>A <see cref="State"/>: the mode and the holder.</summary>
        private int _state;

        /// <summary>1 once <see cref="RequestDispose"/> was called.</summary>
        private int _disposeRequested;

        /// <summary>1 once a thread won the release of the native object (D2).</summary>
        private int _released;

        /// <summary>
        /// 1 when an exit cannot be <see cref="ExitPlain"/>: in shared mode, or after the owner asked for its own exit
        /// (<see cref="RequireSlowExit"/>: a socket with async machinery attached). One flag for both, so the owner's exit
        /// tests one field on its hot path instead of two (every instruction of the exit counts against benchmarks/instructions/budgets.txt).
        /// </summary>
        private int _slowExit;

        /// <summary>1 while the owner of a biased object is inside a call; written only by the owner.</summary>
        private int _ownerInside;

        /// <summary>The <see cref="ThreadToken"/> the object is biased to; written before the state says biased (T3).</summary>
        private int _owner;

        /// <summary>Undecided mode: the thread of the last calls, and how many it made in a row (written by holders only).</summary>
        private int _candidate;
        private int _candidateCalls;

        /// <summary>Lets any number of calls in at once (libzmq's thread-safe sockets); called once, by the owner's constructor
        /// before the object is published.</summary>
        internal void UseSharedMode()
        {
            Debug.Assert(_state == (int)State.Undecided, "shared mode is chosen before the first call");
            _slowExit = 1;
            _state = (int)State.Shared;
        }

        /// <summary>Whether an exit must go through <see cref="Exit"/> (or the owner's own exit) rather than <see cref="ExitPlain"/>.</summary>
        internal bool HasSlowExit => _slowExit != 0;

        /// <summary>Makes <see cref="HasSlowExit"/> true for good; called by the thread that holds the object, so its own exit
        /// sees it, and a later holder sees it through its claim.</summary>
        internal void RequireSlowExit() => _slowExit = 1;

        /// <summary>Whether any number of calls may be in flight at once (<see cref="UseSharedMode"/>).</summary>
        internal bool IsShared
        {
            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            get => Volatile.Read(ref _state) >= (int)State.Shared; // the highest mode: one comparison
        }

        /// <summary>Switches to checked mode for good (async machinery attached); called by the thread that holds the object.
        /// A shared object stays shared: its calls never exclude each other.</summary>
        internal void RequireChecks() => EndBiasWhileHeld();

        /// <summary>Whether <see cref="RequestDispose"/> has been called.</summary>
        internal bool IsDisposeRequested => Volatile.Read(ref _disposeRequested) != 0;

        /// <summary>Whether a call is in flight right now (a hint for waking it up; not a synchronisation point).</summary>
        internal bool IsBusy => (Volatile.Read(ref _state) & (int)State.HolderMask) != 0 || Volatile.Read(ref _ownerInside) != 0;

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
            int me = ThreadToken.Current;
            if (TryEnterBiased(me))
            {
                return Volatile.Read(ref _disposeRequested) == 0;
            }

            return EnterSlow(owner, me);
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
            if (TryEnterBiased(ThreadToken.Current))
            {
                return true;
            }

            return TryEnterChecked();
        }

        /// <summary>
        /// Claims the object if it is free, without throwing; for the async machinery, which must not fail because the owner
        /// happens to be in a call right now. Marks the hold as the machinery's, so a caller's Enter waits for it. A true result
        /// is a claim even if a Dispose raced in: the caller must end it with an exit (which then releases the object), because
        /// that Dispose left the release to this thread. The machinery works only on checked objects (<see cref="RequireChecks"/>).
        /// </summary>
        internal bool TryEnter()
        {
            int state = Volatile.Read(ref _state);
            State mode = Mode(state);
            if (mode == State.Shared)
            {
                Interlocked.Increment(ref _state); // T15
                return true;
            }

            // T2, from a free checked or undecided state only.
            return (mode == State.Checked || mode == State.Undecided) && Holder(state) == 0
                && Interlocked.CompareExchange(ref _state, state | (int)State.Machinery, state) == state;
        }

        /// <summary>
        /// Claims the object for one call without throwing: false when it is disposed (then <paramref name="disposed"/> is true)
        /// or in use by another thread. For rare callers that must not fail, such as a monitor stopping itself. A true result
        /// is a claim even if a Dispose raced in, and it must be ended with an exit (which may then release the object); the
        /// caller reads <see cref="IsDisposeRequested"/> before its native call, because a Dispose that landed between this
        /// method's first read and its claim may have released the object already, having seen no claim.
        /// </summary>
        internal bool TryEnter(out bool disposed)
        {
            disposed = Volatile.Read(ref _disposeRequested) != 0;
            return !disposed && TryClaim(owner: null, ThreadToken.Current);
        }

        /// <summary>
        /// Ends a call with a full fence, so that a flag another thread set before failing <see cref="TryEnter()"/> is seen by the
        /// caller's next read. Returns true when this thread must release the object (see <see cref="Exit"/>).
        /// </summary>
        internal bool ExitFenced()
        {
            int state = Volatile.Read(ref _state);
            if (Mode(state) == State.Shared)
            {
                return ExitShared();
            }

            if (HeldByOwner(state))
            {
                Debug.Assert(_ownerInside != 0, "T8: the owner leaves a call it is inside");
                Interlocked.Exchange(ref _ownerInside, 0);
            }
            else
            {
                Interlocked.Exchange(ref _state, StateAfterCheckedCall(state)); // T6
            }

            return Volatile.Read(ref _disposeRequested) != 0 && TryClaimReleaseAfterExit();
        }

        /// <summary>Ends a call. Returns true when a Dispose arrived during the call and this thread must now release the object.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal bool Exit() => IsShared ? ExitShared() : ExitPlain();

        /// <summary>
        /// <see cref="Exit"/> of an object that is not shared, for owners that have checked <see cref="HasSlowExit"/> already.
        /// Returns true when a Dispose arrived during the call and this thread must now release the object.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal bool ExitPlain()
        {
            int state = _state;
            if (HeldByOwner(state))
            {
                Debug.Assert(_ownerInside != 0, "T8: the owner leaves a call it is inside");
                Volatile.Write(ref _ownerInside, 0); // T8
            }
            else
            {
                ExitChecked(state);
            }

            return Volatile.Read(ref _disposeRequested) != 0 && TryClaimReleaseAfterExit();
        }

        /// <summary>
        /// Marks the object disposed (D1). Returns true when the caller must release it now; false when it was already disposed
        /// or a call in flight on another thread will release it as it leaves (the caller should then wake that call up).
        /// </summary>
        internal bool RequestDispose()
        {
            if (Interlocked.Exchange(ref _disposeRequested, 1) != 0)
            {
                return false;
            }

            // A claim or exit that was a plain store may still sit in its thread's store buffer; only when none can be in
            // flight is the disposer's own fence (the exchange) enough.
            if (!EveryClaimInFlightIsFenced())
            {
                Interlocked.MemoryBarrierProcessWide();
            }

            // A call holds the object: its claim is in the state, or under a bias the owner is inside. In any other mode the
            // owner's flag may still be set by an owner's claim that met a revocation and is withdrawing (T9): that claim
            // makes no call and releases nothing, so counting it would leave the object to nobody.
            int state = Volatile.Read(ref _state);
            if (Holder(state) != 0 || (HeldByOwner(state) && Volatile.Read(ref _ownerInside) != 0))
            {
                return false;
            }

            return TryClaimRelease(); // D2
        }

        /// <summary>A caller's claim of a free checked object, in one compare-exchange (T1), or false with nothing held.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private bool TryEnterChecked() =>
            Interlocked.CompareExchange(ref _state, (int)State.CheckedCall, (int)State.Checked) == (int)State.Checked;

        /// <summary>The exit of a claim held in the state (T3, T4, T5): what a plain exit does when the owner's flag is not it.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private void ExitChecked(int state) => Volatile.Write(ref _state, StateAfterCheckedCall(state));

        /// <summary>
        /// For <see cref="RequestDispose"/>, after its exchange: whether every claim that could be in flight is fenced, so that
        /// the disposer's own fence settles the handshake. Not so when a plain store may sit in another thread's store buffer:
        /// under a bias to another thread or one being revoked (the owner's claim and exit), and while a checked call holds the
        /// object (its exit).
        /// </summary>
        private bool EveryClaimInFlightIsFenced()
        {
            if (Volatile.Read(ref _ownerInside) != 0)
            {
                return false;
            }

            int state = Volatile.Read(ref _state);
            switch ((State)state)
            {
                case State.Undecided:
                case State.Checked:
                    return true; // every claim from here is a compare-exchange
                case State.Biased:
                    return _owner == ThreadToken.Current; // the disposer is the owner, and not inside
                default:
                    return Mode(state) == State.Shared; // every claim and exit is interlocked
            }
        }

        /// <summary>Ends one of the shared calls (T15); the last one out after a Dispose releases the object.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private bool ExitShared()
        {
            int state = Interlocked.Decrement(ref _state);
            Debug.Assert(Mode(state) == State.Shared, "T15: a shared object stays shared");
            return Holder(state) == 0 && Volatile.Read(ref _disposeRequested) != 0 && TryClaimReleaseAfterExit();
        }

        /// <summary>
        /// D2 for a thread that has left its call and then found the object disposed: it releases the object only if no claim
        /// holds it now. Another thread may have claimed the object after this one left and before the Dispose, and be in its
        /// native call; the exit of that claim releases the object instead (or the disposer, which looks after it). A claim
        /// that comes after this read finds the Dispose when it reads the flag after claiming, and makes no native call.
        /// </summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private bool TryClaimReleaseAfterExit() => Holder(Volatile.Read(ref _state)) == 0 && TryClaimRelease();

        /// <summary>D2: true for the one thread that releases the native object.</summary>
        private bool TryClaimRelease()
        {
            Debug.Assert(Volatile.Read(ref _disposeRequested) != 0, "D2: the release follows a Dispose");
            return Interlocked.Exchange(ref _released, 1) == 0;
        }

        private static State Mode(int state) => (State)(state & ~(int)State.HolderMask);

        private static int Holder(int state) => state & (int)State.HolderMask;

        /// <summary>A state outside the transition table: the guard's memory is corrupt or a caller broke the protocol (an exit
        /// without a claim). Nothing can be trusted to release the object or exclude a second caller, so the process ends.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void ImpossibleState(int state, string where) =>
            System.Environment.FailFast("NetZeroMQ usage guard: impossible state 0x" + state.ToString("X", System.Globalization.CultureInfo.InvariantCulture) + " in " + where);
    }
}
