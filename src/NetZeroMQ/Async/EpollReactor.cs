#if NET
using System;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>The Linux <see cref="Reactor"/>: one epoll set, one background thread, tokens that index a registration table.</summary>
    internal sealed unsafe class EpollReactor : Reactor
    {
        private const int MaxEventsPerWait = 256;
        private static readonly bool s_packedEvents = RuntimeInformation.ProcessArchitecture == Architecture.X64;

        private readonly int _epoll;
        private readonly object _lock = new object();
        private SocketAsyncState?[] _states = new SocketAsyncState?[64];
        private int[] _fds = new int[64];
        private int _freeHead = -1;
        private int _count;

        internal EpollReactor()
        {
            _epoll = Interop.Epoll.epoll_create1(Interop.Epoll.EPOLL_CLOEXEC);
            if (_epoll < 0)
            {
                throw new InvalidOperationException("epoll_create1 failed: errno " + Marshal.GetLastPInvokeError());
            }

            var thread = new Thread(Run) { IsBackground = true, Name = "NetZeroMQ reactor" };
            thread.Start();
        }

        internal override int Register(nint fd, SocketAsyncState state)
        {
            int token;
            lock (_lock)
            {
                if (_freeHead >= 0)
                {
                    token = _freeHead;
                    _freeHead = _fds[token];
                }
                else
                {
                    if (_count == _states.Length)
                    {
                        Array.Resize(ref _fds, _count * 2);
                        SocketAsyncState?[] grown = new SocketAsyncState?[_count * 2];
                        Array.Copy(_states, grown, _count);
                        Volatile.Write(ref _states, grown);
                    }

                    token = _count++;
                }

                _fds[token] = (int)fd;
                Volatile.Write(ref _states[token], state);
            }

            Control(Interop.Epoll.EPOLL_CTL_ADD, (int)fd, token, events: 0);
            return token;
        }

        internal override void Arm(int token) =>
            Control(Interop.Epoll.EPOLL_CTL_MOD, _fds[token], token, Interop.Epoll.EPOLLIN | Interop.Epoll.EPOLLONESHOT);

        internal override void Unregister(int token)
        {
            lock (_lock)
            {
                Interop.Epoll.epoll_ctl(_epoll, Interop.Epoll.EPOLL_CTL_DEL, _fds[token], null);
                Volatile.Write(ref _states[token], null);
                _fds[token] = _freeHead;
                _freeHead = token;
            }
        }

        private void Control(int op, int fd, int token, uint events)
        {
            int rc;
            if (s_packedEvents)
            {
                var ev = new Interop.Epoll.EventPacked { Events = events, Data = (ulong)token };
                rc = Interop.Epoll.epoll_ctl(_epoll, op, fd, &ev);
            }
            else
            {
                var ev = new Interop.Epoll.EventAligned { Events = events, Data = (ulong)token };
                rc = Interop.Epoll.epoll_ctl(_epoll, op, fd, &ev);
            }

            if (rc != 0)
            {
                throw new InvalidOperationException("epoll_ctl(" + op + ") failed: errno " + Marshal.GetLastPInvokeError());
            }
        }

        private void Run()
        {
            int size = s_packedEvents ? sizeof(Interop.Epoll.EventPacked) : sizeof(Interop.Epoll.EventAligned);
            byte* events = (byte*)NativeMemory.Alloc((nuint)(MaxEventsPerWait * size));
            while (true)
            {
                int ready = Interop.Epoll.epoll_wait(_epoll, events, MaxEventsPerWait, -1);
                for (int i = 0; i < ready; i++)
                {
                    ulong data = s_packedEvents
                        ? ((Interop.Epoll.EventPacked*)events)[i].Data
                        : ((Interop.Epoll.EventAligned*)events)[i].Data;
                    SocketAsyncState? state = Volatile.Read(ref Volatile.Read(ref _states)[(int)data]);
                    state?.OnReadable();
                }

                // ready < 0 is EINTR (a signal): simply wait again.
            }
        }
    }
}
#endif
