using System;
using System.Collections.Generic;
using System.Linq;

namespace NetZeroMQ.Tests.Races
{
    /// <summary>
    /// A model of the usage guard's protocol (src/NetZeroMQ/Native/UsageGuard.cs and UsageGuard.Bias.cs, the net8.0 build)
    /// and a checker that runs every interleaving of it, with store buffers, and checks the guard's promises in each.
    /// </summary>
    /// <remarks>
    /// <para>1. Memory: the guard's fields (<see cref="Var"/>). Every thread has a store buffer, first in first out, as on
    /// x86 (total store order): a plain or volatile store goes into the thread's buffer, a read takes the thread's newest
    /// buffered store of that field or else memory, the oldest entry of any buffer may drain to memory at any step, an
    /// interlocked operation drains its own thread's buffer first and then acts on memory at once, and the process-wide
    /// barrier drains every buffer.</para>
    /// <para>2. Actors: the owner (thread token 1) and a second thread (token 2) each make a few calls (claim, the native call,
    /// exit; the release if the exit says so), and a disposer (token 3) calls RequestDispose once and releases if it returns
    /// true. Each step of an actor is one access to a field, as the real code makes them, and each is commented with the
    /// line of the guard it models, as <c>// [file] code</c>: UsageGuardModelTests checks that every such line is still in the
    /// guard, so a change to the guard that the model does not follow fails a test. A spin wait (a revocation in progress)
    /// is a step that can only be taken once the awaited field reads otherwise.</para>
    /// <para>3. The checker enumerates by depth-first search every state reachable from the start (a state is memory,
    /// buffers, every actor's position and locals, and the record kept for the checks), each once, so every interleaving
    /// of the bounded program is covered. What it checks (<see cref="Violation"/>): never two claims at once; no native call
    /// starts after the release, and the release never happens during one; the release happens at most once, and exactly
    /// once at the end when Dispose was called (never otherwise); a call is refused only while another caller is in a call
    /// or its leaving is not visible yet (its exit's store still in its buffer); every actor finishes (no thread waits
    /// forever); at the end nothing is held.</para>
    /// <para>4. <see cref="Flaw"/> breaks the model on purpose, to show that the checker finds what a missing fence does.</para>
    /// </remarks>
    internal sealed class UsageGuardModel
    {
        /// <summary>The guard's fields.</summary>
        internal enum Var
        {
            State,
            OwnerInside,
            DisposeRequested,
            Released,
            Owner,
            Candidate,
            CandidateCalls,
        }

        /// <summary>A deliberate break of the protocol, for the checker to find.</summary>
        internal enum Flaw
        {
            None,

            /// <summary>The revoker looks at the owner's flag without the process-wide barrier.</summary>
            RevokerSkipsBarrier,

            /// <summary>The disposer looks at the holder without the process-wide barrier.</summary>
            DisposerSkipsBarrier,

            /// <summary>The owner's claim does not re-read the state after marking itself inside.</summary>
            OwnerSkipsReread,

            /// <summary>An exit that finds the object disposed releases it without looking whether another thread has
            /// claimed it since (the guard before this model: such a thread could be inside its native call).</summary>
            ExitReleasesWithoutLookingAtTheState,

            /// <summary>The disposer counts the owner's flag in every mode (the guard before this model: in the checked mode
            /// the flag can be an owner's claim that is withdrawing, which releases nothing, and the object leaked).</summary>
            DisposerCountsAWithdrawingOwner,
        }

        /// <summary>How the second thread claims.</summary>
        internal enum Api
        {
            /// <summary><c>Enter</c>: throws concurrent use; after the claim, false when disposed.</summary>
            Enter,

            /// <summary><c>TryEnter(out bool disposed)</c> (false when disposed or in use), and after a true result the caller
            /// reads <c>IsDisposeRequested</c> before its native call, as the guard's contract asks: a Dispose may have
            /// landed between the first read and the claim.</summary>
            TryEnterOut,

            /// <summary><c>TryEnter(out bool disposed)</c> whose caller makes its native call on a true result without that
            /// re-read (Socket.TryLease at 7b5ea85): a deliberate break, as <see cref="Flaw"/>.</summary>
            TryEnterOutWithoutRecheck,
        }

