using System;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    /// <summary>
    /// A descriptor that becomes readable when <see cref="Signal"/> is called: an eventfd on Linux, a pipe elsewhere on POSIX.
    /// A blocking receive waits on it next to the socket (one <c>poll</c> with the socket's <c>ZMQ_FD</c>, or <c>zmq_poll</c>
    /// for a thread-safe socket), so <c>Dispose</c> on another thread ends the wait at once instead of leaving the thread
    /// blocked in libzmq (which has no per-socket interrupt). A Dispose's signal stays
    /// for good; a cancelled timed receive signals it too, and takes its signal back with <see cref="Reset"/> as it ends.
    /// Windows' <c>zmq_poll</c> only accepts SOCKETs, so there no waker is made and blocking waits run in short slices instead.
    /// A waker is also an optional descriptor: where none can be had (the process is at its descriptor limit, or within
    /// <see cref="DescriptorHeadroom.Reserved"/> of it) the wait runs in slices as well and still receives — a process at its
    /// limit keeps serving the sockets it has — and the next wait tries again.
    /// </summary>
    internal sealed unsafe class WakerHandle : SafeHandle
    {
        private readonly int _writeFd;

        private WakerHandle(int readFd, int writeFd)
            : base((IntPtr)(-1), ownsHandle: true)
        {
            SetHandle((IntPtr)readFd);
            _writeFd = writeFd;
            ResourceCounters.WakerCreated();
        }

        public override bool IsInvalid => (int)handle < 0;

        /// <summary>The descriptor to poll for readability.</summary>
        internal int ReadFd => (int)handle;

        internal static bool IsSupported { get; } = !RuntimeInformation.IsOSPlatform(OSPlatform.Windows);

        /// <summary>
        /// Creates a waker, or returns null when the platform has none, the descriptor could not be made, or making it would
        /// go into the descriptors left to the runtime (<see cref="DescriptorHeadroom"/>).
        /// </summary>
        internal static WakerHandle? TryCreate()
        {
            if (!IsSupported || !DescriptorHeadroom.HasRoom())
            {
                return null;
            }

            try
            {
                if (RuntimeInformation.IsOSPlatform(OSPlatform.Linux))
                {
                    int fd = Interop.Libc.eventfd(0, Interop.Libc.EFD_CLOEXEC);
                    return fd >= 0 ? new WakerHandle(fd, fd) : null;
                }

                int* fds = stackalloc int[2];
                return Interop.Libc.pipe(fds) == 0 ? new WakerHandle(fds[0], fds[1]) : null;
            }
            catch (Exception e) when (e is DllNotFoundException || e is EntryPointNotFoundException)
            {
                return null;
            }
        }

        /// <summary>Makes the descriptor readable. Safe to call from any thread, and after <see cref="SafeHandle.Dispose()"/>.</summary>
        internal void Signal()
        {
            bool added = false;
            try
            {
                DangerousAddRef(ref added);
                ulong one = 1; // eventfd needs exactly 8 bytes; a pipe takes them as well
                Interop.Libc.write(_writeFd, &one, sizeof(ulong));
            }
            catch (ObjectDisposedException)
            {
                // Already closed: the wait it would have ended is over.
            }
            finally
            {
                if (added)
                {
                    DangerousRelease();
                }
            }
        }

        /// <summary>
        /// Makes the descriptor unreadable again if it is readable (consumes the signals written so far). Only for the thread
        /// that waits on it, while no Dispose is requested: a Dispose's signal must stay.
        /// </summary>
        internal void Reset()
        {
            // read() would block on an empty eventfd or pipe: look first, without waiting.
            Interop.Zmq.PollItemPosix item = default;
            item.Fd = ReadFd;
            item.Events = Interop.Zmq.ZMQ_POLLIN;
            if (Interop.Zmq.zmq_poll(&item, 1, 0) > 0)
            {
                ulong value;
                Interop.Libc.read(ReadFd, &value, sizeof(ulong));
            }
        }

        protected override bool ReleaseHandle()
        {
            Interop.Libc.close((int)handle);
            if (_writeFd != (int)handle)
            {
                Interop.Libc.close(_writeFd);
            }

            ResourceCounters.WakerClosed();
            return true;
        }
    }
}
