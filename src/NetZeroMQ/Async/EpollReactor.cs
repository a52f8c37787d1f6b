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

        private EpollReactor(int epoll) => _epoll = epoll;

        /// <summary>
        /// Makes the epoll set and starts the reactor thread, on the calling thread; when either fails it throws there and
        /// leaves nothing behind.
        /// </summary>
        /// <exception cref="ZmqException">No descriptor for the epoll set or for the runtime to start the thread with
        /// (<see cref="ZmqError.TooManyOpenFiles"/>), or another epoll failure.</exception>
        internal static EpollReactor Start()
        {
            const string Operation = "epoll_create1 (the async reactor's epoll set)";
            DescriptorHeadroom.ThrowIfLow(Operation);
            int epoll = Interop.Epoll.epoll_create1(Interop.Epoll.EPOLL_CLOEXEC);
            if (epoll < 0)
            {
                ZmqThrow.Error(Marshal.GetLastPInvokeError(), Operation);
            }

            var reactor = new EpollReactor(epoll);
            var thread = new Thread(reactor.Run) { IsBackground = true, Name = "NetZeroMQ reactor" };
            try
            {
                // A library thread: it must not carry the first async caller's AsyncLocals for the rest of the process.
                thread.UnsafeStart();
            }
            catch (Exception e) when (e is OutOfMemoryException || e is ThreadStartException)
            {
                Interop.Libc.close(epoll);

                // The runtime reports a thread it could not start as OutOfMemoryException; on Linux the usual cause is the two
                // descriptors a new thread needs.
                if (DescriptorHeadroom.TryMeasure(out long open, out long limit) && limit - open < DescriptorHeadroom.Reserved)
                {
                    ZmqException refusal = DescriptorHeadroom.Refusal(open, limit, 0, "starting the async reactor thread");
                    throw new ZmqException(refusal.Error, refusal.NativeErrorNumber, refusal.Message, innerException: e);
                }

                throw;
            }

            return reactor;
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

            int errno = Control(Interop.Epoll.EPOLL_CTL_ADD, (int)fd, token, events: 0);
            if (errno != 0)
            {
                // ENOMEM, or ENOSPC past fs.epoll.max_user_watches: the caller's async call fails, the token is free again.
                lock (_lock)
                {
                    Free(token);
                }

                ZmqThrow.Error(errno, "epoll_ctl (adding the socket to the async reactor)");
            }

            return token;
        }

        internal override int Arm(int token) =>
            Control(Interop.Epoll.EPOLL_CTL_MOD, _fds[token], token, Interop.Epoll.EPOLLIN | Interop.Epoll.EPOLLONESHOT);

        internal override void Unregister(int token)
        {
            lock (_lock)
            {
                Interop.Epoll.epoll_ctl(_epoll, Interop.Epoll.EPOLL_CTL_DEL, _fds[token], null);
                Free(token);
            }
        }

        /// <summary>Returns a token to the free list; the caller holds the lock.</summary>
        private void Free(int token)
        {
            Volatile.Write(ref _states[token], null);
            _fds[token] = _freeHead;
            _freeHead = token;
        }

        /// <summary>epoll_ctl; returns 0 or the errno.</summary>
        private int Control(int op, int fd, int token, uint events)
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

            return rc == 0 ? 0 : Marshal.GetLastPInvokeError();
        }

        private void Run()
        {
            int size = s_packedEvents ? sizeof(Interop.Epoll.EventPacked) : sizeof(Interop.Epoll.EventAligned);
            byte* events = (byte*)NativeMemory.Alloc((nuint)(MaxEventsPerWait * size));
            while (true)
            {
                int ready = Interop.Epoll.epoll_wait(_epoll, events, MaxEventsPerWait, -1);
                if (ready < 0)
                {
                    int errno = Marshal.GetLastPInvokeError();
                    if (errno == ErrorMap.EINTR)
                    {
                        continue; // a signal: wait again
                    }

                    // EBADF, EFAULT, EINVAL: the set itself is broken. No async operation could complete any more, and waiting
                    // again would spin on the same error.
                    Environment.FailFast("NetZeroMQ's async reactor cannot wait any more: epoll_wait failed with errno " + errno + ".");
                }

                for (int i = 0; i < ready; i++)
                {
                    ulong data = s_packedEvents
                        ? ((Interop.Epoll.EventPacked*)events)[i].Data
                        : ((Interop.Epoll.EventAligned*)events)[i].Data;
                    SocketAsyncState? state = Volatile.Read(ref Volatile.Read(ref _states)[(int)data]);

                    // Never throws: whatever goes wrong for one socket ends that socket's pending operations.
                    state?.OnReadable();
                }
            }
        }
    }
}
#endif