        /// <summary>A bounded scenario: where the guard starts, and what each actor does.</summary>
        /// <param name="Start">The guard's state at the start: Biased (to the owner), Undecided or Checked.</param>
        /// <param name="OwnerCalls">Calls the owner makes, one after the other.</param>
        /// <param name="SecondCalls">Calls the second thread makes.</param>
        /// <param name="SecondApi">How the second thread claims.</param>
        /// <param name="Dispose">Whether the disposer runs.</param>
        /// <param name="BiasAfterCalls">The model's <c>UsageGuard.BiasAfterCalls</c> (small, so that a bias happens within the bound).</param>
        /// <param name="OwnerCallsInARow">At an undecided start: how many calls in a row the owner has made already.</param>
        /// <param name="Flaw">A deliberate break of the protocol.</param>
        internal sealed record Scenario(
            int Start, int OwnerCalls, int SecondCalls, Api SecondApi, bool Dispose, int BiasAfterCalls = 3, int OwnerCallsInARow = 0, Flaw Flaw = Flaw.None);

        /// <summary>What a check found, with the steps that led to it.</summary>
        internal sealed record Violation(string Rule, string Trace);

        /// <summary>What the search saw: states, the violations (the first of each rule), and the events that happened somewhere.</summary>
        internal sealed record Result(int States, long Steps, IReadOnlyList<Violation> Violations, IReadOnlySet<string> Events);

        // The values of the state field, as UsageGuard.State.
        internal const int Undecided = 0;
        internal const int Checked = 1 << 16;
        internal const int Revoking = 2 << 16;
        internal const int Biased = 3 << 16;
        private const int Call = 1;
        private const int HolderMask = 0xFFFF;

        /// <summary>An event the tests ask about: the owner's call refused while the second thread was in a call on the
        /// object it had taken over (what 16cdf6a found a test wrongly asserting never happens).</summary>
        internal const string OwnerRefusedWhileSecondInACall = "the owner's call refused while the second thread was in a call";

        /// <summary>An event: the second thread revoked the bias and made its call.</summary>
        internal const string SecondCalledAfterRevoking = "the second thread revoked the bias and made its call";

        /// <summary>An event: the owner's claim met a revocation and withdrew (T9).</summary>
        internal const string OwnerWithdrew = "the owner's claim withdrew from a revocation";

        /// <summary>An event: the second thread was refused because the owner was inside (T11).</summary>
        internal const string RevokerFoundOwnerInside = "the revoker found the owner inside and gave the bias back";

        /// <summary>An event: the object became biased during the run (T3).</summary>
        internal const string BiasedDuringRun = "an exit biased the object";

        /// <summary>An event: a call's holder released the object after a Dispose, rather than the disposer.</summary>
        internal const string ReleasedByCaller = "a caller's exit released the object";

        private const int Vars = 7;
        private const int Actors = 3;
        private const int Owner = 0;
        private const int Second = 1;
        private const int Disposer = 2;
        private const int BufferCapacity = 12;

        // One actor's slots in the world array.
        private const int PcSlot = 0;
        private const int CallsSlot = 1;
        private const int LocalSlot = 2; // a value the next step needs (a state read, the next state, a count)
        private const int RevokedSlot = 3; // the second thread revoked the bias during this call (for an event)
        private const int InCallSlot = 4;
        private const int HoldsSlot = 5; // holds a claim (from its success to the start of the exit)
        private const int NativeSlot = 6; // in its native call (the claim succeeded and the object was not disposed)
        private const int BufferLengthSlot = 7;
        private const int BufferSlot = 8; // BufferCapacity pairs of (field, value)
        private const int ActorSize = BufferSlot + 2 * BufferCapacity;
        private const int ReleasesSlot = Vars + Actors * ActorSize;
        private const int WorldSize = ReleasesSlot + 1;

        /// <summary>An actor's position: the step it takes next.</summary>
        private enum Pc
        {
            CallStart,
            Done,

            // Enter, TryEnter(out bool), TryEnterBiased (T7, T9)
            EnterReadDisposed,
            TryEnterReadDisposed,
            BiasedReadState,
            BiasedReadOwner,
            BiasedReadInside,
            BiasedStoreInside,
            BiasedReread,
            BiasedWithdraw,

            // TryClaim (T1) and Revoke (T10 to T12)
            ClaimReadState,
            ClaimReadOwner,
            ClaimReadInside,
            ClaimCompareExchange,
            RevokeCompareExchange,
            RevokeBarrier,
            RevokeReadInside,
            RevokeGiveBack,
            RevokeChecked,

