using System;
using System.Buffers;
using System.Threading;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>Real failures in the middle of a multipart send, made without any hook in the library.</summary>
    internal static class MultipartFaults
    {
        /// <summary>
        /// Shuts the context down from inside a send, between two frames. libzmq reads the stop command this queues on its next
        /// send, but a send looks at its command mailbox at most once per few million CPU cycles (about a millisecond); the
        /// pause makes sure the next frame's send is one that looks.
        /// </summary>
        internal static void ShutDownBeforeNextSend(Context context)
        {
            context.Shutdown();
            Thread.Sleep(20);
        }

        /// <summary>
        /// Memory whose bytes, read by the send loop right before its frame goes to libzmq, first run an action (once): how a
        /// test acts between two frames of one multipart send without any hook in the library.
        /// </summary>
        internal sealed class BeforeSendMemory : MemoryManager<byte>
        {
            private readonly byte[] _bytes;
            private Action? _beforeSend;

            internal BeforeSendMemory(byte[] bytes, Action beforeSend)
            {
                _bytes = bytes;
                _beforeSend = beforeSend;
            }

            // The base class would call GetSpan for the length, which would run the action too early.
            public override Memory<byte> Memory => CreateMemory(_bytes.Length);

            public override Span<byte> GetSpan()
            {
                Interlocked.Exchange(ref _beforeSend, null)?.Invoke();
                return _bytes;
            }

            public override MemoryHandle Pin(int elementIndex = 0) => throw new NotSupportedException("copied sends do not pin");

            public override void Unpin()
            {
            }

            protected override void Dispose(bool disposing)
            {
            }
        }
    }
}
