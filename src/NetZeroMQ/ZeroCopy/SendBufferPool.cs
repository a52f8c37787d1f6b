using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    /// <summary>
    /// Native buffers for large copied sends. <c>zmq_send</c> copies a frame into memory from <c>malloc</c>, which the
    /// receiving side frees; for frames of tens of KiB glibc gives that memory back to the kernel on the free (its trim
    /// threshold) and the next send faults it in again, page by page. A span send of at least <see cref="MinimumSize"/> bytes
    /// instead copies into a buffer from here, handed to libzmq with <c>zmq_msg_init_data</c>; libzmq's free function (which
    /// runs once per buffer, on whichever thread drops the last reference: the receiver for inproc, the I/O thread for tcp
    /// and ipc) puts it back. It is still one copy, as <c>zmq_send</c> makes.
    /// <para>Bounded: each size class (powers of two from <see cref="MinimumSize"/> to <see cref="MaximumSize"/>) keeps at
    /// most <see cref="ClassBudgetBytes"/> of idle buffers and frees what comes back beyond that; frames above
    /// <see cref="MaximumSize"/> go through <c>zmq_send</c> as before. A buffer is rented and returned under a short lock
    /// (no allocation, nothing that can throw), so the free function may run on any thread.</para>
    /// </summary>
    internal static unsafe class SendBufferPool
    {
        /// <summary>
        /// The smallest frame sent through the pool, 8 KiB: measured against the native program (PushPull inproc, span path, one
        /// core), the pool more than doubled .NET / native at 8 KiB and 64 KiB, while at 1 KiB, where glibc serves the copy from
        /// its small-chunk caches, it made no clear difference.
        /// </summary>
        internal const int MinimumSize = 1 << MinimumShift;

        /// <summary>
        /// The largest frame sent through the pool, 128 KiB. Measured against the native program (PushPull, span path, 5 to 7
        /// interleaved rounds of native, the pool up to 256 KiB and the pool up to 128 KiB, medians): 256 KiB frames through
        /// the pool ran at 0.68 (ipc) and 0.62 (tcp) of native, through <c>zmq_send</c> at 0.98 and 1.24; over inproc the pool
        /// ran 6.4x native and <c>zmq_send</c> 0.96. A sender that runs ahead of the wire keeps hundreds of frames queued, far
        /// more than a class's budget holds, and at that size the pool's extra hand-off costs more than glibc's own reuse
        /// (not explained further; a budget 8 times larger still measured 0.75 and 0.81). At 128 KiB the pool held its own
        /// (1.07 ipc, 1.09 tcp against 0.87 and 1.24 without it; 6.7x over inproc), so the ceiling is there.
        /// </summary>
        internal const int MaximumSize = 1 << MaximumShift;

        /// <summary>The idle bytes each size class may keep.</summary>
        internal const int ClassBudgetBytes = 8 << 20;

        private const int MinimumShift = 13;
        private const int MaximumShift = 17;

        private static readonly SizeClass[] s_classes = CreateClasses();

#if NET
        /// <summary>The free function handed to <c>zmq_msg_init_data</c>; its hint is the size class.</summary>
        internal static readonly void* FreePointer = (delegate* unmanaged[Cdecl]<void*, void*, void>)&Free;

        [UnmanagedCallersOnly(CallConvs = new[] { typeof(CallConvCdecl) })]
        private static void Free(void* data, void* hint) => Return(data, (int)(nint)hint);
#else
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        private delegate void FreeFn(IntPtr data, IntPtr hint);

        // Rooted for the life of the process: libzmq may call it from its I/O thread at any time.
        private static readonly FreeFn s_free = (data, hint) => Return((void*)data, (int)hint);

        /// <summary>The free function handed to <c>zmq_msg_init_data</c>; its hint is the size class.</summary>
        internal static readonly void* FreePointer = (void*)Marshal.GetFunctionPointerForDelegate(s_free);
#endif

        /// <summary>Buffers rented and not returned yet (sent, in flight, or held in a received message). Private: nothing in
        /// the library needs the sum; the tests read it through reflection (tests/NetZeroMQ.Tests/TestUtilities/LibraryInternals.cs).</summary>
        private static long Outstanding
        {
            get
            {
                long sum = 0;
                foreach (SizeClass c in s_classes)
                {
                    lock (c)
                    {
                        sum += c.Outstanding;
                    }
                }

                return sum;
            }
        }

        /// <summary>Whether a frame of <paramref name="length"/> bytes goes through the pool.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal static bool Takes(int length) => (uint)(length - MinimumSize) <= (uint)(MaximumSize - MinimumSize);

        /// <summary>
        /// Initialises <paramref name="msg"/> (a zmq_msg_t that holds nothing) with a copy of <paramref name="data"/> in a pooled
        /// buffer (<see cref="Takes"/> must be true for its length). Whoever holds the message afterwards must send or close it:
        /// either gives the buffer back through the free function.
        /// </summary>
        internal static void InitCopy(void* msg, ReadOnlySpan<byte> data)
        {
            int errno = Init(msg, data.Length);
            if (errno != 0)
            {
                ZmqThrow.Error(errno, "zmq_msg_init_data");
            }

            data.CopyTo(new Span<byte>(Interop.Zmq.zmq_msg_data(msg), data.Length));
        }

        /// <summary>
        /// Initialises <paramref name="msg"/> (a zmq_msg_t that holds nothing) over a pooled buffer of <paramref name="length"/>
        /// bytes, not cleared (as <c>zmq_msg_init_size</c>; <see cref="Takes"/> must be true for the length). Returns 0, or
        /// libzmq's errno when it refused the buffer (out of memory for its content header): then the buffer is back in the
        /// pool and <paramref name="msg"/> holds nothing.
        /// </summary>
        internal static int Init(void* msg, int length)
        {
            int index = ClassOf(length);
            void* buffer = Rent(index);
            if (Interop.Zmq.zmq_msg_init_data(msg, buffer, (nuint)length, FreePointer, (void*)(nint)index) != 0)
            {
                // libzmq did not take the buffer and will not call the free function. errno first: Return may overwrite it.
                int errno = Interop.Zmq.zmq_errno();
                Return(buffer, index);
                return errno;
            }

            return 0;
        }

        private static int ClassOf(int length)
        {
            int index = 0;
            while ((MinimumSize << index) < length)
            {
                index++;
            }

            return index;
        }

        private static void* Rent(int index)
        {
            SizeClass c = s_classes[index];
            lock (c)
            {
                if (c.Count > 0)
                {
                    c.Outstanding++;
                    return (void*)c.Idle[--c.Count];
                }
            }

            // None idle: a new one (an OutOfMemoryException leaves the counts as they were).
            void* buffer = (void*)Marshal.AllocHGlobal(MinimumSize << index);
            lock (c)
            {
                c.Outstanding++;
            }

            return buffer;
        }

        /// <summary>Takes a buffer back: kept while its class is under budget, else freed. Never throws (libzmq's thread).</summary>
        private static void Return(void* buffer, int index)
        {
            SizeClass c = s_classes[index];
            bool kept = false;
            lock (c)
            {
                c.Outstanding--;
                if (c.Count < c.Idle.Length)
                {
                    c.Idle[c.Count++] = (nint)buffer;
                    kept = true;
                }
            }

            if (!kept)
            {
                Marshal.FreeHGlobal((IntPtr)buffer);
            }
        }

        private static SizeClass[] CreateClasses()
        {
            var classes = new SizeClass[MaximumShift - MinimumShift + 1];
            for (int i = 0; i < classes.Length; i++)
            {
                classes[i] = new SizeClass(ClassBudgetBytes >> (MinimumShift + i));
            }

            return classes;
        }

        /// <summary>One size class: a stack of idle buffers and the count rented out, both under the instance's lock.</summary>
        private sealed class SizeClass
        {
            internal readonly nint[] Idle;
            internal int Count;
            internal long Outstanding;

            internal SizeClass(int capacity) => Idle = new nint[capacity];
        }
    }
}