            // ExitPlain (T3 to T5, T8) and the release (D2)
            ExitReadState,
            ExitStoreInside,
            ExitReadCandidate,
            ExitStoreCandidate,
            ExitResetCount,
            ExitReadCount,
            ExitStoreCount,
            ExitStoreOwner,
            ExitStoreState,
            ExitReadDisposed,
            ExitReadHeld,
            ExitRelease,

            // RequestDispose (D1, D2)
            DisposeExchange,
            DisposeReadInside,
            DisposeReadState,
            DisposeReadOwner,
            DisposeBarrier,
            DisposeReadHeld,
            DisposeReadHeldInside,
            DisposeRelease,
        }

        private readonly Scenario _scenario;
        private readonly HashSet<(ulong, ulong)> _visited = new HashSet<(ulong, ulong)>();
        private readonly List<Violation> _violations = new List<Violation>();
        private readonly HashSet<string> _events = new HashSet<string>(StringComparer.Ordinal);
        private readonly List<string> _trace = new List<string>();
        private long _steps;

        private UsageGuardModel(Scenario scenario) => _scenario = scenario;

        /// <summary>Runs every interleaving of <paramref name="scenario"/>.</summary>
        internal static Result Check(Scenario scenario)
        {
            var model = new UsageGuardModel(scenario);
            int[] start = new int[WorldSize];
            start[(int)Var.State] = scenario.Start;
            if (scenario.Start == Biased)
            {
                start[(int)Var.Owner] = Token(Owner);
            }
            else if (scenario.OwnerCallsInARow > 0)
            {
                start[(int)Var.Candidate] = Token(Owner);
                start[(int)Var.CandidateCalls] = scenario.OwnerCallsInARow;
            }

            start[Slot(Disposer, PcSlot)] = (int)(scenario.Dispose ? Pc.DisposeExchange : Pc.Done);
            model.Search(start);
            return new Result(model._visited.Count, model._steps, model._violations, model._events);
        }

        private static int Token(int actor) => actor + 1;

        private static int Slot(int actor, int slot) => Vars + actor * ActorSize + slot;

        private static string Name(int actor) => actor switch { Owner => "owner", Second => "second", _ => "disposer" };

        private void Search(int[] world)
        {
            if (!_visited.Add(Key(world)))
            {
                return;
            }

            bool any = false;
            for (int actor = 0; actor < Actors; actor++)
            {
                if (Enabled(world, actor))
                {
                    any = true;
                    Follow(world, actor, drain: false);
                }

                if (world[Slot(actor, BufferLengthSlot)] > 0)
                {
                    any = true;
                    Follow(world, actor, drain: true);
                }
            }

            if (!any)
            {
                CheckEnd(world);
            }
        }

        private void Follow(int[] world, int actor, bool drain)
        {
            _steps++;
            int[] next = (int[])world.Clone();
            string label;
            string? broken;
            if (drain)
            {
                label = Name(actor) + ": its store of " + (Var)next[Slot(actor, BufferSlot)] + " reaches memory";
                DrainOne(next, actor);
                broken = null;
            }
            else
            {
                label = Name(actor) + ": " + (Pc)next[Slot(actor, PcSlot)];
                broken = Step(next, actor);
            }

            _trace.Add(label);
            if (broken is not null)
            {
                Report(broken);
            }
            else
            {
                Search(next);
            }

            _trace.RemoveAt(_trace.Count - 1);
        }

        private void Report(string rule)
        {
            if (_violations.All(v => v.Rule != rule))
            {
                _violations.Add(new Violation(rule, string.Join(Environment.NewLine, _trace)));
            }
        }

        private bool Enabled(int[] w, int actor)
        {
            Pc pc = (Pc)w[Slot(actor, PcSlot)];
            if (pc == Pc.Done)
            {
                return false;
            }

            // TryClaim spins while a revocation is in progress (SpinOnce; continue): the read that ends the wait is the step.
            return pc != Pc.ClaimReadState || Read(w, actor, Var.State) != Revoking;
        }

