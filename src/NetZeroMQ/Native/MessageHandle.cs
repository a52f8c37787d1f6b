using System;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    /// <summary>
    /// Owns the native block that holds one <c>zmq_msg_t</c>. The struct lives in native memory, never on the managed heap,
    /// because libzmq stores payloads of up to 33 bytes inside it: a span over a message's data must not move with the GC.
    /// Releasing closes the message (which may run a zero-copy free callback) and frees the block.
    /// </summary>
    internal sealed unsafe class MessageHandle : SafeHandle
    {
        private MessageHandle()
            : base(IntPtr.Zero, ownsHandle: true)
        {
        }

        public override bool IsInvalid => handle == IntPtr.Zero;

        internal void* Msg => (void*)handle;

        /// <summary>Allocates an uninitialised block; the caller initialises it with a zmq_msg_init* call.</summary>
        internal static MessageHandle Allocate()
        {
            var result = new MessageHandle();
#if NET
            result.SetHandle((IntPtr)NativeMemory.AlignedAlloc(Interop.Zmq.ZmqMsgSize, (nuint)IntPtr.Size));
#else
            // AllocHGlobal memory is aligned for any fundamental type (at least 8 bytes), which is what zmq_msg_t needs.
            result.SetHandle(Marshal.AllocHGlobal(Interop.Zmq.ZmqMsgSize));
#endif
            ResourceCounters.MessageCreated();
            return result;
        }

        /// <summary>Marks the block as holding an initialised message, to be closed on release.</summary>
        internal bool IsInitialized;

        protected override bool ReleaseHandle()
        {
            if (IsInitialized)
            {
                Interop.Zmq.zmq_msg_close((void*)handle);
            }

#if NET
            NativeMemory.AlignedFree((void*)handle);
#else
            Marshal.FreeHGlobal(handle);
#endif
            ResourceCounters.MessageReleased();
            return true;
        }
    }
}
