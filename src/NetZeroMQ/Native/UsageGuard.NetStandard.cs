using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// The netstandard2.0 build's usage guard (the project file compiles this file into that build only, and UsageGuard.cs,
    /// UsageGuard.Bias.cs and ThreadToken.cs into net8.0 only): the members of the net8.0 guard, every claim checked.
    /// netstandard2.0 has no process-wide barrier, which the net8.0 guard's biased mode needs to revoke a bias.
    /// </summary>
    /// <remarks>
    /// <para>1. A claim is a compare-exchange of <see cref="_state"/> from free (T1, T2): it catches a second thread entering,
    /// and it is a full fence.</para>
    /// <para>2. An exit is an interlocked exchange back to free (T3): a full fence too, so every claim and every exit is
    /// fenced and the dispose handshake needs no barrier.</para>
    /// <para>3. Dispose is a Dekker pair: a caller exchanges "held" in and then loads <see cref="_disposeRequested"/>; the
    /// disposer exchanges <see cref="_disposeRequested"/> and then loads "held" (D1). Exactly one side wins
    /// <see cref="TryClaimRelease"/> (D2): the disposer if no call is in flight, else the call, as it leaves (and only if no
    /// other claim holds the object by then).</para>
    /// <para>4. Shared mode (libzmq's thread-safe sockets): <see cref="_state"/> counts the calls in flight (T4).</para>
    /// <code>
    ///      from                 event (method)                        to                         who                 access
    ///  T1  Free                 caller's claim (Enter, TryEnter...)   Call                       any thread          compare-exchange
    ///  T2  Free                 machinery's claim (TryEnter())        Machinery                  the machinery       compare-exchange
    ///  T3  Call|Machinery       exit (Exit, ExitPlain, ExitFenced)    Free                       the holder          exchange
    ///  T4  shared: n            claim / exit                          n + 1 / n - 1              any thread          increment / decrement
    ///  D1  not disposed         RequestDispose                        disposed                   any thread          exchange
    ///  D2  disposed, free       TryClaimRelease                       released (once)            disposer or holder  exchange: the first one wins
    /// </code>
    /// </remarks>
    internal struct UsageGuard
    {
        /// <summary>The values of <see cref="_state"/> outside shared mode (where it counts the calls in flight).</summary>
        private enum State
        {
            Free = 0,

            /// <summary>A caller's call.</summary>
            Call = 1,

            /// <summary>The binding's own async machinery (a caller's claim waits for it).</summary>
            Machinery = 2,
        }

        /// <summary>A <see cref="State"/>, or in shared mode the number of calls in flight.</summary>
        private int _state;

        /// <summary>1 once <see cref="RequestDispose"/> was called.</summary>
        private int _disposeRequested;

        /// <summary>1 once a thread won the release of the native object (D2).</summary>
        private int _released;

        /// <summary>1 in shared mode (a thread-safe native object); else 0. Set before the object is published.</summary>
        private int _shared;

        /// <summary>1 when an exit cannot be <see cref="ExitPlain"/>: in shared mode, or once the owner asked for its own exit.</summary>
        private int _slowExit;


        /// <summary>Lets any number of calls in at once (libzmq's thread-safe sockets); called once, by the owner's constructor
        /// before the object is published.</summary>
        internal void UseSharedMode()
        {
            _shared = 1;
            _slowExit = 1;
        }

        /// <summary>Whether an exit must go through <see cref="Exit"/> (or the owner's own exit) rather than <see cref="ExitPlain"/>.</summary>
        internal bool HasSlowExit => _slowExit != 0;

        /// <summary>Makes <see cref="HasSlowExit"/> true for good; called by the thread that holds the object.</summary>
        internal void RequireSlowExit() => _slowExit = 1;

        /// <summary>Whether any number of calls may be in flight at once (<see cref="UseSharedMode"/>).</summary>
        internal bool IsShared => _shared != 0;

        /// <summary>Every claim is checked in this build already: nothing changes.</summary>
        internal void RequireChecks()
        {
        }

        /// <summary>Whether <see cref="RequestDispose"/> has been called.</summary>
        internal bool IsDisposeRequested => Volatile.Read(ref _disposeRequested) != 0;

        /// <summary>Whether a call is in flight right now (a hint for waking it up; not a synchronisation point).</summary>
        internal bool IsBusy => Volatile.Read(ref _state) != (int)State.Free;

        /// <summary>
        /// Claims the object for one call; throws <see cref="System.InvalidOperationException"/> (concurrent use) with
        /// <paramref name="owner"/> named. Returns false when the object was disposed: the claim is then still held, and the
        /// caller must <see cref="Exit"/> (releasing the object if that returns true) and throw
        /// <see cref="System.ObjectDisposedException"/>.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal bool Enter(object owner)
        {
            if (Interlocked.CompareExchange(ref _state, (int)State.Call, (int)State.Free) != (int)State.Free)
            {
                TryClaimContended(owner);
            }

            return Volatile.Read(ref _disposeRequested) == 0;
        }

        /// <summary>Claims the object for a caller's call if it is free (T1), never waiting or throwing; false holds nothing.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal bool TryEnterFree() => Interlocked.CompareExchange(ref _state, (int)State.Call, (int)State.Free) == (int)State.Free;

        /// <summary>The machinery's claim if the object is free (T2, or T4 when shared); a true result must be ended with an exit.</summary>
        internal bool TryEnter()
        {
            if (_shared != 0)
            {
                Interlocked.Increment(ref _state);
                return true;
            }

            return Interlocked.CompareExchange(ref _state, (int)State.Machinery, (int)State.Free) == (int)State.Free;
        }

        /// <summary>Claims the object without throwing: false when it is disposed (then <paramref name="disposed"/> is true)
        /// or in use by another thread. A true result must be ended with an exit even if a Dispose raced in, and the caller
        /// reads <see cref="IsDisposeRequested"/> before its native call (a Dispose between the first read and the claim may
        /// have released the object already).</summary>
        internal bool TryEnter(out bool disposed)
        {
            disposed = Volatile.Read(ref _disposeRequested) != 0;
            return !disposed && TryClaimContended(owner: null);
        }

        /// <summary>Ends a call (every exit here is fenced). Returns true when this thread must release the object.</summary>
        internal bool ExitFenced() => Exit();

        /// <summary>Ends a call. Returns true when a Dispose arrived during the call and this thread must now release the object.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal bool Exit() => _shared != 0 ? ExitShared() : ExitPlain();

        /// <summary><see cref="Exit"/> of an object that is not shared (T3).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal bool ExitPlain()
        {
            int prior = Interlocked.Exchange(ref _state, (int)State.Free);
            if (prior != (int)State.Call && prior != (int)State.Machinery)
            {
                ImpossibleState(prior, nameof(ExitPlain)); // an exit without a claim
            }

            return Volatile.Read(ref _disposeRequested) != 0 && TryClaimReleaseAfterExit();
        }

        /// <summary>Marks the object disposed (D1). Returns true when the caller must release it now; false when it was already
        /// disposed or a call in flight will release it as it leaves.</summary>
        internal bool RequestDispose()
        {
            if (Interlocked.Exchange(ref _disposeRequested, 1) != 0 || Volatile.Read(ref _state) != (int)State.Free)
            {
                return false;
            }

            return TryClaimRelease();
        }

        /// <summary>
        /// Claims an object the first compare-exchange did not: joins a shared object (T4), waits for the machinery's short
        /// retry, or finds another call inside: throws concurrent use for <paramref name="owner"/>, or returns false if it is null.
        /// </summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private bool TryClaimContended(object? owner)
        {
            if (_shared != 0)
            {
                Interlocked.Increment(ref _state);
                return true;
            }

            var spinner = default(SpinWait);
            while (true)
            {
                switch ((State)Interlocked.CompareExchange(ref _state, (int)State.Call, (int)State.Free))
                {
                    case State.Free:
                        return true; // T1
                    case State.Machinery:
                        spinner.SpinOnce(); // the binding's own async retry: the caller did nothing wrong
                        continue;
                    case State.Call:
                        if (owner is not null)
                        {
                            ZmqThrow.ConcurrentUse(owner);
                        }

                        return false;
                    default:
                        ImpossibleState(Volatile.Read(ref _state), nameof(TryClaimContended));
                        return false;
                }
            }
        }

        /// <summary>Ends one of the shared calls (T4); the last one out after a Dispose releases the object.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private bool ExitShared() =>
            Interlocked.Decrement(ref _state) == 0 && Volatile.Read(ref _disposeRequested) != 0 && TryClaimReleaseAfterExit();

        /// <summary>D2 for a thread that has left its call and then found the object disposed: it releases the object only if
        /// no claim holds it now (another thread may have claimed it in between and be in its native call; that claim's exit
        /// releases it instead).</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private bool TryClaimReleaseAfterExit() => Volatile.Read(ref _state) == (int)State.Free && TryClaimRelease();

        /// <summary>D2: true for the one thread that releases the native object.</summary>
        private bool TryClaimRelease() => Interlocked.Exchange(ref _released, 1) == 0;

        /// <summary>A state outside the table: the guard's memory is corrupt or a caller broke the protocol (an exit without a
        /// claim). Nothing can be trusted to release the object or exclude a second caller, so the process ends.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void ImpossibleState(int state, string where) =>
            System.Environment.FailFast("NetZeroMQ usage guard: impossible state " + state.ToString(System.Globalization.CultureInfo.InvariantCulture) + " in " + where);
    }
}