        /// <summary>At a state where nothing can move: every actor finished, nothing is held, the release balances.</summary>
        private void CheckEnd(int[] w)
        {
            for (int actor = 0; actor < Actors; actor++)
            {
                if ((Pc)w[Slot(actor, PcSlot)] != Pc.Done)
                {
                    Report("every actor finishes (none waits forever)");
                    return;
                }
            }

            int state = w[(int)Var.State];
            if ((state & HolderMask) != 0 || state == Revoking || w[(int)Var.OwnerInside] != 0)
            {
                Report("at the end nothing is held");
            }

            int expected = w[(int)Var.DisposeRequested];
            if (w[ReleasesSlot] != expected)
            {
                Report(expected == 1 ? "a disposed object is released (no leak)" : "an object not disposed is never released");
            }
        }

        // ---- memory with store buffers ----

        private static int Read(int[] w, int actor, Var field)
        {
            for (int i = w[Slot(actor, BufferLengthSlot)] - 1; i >= 0; i--)
            {
                if (w[Slot(actor, BufferSlot + 2 * i)] == (int)field)
                {
                    return w[Slot(actor, BufferSlot + 2 * i + 1)];
                }
            }

            return w[(int)field];
        }

        private static void Store(int[] w, int actor, Var field, int value)
        {
            int length = w[Slot(actor, BufferLengthSlot)];
            if (length == BufferCapacity)
            {
                throw new InvalidOperationException("the model's store buffer is too small");
            }

            w[Slot(actor, BufferSlot + 2 * length)] = (int)field;
            w[Slot(actor, BufferSlot + 2 * length + 1)] = value;
            w[Slot(actor, BufferLengthSlot)] = length + 1;
        }

        private static void DrainOne(int[] w, int actor)
        {
            int length = w[Slot(actor, BufferLengthSlot)];
            w[w[Slot(actor, BufferSlot)]] = w[Slot(actor, BufferSlot + 1)];
            for (int i = 1; i < length; i++)
            {
                w[Slot(actor, BufferSlot + 2 * (i - 1))] = w[Slot(actor, BufferSlot + 2 * i)];
                w[Slot(actor, BufferSlot + 2 * (i - 1) + 1)] = w[Slot(actor, BufferSlot + 2 * i + 1)];
            }

            w[Slot(actor, BufferSlot + 2 * (length - 1))] = 0;
            w[Slot(actor, BufferSlot + 2 * (length - 1) + 1)] = 0;
            w[Slot(actor, BufferLengthSlot)] = length - 1;
        }

        private static void DrainAll(int[] w, int actor)
        {
            while (w[Slot(actor, BufferLengthSlot)] > 0)
            {
                DrainOne(w, actor);
            }
        }

        private static void Barrier(int[] w)
        {
            for (int actor = 0; actor < Actors; actor++)
            {
                DrainAll(w, actor);
            }
        }

        private static int CompareExchange(int[] w, int actor, Var field, int value, int comparand)
        {
            DrainAll(w, actor);
            int old = w[(int)field];
            if (old == comparand)
            {
                w[(int)field] = value;
            }

            return old;
        }

        private static int Exchange(int[] w, int actor, Var field, int value)
        {
            DrainAll(w, actor);
            int old = w[(int)field];
            w[(int)field] = value;
            return old;
        }

        // ---- the actors' steps ----

