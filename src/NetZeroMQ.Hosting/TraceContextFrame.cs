using System;
using System.Diagnostics;
using System.Text;

namespace NetZeroMQ.Hosting
{
    /// <summary>
    /// The convention that carries W3C trace context (<c>traceparent</c>, <c>tracestate</c>) inside a ZeroMQ multipart
    /// message, which has no headers: one extra frame, the <b>last</b> of the message, that starts with the marker
    /// <see cref="Marker"/> (the bytes <c>00 74 72 61 63 65 0A</c>, a NUL then "trace" and a line feed), followed by the
    /// <c>traceparent</c> value in ASCII, then, if there is one, a line feed and the <c>tracestate</c> value.
    /// </summary>
    /// <remarks>
    /// <para>Opt-in: nothing is added unless a sender calls <see cref="Inject"/> (or <c>SendTracedAsync</c>), and a receiver
    /// looks for the frame only when asked (<see cref="Extract"/>, or a socket worker whose socket has
    /// <c>TraceContext: true</c>).</para>
    /// <para>Why last: routing envelopes (ROUTER identities, REQ's empty delimiter) are in front and stay untouched, and a
    /// PUB/SUB topic stays the first frame, so subscriptions match as before. A message of a single frame never carries one.</para>
    /// <para>A peer that does not know the convention sees one more frame at the end of each traced message, beginning with a
    /// NUL byte; it should ignore frames past those it expects (or strip the frame by its marker).</para>
    /// <para>A trailing frame that starts with the marker but does not hold a valid W3C <c>traceparent</c> is
    /// <see cref="TraceFrameStatus.Malformed"/>: it is removed all the same, and no context comes out of it.</para>
    /// </remarks>
    public static class TraceContextFrame
    {
        /// <summary>The longest trace frame accepted: the marker, a traceparent and the 512 characters W3C allows a tracestate.</summary>
        public const int MaxLength = 1024;

        /// <summary>The first bytes of a trace frame: NUL, "trace", line feed.</summary>
        public static ReadOnlySpan<byte> Marker => "\0trace\n"u8;

        /// <summary>A trace frame follows a message's own frames: refuses a message that has none.</summary>
        internal static void ThrowIfNoFrames(MultipartMessage message)
        {
            if (message.Count == 0)
            {
                throw new ArgumentException("A trace frame follows the message's own frames; the message has none.", nameof(message));
            }
        }

        /// <summary>Appends a trace frame holding <paramref name="context"/> as the last frame of <paramref name="message"/>.</summary>
        /// <param name="message">The message to send; it must hold at least one frame already.</param>
        /// <param name="context">The span context to carry (its trace id, span id and flags, and <paramref name="traceState"/>).</param>
        /// <param name="traceState">The W3C <c>tracestate</c>, or null.</param>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="context"/> is the default (invalid) context, or the message has no frame.</exception>
        public static void Inject(MultipartMessage message, ActivityContext context, string? traceState = null)
        {
            ArgumentNullException.ThrowIfNull(message);
            if (context == default)
            {
                throw new ArgumentException("An invalid (default) span context cannot be carried.", nameof(context));
            }

            ThrowIfNoFrames(message);

            // "00-" trace id "-" span id "-" flags: 55 characters.
            Span<byte> frame = stackalloc byte[MaxLength];
            int length = Marker.Length;
            Marker.CopyTo(frame);
            length += Encoding.ASCII.GetBytes("00-", frame[length..]);
            length += Encoding.ASCII.GetBytes(context.TraceId.ToHexString(), frame[length..]);
            frame[length++] = (byte)'-';
            length += Encoding.ASCII.GetBytes(context.SpanId.ToHexString(), frame[length..]);
            frame[length++] = (byte)'-';
            length += Encoding.ASCII.GetBytes((context.TraceFlags & ActivityTraceFlags.Recorded) != 0 ? "01" : "00", frame[length..]);
            if (!string.IsNullOrEmpty(traceState) && length + 1 + Encoding.UTF8.GetByteCount(traceState) <= MaxLength)
            {
                frame[length++] = (byte)'\n';
                length += Encoding.UTF8.GetBytes(traceState, frame[length..]);
            }

            message.Add(frame[..length]);
        }

        /// <summary>
        /// Looks for a trace frame at the end of <paramref name="message"/>; if there is one, removes it and parses it.
        /// Never throws on what a peer sent.
        /// </summary>
        /// <param name="message">The received message.</param>
        /// <param name="context">The remote span context when <see cref="TraceFrameStatus.Valid"/> is returned, else the default.</param>
        /// <returns>Whether there was a trace frame, and whether it was valid.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
        public static TraceFrameStatus Extract(MultipartMessage message, out ActivityContext context)
        {
            ArgumentNullException.ThrowIfNull(message);
            context = default;
            if (message.Count < 2 || !message[message.Count - 1].Data.StartsWith(Marker))
            {
                return TraceFrameStatus.Absent;
            }

            using Message frame = message.PopBack();
            ReadOnlySpan<byte> body = frame.Data[Marker.Length..];
            if (frame.Size > MaxLength)
            {
                return TraceFrameStatus.Malformed;
            }

            int newline = body.IndexOf((byte)'\n');
            ReadOnlySpan<byte> parent = newline < 0 ? body : body[..newline];
            ReadOnlySpan<byte> state = newline < 0 ? default : body[(newline + 1)..];
            string? traceState;
            try
            {
                traceState = state.IsEmpty ? null : new UTF8Encoding(false, true).GetString(state);
            }
            catch (ArgumentException)
            {
                return TraceFrameStatus.Malformed;
            }

            // The runtime's W3C parser: exactly "00-<32 hex>-<16 hex>-<2 hex>", ids not all zero.
            return parent.Length == 55 && parent.IndexOfAnyExceptInRange((byte)0x20, (byte)0x7E) < 0
                && ActivityContext.TryParse(Encoding.ASCII.GetString(parent), traceState, isRemote: true, out context)
                ? TraceFrameStatus.Valid
                : TraceFrameStatus.Malformed;
        }
    }

    /// <summary>What <see cref="TraceContextFrame.Extract"/> found at the end of a message.</summary>
    public enum TraceFrameStatus
    {
        /// <summary>No trace frame: the message is as the sender wrote it.</summary>
        Absent = 0,

        /// <summary>A valid trace frame, removed; its context came out.</summary>
        Valid = 1,

        /// <summary>A frame with the marker that is not a valid trace context, removed; no context came out.</summary>
        Malformed = 2,
    }
}
