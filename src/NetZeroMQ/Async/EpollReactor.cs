#if NET
using System;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    /// <summary>The Linux <see cref="Reactor"/>: one epoll set, one background thread; a token is the epoll event's data.</summary>
    internal sealed unsafe class EpollReactor : Reactor
    {
        private const int MaxEventsPerWait = 256;
        private static readonly bool s_packedEvents = RuntimeInformation.ProcessArchitecture == Architecture.X64;

        private readonly int _epoll;

        private EpollReactor(int epoll) => _epoll = epoll;

        internal override string Kind => "epoll";

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
            try
            {
                reactor.StartThread(reactor.Run);
            }
            catch
            {
                Interop.Libc.close(epoll);
                throw;
            }

            return reactor;
        }

        private protected override ZmqException? Add(int token, nint fd)
        {
            int errno = Control(Interop.Epoll.EPOLL_CTL_ADD, (int)fd, token, events: 0);
            return errno == 0 ? null : ZmqThrow.Create(errno, "epoll_ctl (adding the socket to the async reactor)");
        }

        private protected override Exception? ArmCore(int token, nint fd)
        {
            int errno = Control(Interop.Epoll.EPOLL_CTL_MOD, (int)fd, token, Interop.Epoll.EPOLLIN | Interop.Epoll.EPOLLONESHOT);

            // Without the registration nothing would ever retry the caller's operations: they end now, with the reason.
            return errno == 0 ? null : ZmqThrow.Create(errno, "epoll_ctl (arming the async reactor for the socket)");
        }

        private protected override void Remove(int token, nint fd) =>
            Interop.Epoll.epoll_ctl(_epoll, Interop.Epoll.EPOLL_CTL_DEL, (int)fd, null);

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

                    // EBADF, EFAULT, EINVAL: the set itself is broken (its descriptor closed behind our back, say), and every
                    // further wait would fail the same way: stop, ending what waits (see Reactor.Stop).
                    NativeMemory.Free(events);
                    Stop(ZmqThrow.Create(errno, "epoll_wait (the async reactor's wait)"));
                    return;
                }

                for (int i = 0; i < ready; i++)
                {
                    ulong data = s_packedEvents
                        ? ((Interop.Epoll.EventPacked*)events)[i].Data
                        : ((Interop.Epoll.EventAligned*)events)[i].Data;

                    // Never throws: whatever goes wrong for one socket ends that socket's pending operations.
                    Dispatch(ClientOf((int)data));
                }
            }
        }
    }
}
#endif