        /// <summary>One step of <paramref name="actor"/>: one access to a field (or none, between calls). Returns the rule it
        /// broke, or null.</summary>
        private string? Step(int[] w, int a)
        {
            int me = Token(a);
            ref int pc = ref w[Slot(a, PcSlot)];
            ref int local = ref w[Slot(a, LocalSlot)];
            switch ((Pc)pc)
            {
                case Pc.CallStart:
                    if (w[Slot(a, CallsSlot)] == (a == Owner ? _scenario.OwnerCalls : _scenario.SecondCalls))
                    {
                        pc = (int)Pc.Done;
                        return null;
                    }

                    w[Slot(a, InCallSlot)] = 1;
                    if (a == Second && _scenario.SecondApi != Api.Enter)
                    {
                        pc = (int)Pc.TryEnterReadDisposed;
                    }
                    else
                    {
                        pc = (int)Pc.BiasedReadState;
                    }

                    return null;

                // -- TryEnter(out bool disposed)
                case Pc.TryEnterReadDisposed:
                    // [UsageGuard.cs] disposed = Volatile.Read(ref _disposeRequested) != 0;
                    if (Read(w, a, Var.DisposeRequested) != 0)
                    {
                        return EndCall(w, a);
                    }

                    pc = (int)Pc.ClaimReadState;
                    return null;

                // -- TryEnterBiased (T7, T9)
                case Pc.BiasedReadState:
                    // [UsageGuard.Bias.cs] if (Volatile.Read(ref _state) == (int)State.Biased && _owner == me && _ownerInside == 0)
                    pc = (int)(Read(w, a, Var.State) == Biased ? Pc.BiasedReadOwner : BiasedFalse(w, a));
                    return null;

                case Pc.BiasedReadOwner:
                    // [UsageGuard.Bias.cs] if (Volatile.Read(ref _state) == (int)State.Biased && _owner == me && _ownerInside == 0)
                    pc = (int)(Read(w, a, Var.Owner) == me ? Pc.BiasedReadInside : BiasedFalse(w, a));
                    return null;

                case Pc.BiasedReadInside:
                    // [UsageGuard.Bias.cs] if (Volatile.Read(ref _state) == (int)State.Biased && _owner == me && _ownerInside == 0)
                    pc = (int)(Read(w, a, Var.OwnerInside) == 0 ? Pc.BiasedStoreInside : BiasedFalse(w, a));
                    return null;

                case Pc.BiasedStoreInside:
                    // [UsageGuard.Bias.cs] Volatile.Write(ref _ownerInside, 1);
                    Store(w, a, Var.OwnerInside, 1);
                    pc = (int)Pc.BiasedReread;
                    return null;

                case Pc.BiasedReread:
                    // [UsageGuard.Bias.cs] if (Volatile.Read(ref _state) == (int)State.Biased)
                    if (_scenario.Flaw == Flaw.OwnerSkipsReread || Read(w, a, Var.State) == Biased)
                    {
                        return Claimed(w, a);
                    }

                    _events.Add(OwnerWithdrew);
                    pc = (int)Pc.BiasedWithdraw;
                    return null;

                case Pc.BiasedWithdraw:
                    // [UsageGuard.Bias.cs] Volatile.Write(ref _ownerInside, 0);
                    Store(w, a, Var.OwnerInside, 0);
                    pc = (int)BiasedFalse(w, a);
                    return null;

                // -- Enter's last step (and EnterSlow's)
                case Pc.EnterReadDisposed:
                    // [UsageGuard.cs] return Volatile.Read(ref _disposeRequested) == 0;
                    pc = (int)Pc.ExitReadState;
                    return Read(w, a, Var.DisposeRequested) == 0 ? NativeCallStarts(w, a) : null;

                // -- TryClaim (T1, T7 again)
                case Pc.ClaimReadState:
                    // [UsageGuard.Bias.cs] int state = Volatile.Read(ref _state);
                    local = Read(w, a, Var.State);
                    switch (local)
                    {
                        case Biased:
                            pc = (int)Pc.ClaimReadOwner;
                            return null;
                        case Undecided:
                        case Checked:
                            pc = (int)Pc.ClaimCompareExchange;
                            return null;
                        case Undecided | Call:
                        case Checked | Call:
                            return Refused(w, a) ?? EndCall(w, a);
                        default:
                            return "a state outside the table (" + local + ")";
                    }

                case Pc.ClaimReadOwner:
                    // [UsageGuard.Bias.cs] case State.Biased when _owner != me:
                    pc = (int)(Read(w, a, Var.Owner) != me ? Pc.RevokeCompareExchange : Pc.ClaimReadInside);
                    return null;

                case Pc.ClaimReadInside:
                    // [UsageGuard.Bias.cs] case State.Biased when _ownerInside != 0:
                    if (Read(w, a, Var.OwnerInside) != 0)
                    {
                        return Refused(w, a) ?? EndCall(w, a);
                    }

                    pc = (int)Pc.BiasedReadState;
                    return null;

                case Pc.ClaimCompareExchange:
                    // [UsageGuard.Bias.cs] if (Interlocked.CompareExchange(ref _state, state | (int)State.Call, state) == state)
                    if (CompareExchange(w, a, Var.State, local | Call, local) == local)
                    {
                        return Claimed(w, a);
                    }

                    pc = (int)Pc.ClaimReadState;
                    return null;

                // -- Revoke (T10 to T12)
                case Pc.RevokeCompareExchange:
                    // [UsageGuard.Bias.cs] if (Interlocked.CompareExchange(ref _state, (int)State.Revoking, (int)State.Biased) != (int)State.Biased)
                    pc = (int)(CompareExchange(w, a, Var.State, Revoking, Biased) == Biased ? Pc.RevokeBarrier : Pc.ClaimReadState);
                    return null;

                case Pc.RevokeBarrier:
                    // [UsageGuard.Bias.cs] Interlocked.MemoryBarrierProcessWide();
                    if (_scenario.Flaw != Flaw.RevokerSkipsBarrier)
                    {
                        Barrier(w);
                    }

                    pc = (int)Pc.RevokeReadInside;
                    return null;

                case Pc.RevokeReadInside:
                    // [UsageGuard.Bias.cs] if (Volatile.Read(ref _ownerInside) != 0)
                    if (Read(w, a, Var.OwnerInside) == 0)
                    {
                        pc = (int)Pc.RevokeChecked;
                        return null;
                    }

                    pc = (int)Pc.RevokeGiveBack;
                    return Refused(w, a); // decided here; the call ends after the next step

                case Pc.RevokeGiveBack:
                    // [UsageGuard.Bias.cs] Volatile.Write(ref _state, (int)State.Biased);
                    Store(w, a, Var.State, Biased);
                    _events.Add(RevokerFoundOwnerInside);
                    return EndCall(w, a);

                case Pc.RevokeChecked:
                    // [UsageGuard.Bias.cs] Volatile.Write(ref _state, (int)State.Checked);
                    Store(w, a, Var.State, Checked);
                    w[Slot(a, RevokedSlot)] = 1;
                    pc = (int)Pc.ClaimReadState;
                    return null;

                // -- ExitPlain (T3 to T5, T8)
                case Pc.ExitReadState:
                    // [UsageGuard.cs] int state = _state;
                    w[Slot(a, HoldsSlot)] = 0;
                    w[Slot(a, NativeSlot)] = 0;
                    local = Read(w, a, Var.State);
                    switch (local)
                    {
                        case Biased:
                        case Revoking:
                            pc = (int)Pc.ExitStoreInside;
                            return null;
                        case Checked | Call:
                            local = Checked;
                            pc = (int)Pc.ExitStoreState;
                            return null;
                        case Undecided | Call:
                            pc = (int)Pc.ExitReadCandidate;
                            return null;
                        default:
                            return "a state outside the table at an exit (" + local + ")";
                    }

                case Pc.ExitStoreInside:
                    // [UsageGuard.cs] Volatile.Write(ref _ownerInside, 0); // T8
                    Store(w, a, Var.OwnerInside, 0);
                    pc = (int)Pc.ExitReadDisposed;
                    return null;

                case Pc.ExitReadCandidate:
                    // [UsageGuard.Bias.cs] if (_candidate != me)
                    pc = (int)(Read(w, a, Var.Candidate) != me ? Pc.ExitStoreCandidate : Pc.ExitReadCount);
                    return null;

                case Pc.ExitStoreCandidate:
                    // [UsageGuard.Bias.cs] _candidate = me;
                    Store(w, a, Var.Candidate, me);
                    pc = (int)Pc.ExitResetCount;
                    return null;

                case Pc.ExitResetCount:
                    // [UsageGuard.Bias.cs] _candidateCalls = 1;
                    Store(w, a, Var.CandidateCalls, 1);
                    local = Undecided;
                    pc = (int)Pc.ExitStoreState;
                    return null;

                case Pc.ExitReadCount:
                    // [UsageGuard.Bias.cs] if (++_candidateCalls < BiasAfterCalls)
                    local = Read(w, a, Var.CandidateCalls) + 1;
                    pc = (int)Pc.ExitStoreCount;
                    return null;

                case Pc.ExitStoreCount:
                    // [UsageGuard.Bias.cs] if (++_candidateCalls < BiasAfterCalls)
                    Store(w, a, Var.CandidateCalls, local);
                    if (local < _scenario.BiasAfterCalls)
                    {
                        local = Undecided;
                        pc = (int)Pc.ExitStoreState;
                    }
                    else
                    {
                        pc = (int)Pc.ExitStoreOwner;
                    }

                    return null;

                case Pc.ExitStoreOwner:
                    // [UsageGuard.Bias.cs] _owner = me;
                    Store(w, a, Var.Owner, me);
                    local = Biased;
                    _events.Add(BiasedDuringRun);
                    pc = (int)Pc.ExitStoreState;
                    return null;

                case Pc.ExitStoreState:
                    // [UsageGuard.cs] private void ExitChecked(int state) => Volatile.Write(ref _state, StateAfterCheckedCall(state));
                    Store(w, a, Var.State, local);
                    pc = (int)Pc.ExitReadDisposed;
                    return null;

                case Pc.ExitReadDisposed:
                    // [UsageGuard.cs] return Volatile.Read(ref _disposeRequested) != 0 && TryClaimReleaseAfterExit();
                    if (Read(w, a, Var.DisposeRequested) == 0)
                    {
                        return EndCall(w, a);
                    }

                    pc = (int)(_scenario.Flaw == Flaw.ExitReleasesWithoutLookingAtTheState ? Pc.ExitRelease : Pc.ExitReadHeld);
                    return null;

                case Pc.ExitReadHeld:
                    // [UsageGuard.cs] private bool TryClaimReleaseAfterExit() => Holder(Volatile.Read(ref _state)) == 0 && TryClaimRelease();
                    if ((Read(w, a, Var.State) & HolderMask) != 0)
                    {
                        return EndCall(w, a); // another thread claimed it since: that claim's exit releases it
                    }

                    pc = (int)Pc.ExitRelease;
                    return null;

                case Pc.ExitRelease:
                    // [UsageGuard.cs] return Interlocked.Exchange(ref _released, 1) == 0;
                    if (Exchange(w, a, Var.Released, 1) == 0)
                    {
                        _events.Add(ReleasedByCaller);
                        string? broken = Release(w);
                        if (broken is not null)
                        {
                            return broken;
                        }
                    }

                    return EndCall(w, a);

                // -- RequestDispose (D1, D2)
                case Pc.DisposeExchange:
                    // [UsageGuard.cs] if (Interlocked.Exchange(ref _disposeRequested, 1) != 0)
                    pc = (int)(Exchange(w, a, Var.DisposeRequested, 1) != 0 ? Pc.Done : Pc.DisposeReadInside);
                    return null;

                case Pc.DisposeReadInside:
                    // [UsageGuard.cs] if (Volatile.Read(ref _ownerInside) != 0)
                    pc = (int)(Read(w, a, Var.OwnerInside) != 0 ? Pc.DisposeBarrier : Pc.DisposeReadState);
                    return null;

                case Pc.DisposeReadState:
                    // [UsageGuard.cs] int state = Volatile.Read(ref _state);
                    pc = Read(w, a, Var.State) switch
                    {
                        Undecided or Checked => (int)Pc.DisposeReadHeld, // every claim from here is a compare-exchange
                        Biased => (int)Pc.DisposeReadOwner,
                        _ => (int)Pc.DisposeBarrier,
                    };
                    return null;

                case Pc.DisposeReadOwner:
                    // [UsageGuard.cs] return _owner == ThreadToken.Current; // the disposer is the owner, and not inside
                    pc = (int)(Read(w, a, Var.Owner) == me ? Pc.DisposeReadHeld : Pc.DisposeBarrier);
                    return null;

                case Pc.DisposeBarrier:
                    // [UsageGuard.cs] Interlocked.MemoryBarrierProcessWide();
                    if (_scenario.Flaw != Flaw.DisposerSkipsBarrier)
                    {
                        Barrier(w);
                    }

                    pc = (int)Pc.DisposeReadHeld;
                    return null;

                case Pc.DisposeReadHeld:
                    // [UsageGuard.cs] int state = Volatile.Read(ref _state);
                    local = Read(w, a, Var.State);
                    bool ownerMayHold = local is Biased or Revoking || _scenario.Flaw == Flaw.DisposerCountsAWithdrawingOwner;
                    pc = (int)((local & HolderMask) != 0 ? Pc.Done : ownerMayHold ? Pc.DisposeReadHeldInside : Pc.DisposeRelease);
                    return null;

                case Pc.DisposeReadHeldInside:
                    // [UsageGuard.cs] if (Holder(state) != 0 || (HeldByOwner(state) && Volatile.Read(ref _ownerInside) != 0))
                    pc = (int)(Read(w, a, Var.OwnerInside) != 0 ? Pc.Done : Pc.DisposeRelease);
                    return null;

                case Pc.DisposeRelease:
                    // [UsageGuard.cs] return Interlocked.Exchange(ref _released, 1) == 0;
                    pc = (int)Pc.Done;
                    return Exchange(w, a, Var.Released, 1) == 0 ? Release(w) : null;

                default:
                    throw new InvalidOperationException("no step at " + (Pc)pc);
            }
        }

