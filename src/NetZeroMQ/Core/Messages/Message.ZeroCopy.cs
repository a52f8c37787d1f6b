using System;
using System.Buffers;

namespace NetZeroMQ
{
    public sealed unsafe partial class Message
    {
        /// <summary>
        /// Creates a zero-copy message over native memory (<c>zmq_msg_init_data</c>): libzmq sends the bytes where they are and
        /// calls <paramref name="release"/> once, when it no longer needs them.
        /// See <see href="http://api.zeromq.org/4-3:zmq-msg-init-data">zmq_msg_init_data</see>.
        /// </summary>
        /// <param name="data">The bytes; they must stay valid and unchanged until <paramref name="release"/> runs.</param>
        /// <param name="size">Their size.</param>
        /// <param name="release">
        /// Called exactly once with <paramref name="data"/>: on libzmq's I/O thread after a tcp/ipc send, on the thread that
        /// closes the last copy for inproc, or on the disposing thread if the message is never sent. It must be quick, must not
        /// block, and should not throw (an exception is caught and reported through <see cref="ZeroCopyDiagnostics.ReleaseFailed"/>).
        /// A static lambda such as <c>p =&gt; Marshal.FreeHGlobal(p)</c> costs no allocation per message.
        /// If this constructor throws after its argument checks, <paramref name="release"/> has already run.
        /// </param>
        /// <exception cref="ArgumentNullException"><paramref name="release"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="data"/> is null with a non-zero size.</exception>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is negative.</exception>
        public Message(IntPtr data, int size, Action<IntPtr> release)
            : this()
        {
            var source = new NativeSource(data, size, release);
            InitZeroCopy(source);
        }

        /// <summary>
        /// Creates a zero-copy message over managed memory: the memory is pinned, sent where it is, and unpinned when libzmq lets go
        /// (see <see cref="Message(IntPtr, int, Action{IntPtr})"/> for on which thread). Do not change the bytes until then.
        /// </summary>
        /// <param name="memory">The bytes to send.</param>
        /// <returns>The message.</returns>
        public static Message ZeroCopy(ReadOnlyMemory<byte> memory)
        {
            return Create(new MemorySource(memory));
        }

        /// <summary>
        /// Creates a zero-copy message over the first <paramref name="length"/> bytes of an owner's memory; the owner is disposed
        /// when libzmq lets go. Ownership passes to the message: do not dispose <paramref name="owner"/> yourself.
        /// </summary>
        /// <param name="owner">The memory's owner, for example from <see cref="MemoryPool{T}.Shared"/>.</param>
        /// <param name="length">How many bytes to send.</param>
        /// <returns>The message.</returns>
        public static Message ZeroCopy(IMemoryOwner<byte> owner, int length)
        {
            return Create(new OwnerSource(owner, length));
        }

        /// <summary>
        /// Creates a zero-copy message over the first <paramref name="length"/> bytes of an array rented from
        /// <paramref name="pool"/>; the array is returned to the pool when libzmq lets go. Ownership of the array passes to the
        /// message: do not return it yourself.
        /// </summary>
        /// <param name="rentedArray">The rented array.</param>
        /// <param name="length">How many bytes to send.</param>
        /// <param name="pool">The pool it came from.</param>
        /// <returns>The message.</returns>
        public static Message ZeroCopy(byte[] rentedArray, int length, ArrayPool<byte> pool)
        {
            return Create(new PooledArraySource(rentedArray, length, pool));
        }

        private static Message Create<TSource>(TSource source)
            where TSource : struct, IZeroCopySource
        {
            var message = new Message();
            try
            {
                message.InitZeroCopy(source);
                return message;
            }
            catch
            {
                message.Dispose();
                throw;
            }
        }

        /// <summary>Replaces the empty content the constructor made with the zero-copy buffer.</summary>
        private void InitZeroCopy<TSource>(TSource source)
            where TSource : struct, IZeroCopySource
        {
            Interop.Zmq.zmq_msg_close(_msg);
            ZeroCopyInit.Init(_msg, source);
            OnReceived(source.Length);
        }
    }
}
