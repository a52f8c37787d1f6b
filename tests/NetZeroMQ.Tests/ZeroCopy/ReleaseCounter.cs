using System;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetZeroMQ.Tests.ZeroCopy
{
    /// <summary>
    /// Native buffers that carry their own id in their first 4 bytes, and a release callback that counts releases per id, so a
    /// test can prove every buffer was released exactly once.
    /// </summary>
    public sealed class ReleaseCounter
    {
        private readonly int[] _releases;

        public ReleaseCounter(int buffers)
        {
            _releases = new int[buffers];
            Release = Count;
        }

        /// <summary>One delegate for all buffers (what a user would write as a static lambda).</summary>
        public Action<IntPtr> Release { get; }

        public int Total;

        private bool[]? _allocated;

        public unsafe IntPtr Allocate(int id, int size)
        {
            (_allocated ??= new bool[_releases.Length])[id] = true;
            IntPtr p = Marshal.AllocHGlobal(Math.Max(size, 4));
            *(int*)p = id;
            for (int i = 4; i < size; i++)
            {
                ((byte*)p)[i] = (byte)(id + i);
            }

            return p;
        }

        public int ReleasesOf(int id) => Volatile.Read(ref _releases[id]);

        /// <summary>Ids released a number of times other than once.</summary>
        public int CountNotExactlyOnce()
        {
            int bad = 0;
            for (int i = 0; i < _releases.Length; i++)
            {
                if (Volatile.Read(ref _releases[i]) != 1)
                {
                    bad++;
                }
            }

            return bad;
        }

        /// <summary>Ids handed out by <see cref="Allocate"/> and released a number of times other than once (ids never
        /// allocated, used by a test for other kinds of buffer, are not counted).</summary>
        public int CountAllocatedNotExactlyOnce()
        {
            int bad = 0;
            for (int i = 0; i < _releases.Length; i++)
            {
                if (_allocated is not null && _allocated[i] && Volatile.Read(ref _releases[i]) != 1)
                {
                    bad++;
                }
            }

            return bad;
        }

        private unsafe void Count(IntPtr p)
        {
            int id = *(int*)p;
            Interlocked.Increment(ref _releases[id]);
            Interlocked.Increment(ref Total);
            Marshal.FreeHGlobal(p);
        }
    }
}
