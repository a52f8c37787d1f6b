using System;
using System.Buffers;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Text;

namespace NetZeroMQ
{
    public sealed unsafe partial class Socket
    {
        /// <summary>The frames of one multipart send, already validated; a struct so the send loop is specialised per source.</summary>
        private interface IMultipartFrames
        {
            int Count { get; }

            /// <summary>Sends frame <paramref name="index"/> (the socket's guard is held); false only for would-block or a timed-out wait.</summary>
            bool Send(Socket socket, int index, int flags, TransferWait wait);
        }

        private readonly struct MessageFrames : IMultipartFrames
        {
            private readonly List<Message> _frames;

            internal MessageFrames(List<Message> frames) => _frames = frames;

            public int Count => _frames.Count;

            public bool Send(Socket socket, int index, int flags, TransferWait wait)
            {
                Message message = _frames[index];
                message.Enter();
                try
                {
                    var op = new MessageSend(message);
                    return socket.Transfer(ref op, flags, wait) >= 0;
                }
                finally
                {
                    message.Exit();
                }
            }
        }

        private readonly struct SnapshotFrames<T> : IMultipartFrames
        {
            private readonly FrameSnapshot<T> _snapshot;

            internal SnapshotFrames(FrameSnapshot<T> snapshot) => _snapshot = snapshot;

            public int Count => _snapshot.Count;

            public bool Send(Socket socket, int index, int flags, TransferWait wait)
            {
                T item = _snapshot.Items[index];
                if (typeof(T) == typeof(ReadOnlyMemory<byte>))
                {
                    return socket.SendBytesUnguarded(((ReadOnlyMemory<byte>)(object)item!).Span, flags, wait);
                }

                if (typeof(T) == typeof(string))
                {
                    return socket.SendTextUnguarded((string)(object)item!, flags, wait);
                }

                return socket.SendBytesUnguarded((byte[])(object)item!, flags, wait);
            }
        }

        /// <summary>The frames of a sequence, copied into a pooled array and checked before anything is sent.</summary>
        private readonly struct FrameSnapshot<T>
        {
            internal readonly T[] Items;
            internal readonly int Count;

            private FrameSnapshot(T[] items, int count)
            {
                Items = items;
                Count = count;
            }

            internal static FrameSnapshot<T> Take(IEnumerable<T> frames, string paramName)
            {
                if (frames is null)
                {
                    throw new ArgumentNullException(paramName);
                }

                T[] items;
                int count;
                if (frames is ICollection<T> collection)
                {
                    count = collection.Count;
                    items = ArrayPool<T>.Shared.Rent(Math.Max(count, 1));
                    collection.CopyTo(items, 0);
                }
                else
                {
                    // Enumerate exactly once, before any frame is sent: an enumerator that throws sends nothing.
                    var list = new List<T>(frames);
                    count = list.Count;
                    items = ArrayPool<T>.Shared.Rent(Math.Max(count, 1));
                    list.CopyTo(items, 0);
                }

                var snapshot = new FrameSnapshot<T>(items, count);
                try
                {
                    if (count == 0)
                    {
                        throw new ArgumentException("A multipart message needs at least one frame.", paramName);
                    }

                    for (int i = 0; i < count; i++)
                    {
                        if (items[i] is null)
                        {
                            throw new ArgumentNullException(paramName, "Frame " + i + " of the multipart message is null.");
                        }
                    }
                }
                catch
                {
                    snapshot.Return();
                    throw;
                }

                return snapshot;
            }

            internal void Return() => ArrayPool<T>.Shared.Return(Items, clearArray: !typeof(T).IsValueType || typeof(T) == typeof(ReadOnlyMemory<byte>));
        }
    }
}
