using System;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    /// <remarks>
    /// <b>The v2 protocol</b> (<see cref="MonitorProtocol.V2"/>, libzmq's draft API): how it is started, how its events are
    /// read, and the pipe statistics only it reports.
    /// </remarks>
    public sealed partial class SocketMonitor
    {
        /// <summary>Whether the loaded libzmq exports <c>zmq_socket_monitor_versioned</c> (never on netstandard2.0).</summary>
        internal static unsafe bool HasVersionedMonitor =>
#if NET
            Interop.ZmqDraft.zmq_socket_monitor_versioned != null;
#else
            false;
#endif

        /// <summary>
        /// Asks the monitored socket for the queue lengths of each of its connections (<c>zmq_socket_monitor_pipes_stats</c>):
        /// each answers with a <see cref="MonitorEvents.PipesStats"/> event on this monitor. Needs a v2 monitor started with
        /// <see cref="MonitorEvents.PipesStats"/>. This is a call on the monitored socket: make it from the thread that uses it.
        /// The answers reach the monitored socket as libzmq commands, which it handles when it is next used (a send, a receive,
        /// reading <see cref="SocketOptions.Events"/>): only then are the events emitted.
        /// See <see href="http://api.zeromq.org/master:zmq-socket-monitor-versioned">zmq_socket_monitor_pipes_stats</see>.
        /// </summary>
        /// <returns>True when the request went out; false when the socket has no connection to report on.</returns>
        /// <exception cref="InvalidOperationException">The monitor is not a v2 monitor with <see cref="MonitorEvents.PipesStats"/>.</exception>
        /// <exception cref="ObjectDisposedException">The monitor or the monitored socket was disposed.</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq does not export <c>zmq_socket_monitor_pipes_stats</c>.</exception>
        /// <exception cref="ZmqException">libzmq refused (for example <see cref="ZmqError.InvalidArgument"/> when a newer
        /// monitor of the same socket replaced this one without PipesStats).</exception>
        public unsafe bool RequestPipesStats()
        {
            if (IsDisposed)
            {
                ZmqThrow.Disposed(this);
            }

            if (_protocol != MonitorProtocol.V2 || (_events & MonitorEvents.PipesStats) == 0)
            {
                throw new InvalidOperationException("RequestPipesStats needs a monitor started with MonitorProtocol.V2 and MonitorEvents.PipesStats.");
            }

#if NET
            if (Interop.ZmqDraft.zmq_socket_monitor_pipes_stats == null)
            {
                throw DraftRequirement.Missing("zmq_socket_monitor_pipes_stats", "export", string.Empty);
            }

            using SocketLease lease = _monitored.Lease();
            if (Interop.ZmqDraft.zmq_socket_monitor_pipes_stats(lease.Native) == 0)
            {
                return true;
            }

            int errno = Interop.Zmq.zmq_errno();
            if (ErrorMap.ToPortable(errno) == ZmqError.TryAgain)
            {
                return false;
            }

            ZmqThrow.Error(errno, "zmq_socket_monitor_pipes_stats", Endpoint);
            return false;
#else
            throw DraftRequirement.Missing("zmq_socket_monitor_pipes_stats", "export (or this netstandard2.0 build cannot detect)", ", and the net8.0 build of NetZeroMQ");
#endif
        }

        /// <summary>zmq_socket_monitor for v1; zmq_socket_monitor_versioned (version 2, a PAIR) for v2.</summary>
        private unsafe int StartNative(nint socket, byte* endpoint, int events)
        {
#if NET
            if (_protocol == MonitorProtocol.V2)
            {
                return Interop.ZmqDraft.zmq_socket_monitor_versioned(socket, endpoint, (ulong)(uint)events, 2, (int)SocketType.Pair);
            }
#endif
            return Interop.Zmq.zmq_socket_monitor(socket, endpoint, events);
        }

        /// <summary>
        /// Reads the rest of a v2 event whose first frame is in <see cref="_header"/>: the 64-bit event, the number of values,
        /// each 64-bit value, the local endpoint and the remote endpoint, each in its own frame.
        /// </summary>
        private MonitorEvent ReadV2()
        {
            ulong kind = ReadUInt64(_header, "event");
            _pair.Recv(_header);
            ulong count = ReadUInt64(_header, "value count");
            if (count > 64)
            {
                throw new InvalidOperationException("Malformed monitor event: " + count + " values, not libzmq's v2 monitor protocol.");
            }

            var values = new ulong[(int)count];
            for (int i = 0; i < values.Length; i++)
            {
                _pair.Recv(_header);
                values[i] = ReadUInt64(_header, "value");
            }

            _pair.Recv(_address);
            string local = _address.GetString();
            if (!_address.HasMore)
            {
                throw new InvalidOperationException("Malformed monitor event: no remote endpoint frame, not libzmq's v2 monitor protocol.");
            }

            _pair.Recv(_address);
            return new MonitorEvent((MonitorEvents)kind, values, local, _address.GetString());
        }

        private static ulong ReadUInt64(Message frame, string what)
        {
            Span<byte> bytes = stackalloc byte[8];
            bool more = frame.HasMore;
            if (!more || frame.CopyTo(bytes) != 8)
            {
                throw new InvalidOperationException("Malformed monitor event (" + what + " frame): not libzmq's v2 monitor protocol.");
            }

            return MemoryMarshal.Read<ulong>(bytes);
        }
    }
}
