using System;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    /// <summary>
    /// The loop of a <see cref="SteerableProxy"/>, on the proxy's thread, in place of libzmq's <c>zmq_proxy_steerable</c>
    /// (which differs on every libzmq version: STATISTICS aborts 4.1 and 4.2, PAUSE and RESUME are swapped in 4.3.5, and every
    /// version spins while paused with a message waiting).
    /// </summary>
    /// <remarks>
    /// One turn:
    /// 1. <c>zmq_poll</c> on the control socket (always), and, unless paused, on each source whose direction holds no message
    ///    (for input) and each destination a direction holds a message for (for output). A paused proxy polls only its control
    ///    socket, so a message waiting on the frontend cannot wake it: it costs no CPU while paused.
    /// 2. A command first (the control socket was readable): act on it and answer it before anything more is forwarded, so
    ///    that <see cref="SteerableProxy.Pause"/>, when it returns, has stopped the forwarding.
    /// 3. Unless paused, forward each direction that is ready: up to <see cref="Burst"/> messages, draining its source as
    ///    libzmq's own proxy does, rather than one message per poll.
    /// The loop never waits anywhere but in step 1, so a command waits at most one burst per direction. It ends normally on
    /// Terminate or when the context shuts down (ETERM); any other failure throws out of <see cref="Run"/>, after which the
    /// proxy is finished: it never retries a failing call.
    /// A destination that reports it can take a message and then refuses it (a ROUTER with ROUTER_MANDATORY whose peer is full,
    /// an XPUB with XPUB_NODROP) would make step 1 return at once forever; such a direction is retried after a pause that
    /// doubles from 1 ms up to <see cref="MaxRetryMilliseconds"/> instead of being polled for output.
    /// </remarks>
    internal sealed unsafe class ProxyLoop : IDisposable
    {
        /// <summary>Messages forwarded per direction per turn (libzmq's proxy forwards bursts of the same size).</summary>
        internal const int Burst = 1000;

        /// <summary>The longest pause between two retries of a direction whose destination refuses what it said it would take.</summary>
        internal const int MaxRetryMilliseconds = 100;

        private static readonly bool s_windows = RuntimeInformation.IsOSPlatform(OSPlatform.Windows);

        /// <summary>The command exchange with the steering threads.</summary>
        private readonly ProxySteering _steering;

        /// <summary>The control socket's lease (the loop's end of the inproc PAIR its steering threads wake it through).</summary>
        private readonly SocketLease _control;

        /// <summary>The native frontend, backend and control sockets, for <c>zmq_poll</c>.</summary>
        private readonly nint _frontend;
        private readonly nint _backend;
        private readonly nint _controlNative;

        /// <summary>Frontend to backend.</summary>
        private readonly ProxyDirection _forward;

        /// <summary>Backend to frontend; null when the frontend is the backend (one socket: one direction, as in libzmq).</summary>
        private readonly ProxyDirection? _backward;

        /// <summary>The <c>zmq_pollitem_t</c> array: control, frontend, backend at most (platform layout, see Interop.Poll).</summary>
        private readonly IntPtr _items;

        /// <summary>Whether forwarding is paused.</summary>
        private bool _paused;

        /// <summary>Per direction, 0, or the milliseconds until the next retry of a destination that refused what it said it
        /// would take.</summary>
        private int _forwardRetry;
        private int _backwardRetry;

        /// <summary>Which poll items the frontend and the backend occupy in this turn, or -1.</summary>
        private int _frontendItem;
        private int _backendItem;

        internal ProxyLoop(ProxySteering steering, ProxySockets sockets, Socket frontend, Socket backend, Socket? capture, Socket control)
        {
            _steering = steering;
            _control = sockets.LeaseOf(control);
            _controlNative = _control.Native;
            _frontend = sockets.Frontend;
            _backend = sockets.Backend;
            SocketLease captureLease = capture is null ? default : sockets.LeaseOf(capture);
            _forward = new ProxyDirection(sockets.LeaseOf(frontend), sockets.LeaseOf(backend), captureLease, capture is not null);
            try
            {
                if (!ReferenceEquals(frontend, backend))
                {
                    _backward = new ProxyDirection(sockets.LeaseOf(backend), sockets.LeaseOf(frontend), captureLease, capture is not null);
                }

                _items = Marshal.AllocHGlobal(3 * ItemSize);
            }
            catch
            {
                _forward.Dispose();
                _backward?.Dispose();
                throw;
            }
        }

        private static int ItemSize => s_windows ? sizeof(Interop.Zmq.PollItemWindows) : sizeof(Interop.Zmq.PollItemPosix);

        /// <summary>
        /// Runs until Terminate (returns) or the context's shutdown (returns); throws <see cref="ZmqException"/> for any other
        /// failure of libzmq. <paramref name="paused"/>: whether it starts paused.
        /// </summary>
        internal void Run(bool paused)
        {
            _paused = paused;
            try
            {
                while (Turn())
                {
                }
            }
            catch (ZmqException e) when (e.Error == ZmqError.ContextTerminated)
            {
                // A transfer met the context's shutdown: the proxy ends, as libzmq's does.
            }
        }

        /// <summary>Releases the reused messages and the poll items.</summary>
        public void Dispose()
        {
            _forward.Dispose();
            _backward?.Dispose();
            Marshal.FreeHGlobal(_items);
        }

        /// <summary>One turn (see the remarks); false when the loop ends.</summary>
        private bool Turn()
        {
            int count = Arm(out int timeout);
            int rc = Interop.Zmq.zmq_poll((void*)_items, count, timeout);
            if (rc < 0)
            {
                int errno = Interop.Zmq.zmq_errno();
                if (errno == ErrorMap.ETERM)
                {
                    return false;
                }

                if (errno != ErrorMap.EINTR)
                {
                    ZmqThrow.Error(errno, "zmq_poll (steerable proxy)");
                }

                return true;
            }

            if ((Revents(0) & Interop.Zmq.ZMQ_POLLIN) != 0 && !Steer())
            {
                return false;
            }

            if (!_paused)
            {
                Forward(_forward, _frontendItem, _backendItem, ref _forwardRetry);
                if (_backward is not null)
                {
                    Forward(_backward, _backendItem, _frontendItem, ref _backwardRetry);
                }
            }

            return true;
        }

        /// <summary>Fills the poll items for this turn; returns their number and the poll's timeout (-1: none).</summary>
        private int Arm(out int timeout)
        {
            timeout = -1;
            SetItem(0, _controlNative, Interop.Zmq.ZMQ_POLLIN);
            int count = 1;
            _frontendItem = -1;
            _backendItem = -1;
            if (_paused)
            {
                return count;
            }

            short frontendEvents = Wants(_forward, _forwardRetry, asSource: true);
            short backendEvents = Wants(_forward, _forwardRetry, asSource: false);
            if (_backward is null)
            {
                frontendEvents |= backendEvents;
                backendEvents = 0;
            }
            else
            {
                frontendEvents |= Wants(_backward, _backwardRetry, asSource: false);
                backendEvents |= Wants(_backward, _backwardRetry, asSource: true);
            }

            if (frontendEvents != 0)
            {
                _frontendItem = count;
                SetItem(count++, _frontend, frontendEvents);
            }

            if (backendEvents != 0)
            {
                _backendItem = count;
                SetItem(count++, _backend, backendEvents);
            }

            if (_backward is null)
            {
                _backendItem = _frontendItem;
            }

            int retry = Math.Min(_forwardRetry == 0 ? int.MaxValue : _forwardRetry, _backwardRetry == 0 ? int.MaxValue : _backwardRetry);
            if (retry != int.MaxValue)
            {
                timeout = retry;
            }

            return count;
        }

        /// <summary>What a direction waits for on its source (<paramref name="asSource"/>) or its destination: input while it
        /// holds nothing, output while it holds a message (unless it waits for a retry instead).</summary>
        private static short Wants(ProxyDirection direction, int retry, bool asSource)
        {
            if (asSource)
            {
                return direction.IsHolding ? (short)0 : Interop.Zmq.ZMQ_POLLIN;
            }

            return direction.IsHolding && retry == 0 ? Interop.Zmq.ZMQ_POLLOUT : (short)0;
        }

        /// <summary>
        /// Forwards one direction if it can move: its source has input (it holds nothing), its destination can take output (it
        /// holds a message), or it waits for a retry (then on every turn, whatever woke the loop). Keeps its retry pause.
        /// </summary>
        private void Forward(ProxyDirection direction, int sourceItem, int destinationItem, ref int retry)
        {
            bool holding = direction.IsHolding;
            bool ready = holding
                ? retry != 0 || (destinationItem >= 0 && (Revents(destinationItem) & Interop.Zmq.ZMQ_POLLOUT) != 0)
                : sourceItem >= 0 && (Revents(sourceItem) & Interop.Zmq.ZMQ_POLLIN) != 0;
            if (!ready)
            {
                return;
            }

            if (direction.Forward(Burst))
            {
                retry = 0;
            }
            else if (holding)
            {
                // The destination said it could take the message and did not, or a retry failed again: wait before the next try.
                retry = retry == 0 ? 1 : Math.Min(retry * 2, MaxRetryMilliseconds);
            }
        }

        /// <summary>Takes and answers the pending command (step 2); false when it was Terminate.</summary>
        private bool Steer()
        {
            // Each command is announced by one frame; they carry nothing (the command itself is in the steering exchange).
            byte wake;
            var recv = new BufferRecv(&wake, 1);
            while (_control.TryTransfer(ref recv, 0) != SocketLease.WouldBlock)
            {
            }

            ProxyCommand command = _steering.Take(out long ticket);
            switch (command)
            {
                case ProxyCommand.None:
                    return true;
                case ProxyCommand.Pause:
                    _paused = true;
                    break;
                case ProxyCommand.Resume:
                    _paused = false;
                    break;
                case ProxyCommand.Statistics:
                    _steering.Complete(ticket, Statistics());
                    return true;
                case ProxyCommand.Terminate:
                    // A message whose first frame waited for its destination is dropped whole, so that the source is not left
                    // with the rest of it (the next reader would get a message without its first frame).
                    _forward.DropHeld();
                    _backward?.DropHeld();
                    _steering.Complete(ticket, null);
                    return false;
            }

            _steering.Complete(ticket, null);
            return true;
        }

        private ProxyStatistics Statistics() => new ProxyStatistics(
            frontendMessagesReceived: _forward.MessagesReceived,
            frontendBytesReceived: _forward.BytesReceived,
            frontendMessagesSent: _backward?.MessagesSent ?? 0,
            frontendBytesSent: _backward?.BytesSent ?? 0,
            backendMessagesReceived: _backward?.MessagesReceived ?? 0,
            backendBytesReceived: _backward?.BytesReceived ?? 0,
            backendMessagesSent: _forward.MessagesSent,
            backendBytesSent: _forward.BytesSent);

        private void SetItem(int index, nint socket, short events)
        {
            if (s_windows)
            {
                ((Interop.Zmq.PollItemWindows*)_items)[index] = new Interop.Zmq.PollItemWindows { Socket = socket, Events = events };
            }
            else
            {
                ((Interop.Zmq.PollItemPosix*)_items)[index] = new Interop.Zmq.PollItemPosix { Socket = socket, Events = events };
            }
        }

        private short Revents(int index) =>
            s_windows ? ((Interop.Zmq.PollItemWindows*)_items)[index].Revents : ((Interop.Zmq.PollItemPosix*)_items)[index].Revents;
    }
}