        /// <summary>Where TryEnterBiased's false goes: Enter's slow path and TryClaim both go on in TryClaim's loop.</summary>
        private static Pc BiasedFalse(int[] w, int a) => Pc.ClaimReadState;

        /// <summary>A claim succeeded (T1 or T7): no other claim may be held now.</summary>
        private string? Claimed(int[] w, int a)
        {
            for (int other = 0; other < Actors; other++)
            {
                if (other != a && w[Slot(other, HoldsSlot)] != 0)
                {
                    return "never two claims at once";
                }
            }

            w[Slot(a, HoldsSlot)] = 1;
            if (a == Owner || _scenario.SecondApi != Api.TryEnterOutWithoutRecheck)
            {
                // Enter's read, or the caller's IsDisposeRequested after TryEnter(out bool) returned true.
                w[Slot(a, PcSlot)] = (int)Pc.EnterReadDisposed;
                return null;
            }

            w[Slot(a, PcSlot)] = (int)Pc.ExitReadState;
            return NativeCallStarts(w, a);
        }

        /// <summary>The claim returned "go ahead": the caller's native call starts.</summary>
        private string? NativeCallStarts(int[] w, int a)
        {
            if (w[ReleasesSlot] != 0)
            {
                return "no native call starts after the release";
            }

            w[Slot(a, NativeSlot)] = 1;
            if (a == Second && w[Slot(a, RevokedSlot)] != 0)
            {
                _events.Add(SecondCalledAfterRevoking);
            }

            return null;
        }

