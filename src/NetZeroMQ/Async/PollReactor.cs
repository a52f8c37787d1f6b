#if NET
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// The portable <see cref="Reactor"/>: one thread in <c>zmq_poll</c> on the armed descriptors (an fd, or on Windows the
    /// SOCKET that <c>ZMQ_FD</c> gives) plus a wake-up, which is a PAIR socket over inproc in a private context with no I/O
    /// thread: libzmq itself makes it work wherever libzmq does, with no platform code here.
    /// </summary>
    /// <remarks>
    /// <para>Only the reactor thread touches the poll items. Other threads record what they want (arm, remove) in
    /// <see cref="_changes"/> under the lock and wake the reactor, which applies the changes before it polls again. An armed
    /// registration that fires is taken out of the items (one-shot, like EPOLLONESHOT) before its client is told.</para>
    /// <para>Removal waits for the reactor to take the descriptor out of its items, because closing a descriptor that
    /// <c>zmq_poll</c> is waiting on is an error on Windows (select) and a reused number on POSIX; only a socket disposed
    /// with an operation pending waits (a wake-up's round trip), and never on the reactor thread itself.</para>
    /// </remarks>
    internal sealed unsafe class PollReactor : Reactor
    {
        private const byte Idle = 0;
        private const byte Queued = 1;
        private const byte Polled = 2;
        private const byte Removing = 3;

        private static readonly bool s_windows = RuntimeInformation.IsOSPlatform(OSPlatform.Windows);
        private static readonly int s_itemSize = s_windows ? sizeof(Interop.Zmq.PollItemWindows) : sizeof(Interop.Zmq.PollItemPosix);

        private readonly nint _context;
        private readonly nint _wakeReceiver;
        private readonly nint _wakeSender;

        /// <summary>Per token, under the lock: Idle, Queued (armed, not yet polled), Polled, Removing.</summary>
        private byte[] _modes = new byte[64];

        /// <summary>Tokens whose mode changed since the reactor last looked; under the lock.</summary>
        private readonly List<int> _changes = new List<int>();

        /// <summary>Whether a wake-up message is on its way; under the lock (at most one, so the send never blocks).</summary>
        private bool _wakePending;

        // Reactor thread only (and under the lock while changed): item 0 is the wake-up socket, items 1..n the armed descriptors.
        private byte* _items;
        private int _itemCapacity;
        private int _polledCount;
        private int[] _polledTokens = new int[64];
        private IReactorClient?[] _fired = new IReactorClient?[64];

        /// <summary>Per token, its index in the items (reactor thread, under the lock).</summary>
        private int[] _itemOf = new int[64];

        private PollReactor(nint context, nint wakeReceiver, nint wakeSender)
        {
            _context = context;
            _wakeReceiver = wakeReceiver;
            _wakeSender = wakeSender;
        }

        internal override string Kind => "poll";

        /// <summary>
        /// Makes the wake-up pair and starts the reactor thread, on the calling thread; when either fails it throws there and
        /// leaves nothing behind.
        /// </summary>
        /// <exception cref="ZmqException">No descriptor for the wake-up's context or sockets, or for the thread
        /// (<see cref="ZmqError.TooManyOpenFiles"/>), or libzmq refused them.</exception>
        internal static PollReactor Start()
        {
            const string Operation = "zmq_socket (the async reactor's wake-up)";
            DescriptorHeadroom.ThrowIfLow(Operation);
            nint context = Interop.Zmq.zmq_ctx_new();
            if (context == 0)
            {
                ZmqThrow.Error(Interop.Zmq.zmq_errno(), "zmq_ctx_new (the async reactor's wake-up)");
            }

            nint receiver = 0, sender = 0;
            try
            {
                // inproc needs no I/O thread, and one fewer thread and descriptor set per process.
                Check(Interop.Zmq.zmq_ctx_set(context, ContextOptions.IOThreads.Id, 0), "zmq_ctx_set");
                receiver = Interop.Zmq.zmq_socket(context, (int)SocketType.Pair);
                Check(receiver == 0 ? -1 : 0, Operation);
                sender = Interop.Zmq.zmq_socket(context, (int)SocketType.Pair);
                Check(sender == 0 ? -1 : 0, Operation);
                int linger = 0;
                Check(Interop.Zmq.zmq_setsockopt(sender, Interop.Zmq.ZMQ_LINGER, &linger, sizeof(int)), Operation);
                Check(Interop.Zmq.zmq_setsockopt(receiver, Interop.Zmq.ZMQ_LINGER, &linger, sizeof(int)), Operation);
                byte* endpoint = stackalloc byte[] { (byte)'i', (byte)'n', (byte)'p', (byte)'r', (byte)'o', (byte)'c', (byte)':', (byte)'/', (byte)'/', (byte)'w', 0 };
                Check(Interop.Zmq.zmq_bind(receiver, endpoint), "zmq_bind (the async reactor's wake-up)");
                Check(Interop.Zmq.zmq_connect(sender, endpoint), "zmq_connect (the async reactor's wake-up)");

                var reactor = new PollReactor(context, receiver, sender);
                reactor.EnsureItemCapacity(16);
                reactor.StartThread(reactor.Run);
                return reactor;
            }
            catch
            {
                // Nothing was sent, so nothing lingers: closing and terminating do not block.
                if (sender != 0)
                {
                    Interop.Zmq.zmq_close(sender);
                }

                if (receiver != 0)
                {
                    Interop.Zmq.zmq_close(receiver);
                }

                Interop.Zmq.zmq_ctx_term(context);
                throw;
            }

            static void Check(int rc, string operation)
            {
                if (rc != 0)
                {
                    ZmqThrow.Error(Interop.Zmq.zmq_errno(), operation);
                }
            }
        }

        private protected override ZmqException? Add(int token, nint fd)
        {
            lock (_lock)
            {
                if (token >= _modes.Length)
                {
                    int capacity = Math.Max(token + 1, _modes.Length * 2);
                    Array.Resize(ref _modes, capacity);
                    Array.Resize(ref _itemOf, capacity);
                }

                Debug.Assert(_modes[token] == Idle, "a free token is idle");
            }

            return null; // nothing native: the descriptor enters the items when it is armed
        }

        private protected override Exception? ArmCore(int token, nint fd)
        {
            lock (_lock)
            {
                if (_modes[token] != Idle)
                {
                    return null; // queued or polled already: one wake-up is coming
                }

                _modes[token] = Queued;
                _changes.Add(token);

                // On the reactor thread the change is applied before the next poll anyway.
                return OnReactorThread ? null : Wake();
            }
        }

        private protected override void Remove(int token, nint fd)
        {
            lock (_lock)
            {
                switch (_modes[token])
                {
                    case Queued:
                        _modes[token] = Idle; // its entry in _changes is skipped
                        break;
                    case Polled when OnReactorThread || Failure is not null:
                        // Not inside zmq_poll now (or never again): take it out here.
                        TakeOut(token);
                        break;
                    case Polled:
                        _modes[token] = Removing;
                        _changes.Add(token);
                        if (Wake() is null)
                        {
                            while (_modes[token] == Removing && Failure is null)
                            {
                                Monitor.Wait(_lock);
                            }
                        }

                        // A wake-up that could not be sent, or a reactor that stopped meanwhile: it polls no more.
                        if (_modes[token] == Removing)
                        {
                            TakeOut(token);
                        }

                        break;
                }

                Debug.Assert(_modes[token] == Idle, "a removed token is idle");
            }
        }

        private protected override void OnStopped() => Monitor.PulseAll(_lock);

        /// <summary>Under the lock: makes sure the reactor leaves zmq_poll soon; null, or why it could not.</summary>
        private Exception? Wake()
        {
            if (_wakePending)
            {
                return null;
            }

            byte nothing = 0;
            if (Interop.Zmq.zmq_send(_wakeSender, &nothing, 0, Interop.Zmq.ZMQ_DONTWAIT) < 0)
            {
                return ZmqThrow.Create(Interop.Zmq.zmq_errno(), "zmq_send (waking the async reactor)");
            }

            _wakePending = true;
            return null;
        }

        private void Run()
        {
            SetItem(0, _wakeReceiver, 0);
            while (true)
            {
                lock (_lock)
                {
                    ApplyChanges();
                }

                int rc = Interop.Zmq.zmq_poll(_items, _polledCount + 1, -1);
                if (rc < 0)
                {
                    int errno = Interop.Zmq.zmq_errno();
                    if (errno == ErrorMap.EINTR)
                    {
                        continue; // a signal: wait again
                    }

                    // The items are ours and valid, so this is not going to pass by itself: waiting again would fail again
                    // and spin. Stop, ending what waits (see Reactor.Stop).
                    Stop(ZmqThrow.Create(errno, "zmq_poll (the async reactor's wait)"));
                    return;
                }

                int fired = 0;
                lock (_lock)
                {
                    // Backwards, so that taking item i out (the last one moves into its place) skips nothing unseen.
                    for (int i = _polledCount; i >= 1; i--)
                    {
                        if (GetRevents(i) != 0)
                        {
                            int token = _polledTokens[i];
                            _fired[fired++] = ClientOf(token);
                            TakeOut(token);
                        }
                    }
                }

                for (int i = 0; i < fired; i++)
                {
                    // Never throws: whatever goes wrong for one socket ends that socket's pending operations.
                    Dispatch(_fired[i]);
                    _fired[i] = null;
                }
            }
        }

        /// <summary>Reactor thread, under the lock: drains the wake-up and brings the items up to date.</summary>
        private void ApplyChanges()
        {
            if (_wakePending)
            {
                byte sink;
                while (Interop.Zmq.zmq_recv(_wakeReceiver, &sink, 1, Interop.Zmq.ZMQ_DONTWAIT) >= 0)
                {
                }

                _wakePending = false;
            }

            foreach (int token in _changes)
            {
                switch (_modes[token])
                {
                    case Queued:
                        _modes[token] = Polled;
                        int index = ++_polledCount;
                        EnsureItemCapacity(index + 1);
                        _polledTokens[index] = token;
                        _itemOf[token] = index;
                        SetItem(index, 0, DescriptorOf(token));
                        break;
                    case Removing:
                        TakeOut(token);
                        break;
                }
            }

            _changes.Clear();
        }

        /// <summary>
        /// Under the lock, not inside zmq_poll: takes a polled token out of the items (the last item moves in). A removal that
        /// waits for this is released, whichever way the token leaves: by the change it asked for, or by firing first (a socket
        /// being closed gets commands, so its descriptor often fires just then).
        /// </summary>
        private void TakeOut(int token)
        {
            bool awaited = _modes[token] == Removing;
            int index = _itemOf[token];
            int last = _polledCount--;
            if (index != last)
            {
                int moved = _polledTokens[last];
                _polledTokens[index] = moved;
                _itemOf[moved] = index;
                CopyItem(last, index);
            }

            _modes[token] = Idle;
            if (awaited)
            {
                Monitor.PulseAll(_lock);
            }
        }

        private void EnsureItemCapacity(int items)
        {
            if (items <= _itemCapacity)
            {
                return;
            }

            int capacity = Math.Max(items, _itemCapacity * 2);
            _items = (byte*)NativeMemory.Realloc(_items, (nuint)(capacity * s_itemSize));
            _itemCapacity = capacity;
            Array.Resize(ref _polledTokens, capacity);
            Array.Resize(ref _fired, capacity);
        }

        private void SetItem(int index, nint socket, nint fd)
        {
            if (s_windows)
            {
                ((Interop.Zmq.PollItemWindows*)_items)[index] = new Interop.Zmq.PollItemWindows { Socket = socket, Fd = (nuint)fd, Events = Interop.Zmq.ZMQ_POLLIN };
            }
            else
            {
                ((Interop.Zmq.PollItemPosix*)_items)[index] = new Interop.Zmq.PollItemPosix { Socket = socket, Fd = (int)fd, Events = Interop.Zmq.ZMQ_POLLIN };
            }
        }

        private void CopyItem(int from, int to) =>
            Buffer.MemoryCopy(_items + (from * s_itemSize), _items + (to * s_itemSize), s_itemSize, s_itemSize);

        private short GetRevents(int index) =>
            s_windows ? ((Interop.Zmq.PollItemWindows*)_items)[index].Revents : ((Interop.Zmq.PollItemPosix*)_items)[index].Revents;
    }
}
#endif
