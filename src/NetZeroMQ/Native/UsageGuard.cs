using System.Runtime.CompilerServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// Guards a native object that one thread uses at a time (a libzmq socket or message) against <c>Dispose</c> from another
    /// thread and against accidental concurrent use, for one interlocked instruction per call.
    /// </summary>
    /// <remarks>
    /// <para>
    /// Each native call is bracketed by <see cref="Enter"/> and <see cref="Exit"/>. <see cref="Enter"/> claims the object with
    /// one compare-exchange: that both detects a second thread using it at the same time (libzmq would assert or corrupt memory)
    /// and is the full fence the dispose handshake needs. <see cref="Exit"/> is a plain store, so a call costs one interlocked
    /// instruction instead of a SafeHandle's two (<c>DangerousAddRef</c> and <c>DangerousRelease</c> are each a CAS loop).
    /// </para>
    /// <para>
    /// The dispose handshake is a Dekker pair: the user stores <c>busy</c> then loads <c>disposeRequested</c>; the disposer
    /// stores <c>disposeRequested</c> then loads <c>busy</c>. Because <see cref="Exit"/>'s store is not fenced, a disposer that
    /// sees <c>busy</c> set flushes every processor's store buffer (<c>Interlocked.MemoryBarrierProcessWide</c>, an IPI-based
    /// barrier) and looks again; this moves the fence cost from every call to the rare Dispose that races one. After that, exactly
    /// one side wins <see cref="TryClaimRelease"/>: the disposer if no call is in flight, else the thread whose call was in flight,
    /// when it leaves. Either way no native call starts after the release and none is in flight during it.
    /// </para>
    /// <para>netstandard2.0 has no process-wide barrier, so there <see cref="Exit"/> uses an interlocked exchange instead.</para>
    /// <para>
    /// Unchecked mode (opt-in, process-wide, see <see cref="ConcurrencyChecks"/>): <see cref="Enter"/> becomes a plain store and
    /// a plain read, with no interlocked instruction at all. Dispose stays race-free: the disposer then always flushes the store
    /// buffers before it trusts <c>busy</c>, so the same Dekker argument holds. What is lost is the guarantee of catching two
    /// threads entering at the same instant (a busy object is still noticed when it is visibly busy). Objects with async
    /// machinery attached always use the checked mode, because the reactor thread claims them with a compare-exchange.
    /// </para>
    /// <para>
    /// Shared mode (libzmq's thread-safe socket types, which lock inside every call): any number of calls may be in flight at
    /// once, so <c>busy</c> counts them. A shared claim is an interlocked increment and its end an interlocked decrement, each
    /// a full fence, so the same Dekker argument holds without the process-wide barrier; the call that brings the count to
    /// zero after a Dispose releases the object. Only the first, uncontended claim of a shared object takes the checked
    /// path's compare-exchange; the mode check costs the other modes one predictable branch on exit and none on entry.
    /// </para>
    /// </remarks>
    internal struct UsageGuard
    {
        private const int Free = 0;
        private const int UserCall = 1;
        private const int InternalCall = 2;

        /// <summary>0 free; 1 a caller's call is in flight; 2 the binding's own async machinery holds it for a short retry.</summary>
        private int _busy;
        private int _disposeRequested;
        private int _released;

        /// <summary>1 in unchecked mode (plain-store enter); 0 in the default checked mode and in shared mode.</summary>
        private int _unchecked;

        /// <summary>1 in shared mode (a thread-safe native object: <c>busy</c> counts the calls in flight); else 0.</summary>
        private int _shared;

        /// <summary>
        /// 1 when an exit cannot be <see cref="ExitPlain"/>: in shared mode, or after the owner asked for its own exit
        /// (<see cref="RequireSlowExit"/>: a socket with async machinery attached). One flag for both, so the owner's exit
        /// tests one field on its hot path instead of two (callgrind: 3 instructions per call).
        /// </summary>
        private int _slowExit;

        /// <summary>Applies the process-wide choice of <see cref="ConcurrencyChecks"/>; called once, by the owner's constructor.</summary>
        internal void UseConfiguredMode()
        {
#if NET
            _unchecked = ConcurrencyChecks.Enabled ? 0 : 1;
#endif
        }

        /// <summary>Lets any number of calls in at once (libzmq's thread-safe sockets); called once, by the owner's constructor
        /// before the object is published. Overrides <see cref="UseConfiguredMode"/>: there is nothing to check.</summary>
        internal void UseSharedMode()
        {
            _unchecked = 0;
            _shared = 1;
            _slowExit = 1;
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
        internal void RequireChecks() => Interlocked.Exchange(ref _unchecked, 0);

        /// <summary>Whether <see cref="RequestDispose"/> has been called.</summary>
        internal bool IsDisposeRequested => Volatile.Read(ref _disposeRequested) != 0;

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
            if (_unchecked != 0)
            {
                if (Volatile.Read(ref _busy) != Free)
                {
                    ZmqThrow.ConcurrentUse(owner);
                }

                Volatile.Write(ref _busy, UserCall);
                return Volatile.Read(ref _disposeRequested) == 0;
            }
#endif
            int prior = Interlocked.CompareExchange(ref _busy, UserCall, Free);
            if (prior != Free)
            {
                EnterContended(owner, prior);
            }

            return Volatile.Read(ref _disposeRequested) == 0;
        }

        /// <summary>
        /// Claims the object for a caller's call if it is free, as <see cref="Enter"/> would, but never waits or throws: false
        /// (nothing held) when another call holds it. For a hot path's first attempt, which then takes its usual path. A true
        /// result is a claim even if a Dispose raced in: the caller checks <see cref="IsDisposeRequested"/> and exits.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal bool TryEnterFree()
        {
#if NET
            if (_unchecked != 0)
            {
                if (Volatile.Read(ref _busy) != Free)
                {
                    return false;
                }

                Volatile.Write(ref _busy, UserCall);
                return true;
            }
#endif
            return Interlocked.CompareExchange(ref _busy, UserCall, Free) == Free;
        }

        /// <summary>
        /// Claims the object if it is free, without throwing; for the async machinery, which must not fail because the owner
        /// happens to be in a call right now. Marks the hold as internal, so a caller's Enter waits for it. A true result is a
        /// claim even if a Dispose raced in: the caller must end it with an exit (which then releases the object), because that
        /// Dispose left the release to this thread.
        /// </summary>
        internal bool TryEnter()
        {
            if (_shared != 0)
            {
                Interlocked.Increment(ref _busy);
                return true;
            }

            return Interlocked.CompareExchange(ref _busy, InternalCall, Free) == Free;
        }

        /// <summary>
        /// Claims the object for one call without throwing: false when it is disposed (then <paramref name="disposed"/> is true)
        /// or in use by another thread. For rare callers that must not fail, such as a monitor stopping itself. As with
        /// <see cref="TryEnter()"/>, a true result must be ended with an exit even if a Dispose raced in.
        /// </summary>
        internal bool TryEnter(out bool disposed)
        {
            disposed = Volatile.Read(ref _disposeRequested) != 0;
            if (!disposed && _shared != 0)
            {
                Interlocked.Increment(ref _busy);
                return true;
            }

            return !disposed && Interlocked.CompareExchange(ref _busy, UserCall, Free) == Free;
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

            Interlocked.Exchange(ref _busy, 0);
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
            Volatile.Write(ref _busy, 0);
#else
            Interlocked.Exchange(ref _busy, 0);
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

            // In unchecked mode a caller's busy store may still sit in its store buffer, so the flush is always needed there.
            if (Volatile.Read(ref _busy) != 0 || Volatile.Read(ref _unchecked) != 0)
            {
#if NET
                Interlocked.MemoryBarrierProcessWide();
#endif
                if (Volatile.Read(ref _busy) != 0)
                {
                    return false;
                }
            }

            return TryClaimRelease();
        }

        /// <summary>Whether a call is in flight right now (a hint for waking it up; not a synchronisation point).</summary>
        internal bool IsBusy => Volatile.Read(ref _busy) != 0;

        /// <summary>
        /// Another call holds the object. If it is the binding's own async retry (a few non-blocking libzmq calls on the reactor
        /// thread), wait for it: the caller did nothing wrong. If it is another caller, that is concurrent use.
        /// </summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private void EnterContended(object owner, int prior)
        {
            if (_shared != 0)
            {
                // Another call is in flight on a thread-safe object: join it (the first claim's CAS did not count this one).
                Interlocked.Increment(ref _busy);
                return;
            }

            var spinner = default(SpinWait);
            while (prior == InternalCall)
            {
                spinner.SpinOnce();
                prior = Interlocked.CompareExchange(ref _busy, UserCall, Free);
                if (prior == Free)
                {
                    return;
                }
            }

            ZmqThrow.ConcurrentUse(owner);
        }

        /// <summary>Ends one of the shared calls; the last one out after a Dispose releases the object.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private bool ExitShared() =>
            Interlocked.Decrement(ref _busy) == 0 && Volatile.Read(ref _disposeRequested) != 0 && TryClaimRelease();

        private bool TryClaimRelease() => Interlocked.Exchange(ref _released, 1) == 0;
    }
}