        /// <summary>A read has just decided that the call is refused as concurrent use: some other caller must be in a call, or
        /// its leaving not yet visible. Returns the rule broken, or null.</summary>
        private string? Refused(int[] w, int a)
        {
            int other = a == Owner ? Second : Owner;
            bool inCall = w[Slot(other, InCallSlot)] != 0;
            bool leaving = false;
            for (int i = 0; i < w[Slot(other, BufferLengthSlot)]; i++)
            {
                int field = w[Slot(other, BufferSlot + 2 * i)];
                leaving |= field == (int)Var.State || field == (int)Var.OwnerInside;
            }

            if (!inCall && !leaving)
            {
                return "a call is refused only while another is or could be inside";
            }

            if (a == Owner && w[Slot(Second, NativeSlot)] != 0)
            {
                _events.Add(OwnerRefusedWhileSecondInACall);
            }

            return null;
        }

        private static string? EndCall(int[] w, int a)
        {
            w[Slot(a, InCallSlot)] = 0;
            w[Slot(a, LocalSlot)] = 0;
            w[Slot(a, RevokedSlot)] = 0;
            w[Slot(a, CallsSlot)]++;
            w[Slot(a, PcSlot)] = (int)Pc.CallStart;
            return null;
        }

        /// <summary>The native object is released (D2): once, and never during a native call.</summary>
        private static string? Release(int[] w)
        {
            if (++w[ReleasesSlot] > 1)
            {
                return "released at most once";
            }

            for (int actor = 0; actor < Actors; actor++)
            {
                if (w[Slot(actor, NativeSlot)] != 0)
                {
                    return "never released during a native call";
                }
            }

            return null;
        }

        /// <summary>The state's identity for the visited set: two independent 64-bit hashes of every slot (a collision, which
        /// would skip a state, is as likely as 2^-128 per pair; the full states would need tens of times the memory).</summary>
        private static (ulong, ulong) Key(int[] w)
        {
            ulong h1 = 0x9E3779B97F4A7C15;
            ulong h2 = 0xC2B2AE3D27D4EB4F;
            foreach (int value in w)
            {
                h1 = Mix(h1 ^ (uint)value);
                h2 = Mix(h2 + ((ulong)(uint)value * 0x100000001B3));
            }

            return (h1, h2);
        }

        /// <summary>SplitMix64's finaliser.</summary>
        private static ulong Mix(ulong z)
        {
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
            return z ^ (z >> 31);
        }
    }
}
