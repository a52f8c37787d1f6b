using System;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace NetZeroMQ
{
    /// <summary>
    /// The one place that turns a failed libzmq call into an exception. Callers pass the errno they read with
    /// <c>zmq_errno()</c> immediately after the failing call, before anything else can overwrite it. The throw helpers are kept
    /// out of line so that the hot paths that call them stay small.
    /// </summary>
    internal static class ZmqThrow
    {
        [DoesNotReturn]
        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static void Error(int errno, string operation, string? endpoint = null, string? option = null) =>
            throw Create(errno, operation, endpoint, option);

        /// <summary>Reads zmq_errno() now and throws; only for call sites where nothing ran since the failing call. Its arguments
        /// are evaluated before it runs, so they must be constants or locals: a computed argument (an enum's ToString, say)
        /// runs managed code first, which can overwrite errno. Such call sites use <see cref="Error"/> with
        /// <c>Interop.Zmq.zmq_errno()</c> as the first argument, which C# evaluates first.</summary>
        [DoesNotReturn]
        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static void LastError(string operation, string? endpoint = null, string? option = null) =>
            throw Create(Interop.Zmq.zmq_errno(), operation, endpoint, option);

        /// <summary>The exception for <paramref name="errno"/>; <paramref name="detail"/>, when given, is appended after a colon
        /// (why the library, not libzmq, refused).</summary>
        internal static unsafe ZmqException Create(int errno, string operation, string? endpoint = null, string? option = null, string? detail = null)
        {
            ZmqError error = ErrorMap.ToPortable(errno);
            TelemetryCounters.Error(error);
            string text = Utf8.FromNullTerminated(Interop.Zmq.zmq_strerror(errno)) ?? "unknown error";
            string message = text + " [" + error + ", " + ErrorMap.Describe(errno) + "] in " + operation;
            if (endpoint is not null)
            {
                message += " '" + endpoint + "'";
            }

            if (option is not null)
            {
                message += " (option " + option + ")";
            }

            if (detail is not null)
            {
                message += ": " + detail;
            }

            return new ZmqException(error, errno, message, endpoint, option);
        }

        /// <summary>
        /// A send or receive failed with <paramref name="errno"/> (read right after the call): throws, adding the rule the call
        /// broke when the code says misuse (EFSM, ENOTSUP), which the socket's type decides (read here, off the fast path).
        /// The caller holds the socket.
        /// </summary>
        [DoesNotReturn]
        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static unsafe void Transfer(int errno, nint socket, bool isSend)
        {
            ZmqError error = ErrorMap.ToPortable(errno);
            string? rule = null;
            int type;
            nuint length = sizeof(int);
            if ((error == ZmqError.InvalidState || error == ZmqError.NotSupported)
                && Interop.Zmq.zmq_getsockopt(socket, Interop.Zmq.ZMQ_TYPE, &type, &length) == 0)
            {
                rule = SocketMisuse.OfTransfer(type, error, isSend);
            }

            throw Create(errno, isSend ? "send" : "receive", detail: rule);
        }

        /// <summary>libzmq refused a socket option with <paramref name="errno"/>: throws, adding the rule when the option belongs
        /// to other socket types (libzmq's EINVAL says only "Invalid argument").</summary>
        [DoesNotReturn]
        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static void Option(int errno, string operation, int socketType, int option, string name) =>
            throw Create(
                errno, operation, option: name,
                detail: ErrorMap.ToPortable(errno) == ZmqError.InvalidArgument ? SocketMisuse.OfOption(socketType, option, name) : null);

        [DoesNotReturn]
        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static void Timeout(string operation)
        {
            int errno = ErrorMap.EAGAIN;
            throw Create(errno, operation + " (timed out)");
        }

        [DoesNotReturn]
        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static void Disposed(object owner) => throw new ObjectDisposedException(owner.GetType().FullName);

        /// <summary>Throws <see cref="ObjectDisposedException"/> for <paramref name="owner"/>, with <paramref name="hint"/> (why it
        /// was disposed and what to do instead) as its message when there is one.</summary>
        [DoesNotReturn]
        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static void Disposed(object owner, string? hint) =>
            throw (hint is null
                ? new ObjectDisposedException(owner.GetType().FullName)
                : new ObjectDisposedException(owner.GetType().FullName, hint));

        /// <summary>A socket is disposed because its context was: the message says so (the usual one names only the type).</summary>
        [DoesNotReturn]
        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static void ClosedWithContext(object owner) =>
            throw new ObjectDisposedException(
                owner.GetType().FullName,
                "This " + owner.GetType().Name + " was closed because its Context was disposed: disposing a context closes every " +
                "socket it made. Dispose the context after the sockets that still need it.");

        [DoesNotReturn]
        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static void ConcurrentUse(object owner) =>
            throw new InvalidOperationException(
                "This " + owner.GetType().Name + " is being used by another thread right now. ZeroMQ sockets and messages are not " +
                "thread-safe: use each from one thread at a time (hand it over between threads, never share it concurrently).");
    }
}
