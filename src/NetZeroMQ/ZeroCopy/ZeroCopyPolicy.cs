using System;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// When a zero-copy send really is zero-copy. Handing libzmq a buffer costs a fixed amount per message (pinning, a release
    /// slot, libzmq's reference-counted content, the release callback), which for small payloads is more than copying them:
    /// payloads of at most <see cref="CopyThreshold"/> bytes are therefore copied into the message and given back to their
    /// owner at once, by the same release path (exactly once, never throwing), so the caller's contract is unchanged.
    /// </summary>
    /// <remarks>
    /// The default, 1 KiB, comes from <c>ZeroCopyBenchmarks</c>: zero-copy costs the same per message whatever the size,
    /// which over inproc is more than copying 64 B and less than copying 1 KiB, while over tcp copying still won at 1 KiB and
    /// lost from 8 KiB on (the figures: docs/performance.md, "Zero-copy"). pyzmq makes the same trade with a 64 KiB threshold
    /// of its own. Set 0 to hand every buffer to libzmq.
    /// </remarks>
    public static class ZeroCopyPolicy
    {
        /// <summary>The default <see cref="CopyThreshold"/>: 1024 bytes.</summary>
        public const int DefaultCopyThreshold = 1024;

        private static int s_copyThreshold = DefaultCopyThreshold;

        /// <summary>
        /// Zero-copy sends of at most this many bytes copy the payload and release the buffer immediately (process-wide;
        /// 0 turns copying off).
        /// </summary>
        /// <exception cref="ArgumentOutOfRangeException">The value is negative.</exception>
        public static int CopyThreshold
        {
            get => Volatile.Read(ref s_copyThreshold);
            set => Volatile.Write(ref s_copyThreshold, value >= 0 ? value : throw new ArgumentOutOfRangeException(nameof(value), value, "The threshold must not be negative."));
        }
    }
}
