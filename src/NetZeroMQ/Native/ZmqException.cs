using System;

namespace NetZeroMQ
{
    /// <summary>
    /// An error reported by libzmq. <see cref="Error"/> is portable and meant for <c>switch</c>; <see cref="NativeErrorNumber"/> is
    /// the platform's errno; the message holds libzmq's text and the endpoint or option involved.
    /// </summary>
    /// <remarks>
    /// "Would block" is not an error in NetZeroMQ's API: the <c>Try</c> methods return <c>false</c>. A blocking call whose
    /// send or receive timeout expires throws this exception with <see cref="ZmqError.TryAgain"/>.
    /// </remarks>
    public sealed class ZmqException : Exception
    {
        /// <summary>Creates an exception with <see cref="ZmqError.Unknown"/> and a default message.</summary>
        public ZmqException()
            : this(ZmqError.Unknown, 0, "A libzmq operation failed.")
        {
        }

        /// <summary>Creates an exception with <see cref="ZmqError.Unknown"/> and the given message.</summary>
        /// <param name="message">The complete message.</param>
        public ZmqException(string message)
            : this(ZmqError.Unknown, 0, message)
        {
        }

        /// <summary>Creates an exception with <see cref="ZmqError.Unknown"/>, the given message and the exception that caused it.</summary>
        /// <param name="message">The complete message.</param>
        /// <param name="innerException">The cause.</param>
        public ZmqException(string message, Exception? innerException)
            : this(ZmqError.Unknown, 0, message, innerException: innerException)
        {
        }

        /// <summary>Creates an exception for a libzmq error.</summary>
        /// <param name="error">The portable error code.</param>
        /// <param name="nativeErrorNumber">The platform errno value.</param>
        /// <param name="message">The complete message.</param>
        /// <param name="endpoint">The endpoint involved, if any.</param>
        /// <param name="option">The option involved, if any.</param>
        /// <param name="innerException">The cause, when this exception re-reports another one with more context (a multipart
        /// transfer that failed part way); otherwise null.</param>
        public ZmqException(
            ZmqError error, int nativeErrorNumber, string message, string? endpoint = null, string? option = null, Exception? innerException = null)
            : base(message, innerException)
        {
            Error = error;
            NativeErrorNumber = nativeErrorNumber;
            Endpoint = endpoint;
            Option = option;
            HResult = unchecked((int)0x80131500) ^ (int)error;
        }

        /// <summary>The portable error code.</summary>
        public ZmqError Error { get; }

        /// <summary>The errno value libzmq reported on this platform (<c>zmq_errno</c>).</summary>
        public int NativeErrorNumber { get; }

        /// <summary>The endpoint of the failed bind, connect, unbind or disconnect; otherwise null.</summary>
        public string? Endpoint { get; }

        /// <summary>The name of the socket or context option of a failed get or set; otherwise null.</summary>
        public string? Option { get; }

        /// <summary>Whether this is a send or receive that timed out or would have blocked (<see cref="ZmqError.TryAgain"/>).</summary>
        public bool IsTimeout => Error == ZmqError.TryAgain;
    }
}
