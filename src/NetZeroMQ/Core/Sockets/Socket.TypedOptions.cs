using System;

namespace NetZeroMQ
{
    /// <remarks>
    /// <b>Typed options.</b> One <c>GetOption</c> and one <c>SetOption</c> per value type that libzmq's options have, rather than
    /// one generic method: the key's type picks the overload, so a key and a value of different types, or a key of a type libzmq
    /// has no options of, do not compile (a generic method could only refuse them at run time). All of them share one
    /// implementation in <c>Socket.Options.cs</c>.
    /// </remarks>
    public sealed partial class Socket
    {
        /// <summary>
        /// Reads an integer option (<c>zmq_getsockopt</c>).
        /// See <see href="http://api.zeromq.org/4-3:zmq-getsockopt">zmq_getsockopt</see>.
        /// </summary>
        /// <param name="option">A key from <see cref="SocketOptions"/>, or one made by its <c>Custom*</c> factories.</param>
        /// <returns>The value.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="option"/> is null.</exception>
        /// <exception cref="InvalidOperationException">The option is write-only.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq rejected it (<see cref="ZmqError.InvalidArgument"/>); the option is named.</exception>
        public int GetOption(SocketOption<int> option) => GetOptionCore(option);

        /// <summary>Reads a 64-bit integer option (<c>zmq_getsockopt</c>).</summary>
        /// <inheritdoc cref="GetOption(SocketOption{int})" path="/*[not(self::summary)]"/>
        public long GetOption(SocketOption<long> option) => GetOptionCore(option);

        /// <summary>Reads an unsigned 64-bit integer option (<c>zmq_getsockopt</c>).</summary>
        /// <inheritdoc cref="GetOption(SocketOption{int})" path="/*[not(self::summary)]"/>
        public ulong GetOption(SocketOption<ulong> option) => GetOptionCore(option);

        /// <summary>Reads a boolean option (<c>zmq_getsockopt</c>; libzmq's 0 is false, anything else true).</summary>
        /// <inheritdoc cref="GetOption(SocketOption{int})" path="/*[not(self::summary)]"/>
        public bool GetOption(SocketOption<bool> option) => GetOptionCore(option);

        /// <summary>Reads a time option (<c>zmq_getsockopt</c>; libzmq's milliseconds, -1 as
        /// <see cref="System.Threading.Timeout.InfiniteTimeSpan"/>).</summary>
        /// <inheritdoc cref="GetOption(SocketOption{int})" path="/*[not(self::summary)]"/>
        public TimeSpan GetOption(SocketOption<TimeSpan> option) => GetOptionCore(option);

        /// <summary>Reads a text option (<c>zmq_getsockopt</c>; UTF-8, without libzmq's terminating NUL).</summary>
        /// <inheritdoc cref="GetOption(SocketOption{int})" path="/*[not(self::summary)]"/>
        public string GetOption(SocketOption<string> option) => GetOptionCore(option);

        /// <summary>Reads a binary option (<c>zmq_getsockopt</c>) into a new array (CURVE keys: their 32 raw bytes).</summary>
        /// <inheritdoc cref="GetOption(SocketOption{int})" path="/*[not(self::summary)]"/>
        public byte[] GetOption(SocketOption<byte[]> option) => GetOptionCore(option);

        /// <summary>
        /// Sets an integer option (<c>zmq_setsockopt</c>).
        /// See <see href="http://api.zeromq.org/4-3:zmq-setsockopt">zmq_setsockopt</see>.
        /// </summary>
        /// <param name="option">A key from <see cref="SocketOptions"/>, or one made by its <c>Custom*</c> factories.</param>
        /// <param name="value">The value.</param>
        /// <exception cref="ArgumentNullException"><paramref name="option"/> is null.</exception>
        /// <exception cref="ArgumentOutOfRangeException">A value libzmq 4.3 would accept but then abort on, misread or not give
        /// back: outside the range documented on the option's key in <see cref="SocketOptions"/>. The message names the option
        /// and the allowed values.</exception>
        /// <exception cref="InvalidOperationException">The option is read-only.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq rejected it (<see cref="ZmqError.InvalidArgument"/>); the option is named.</exception>
        public void SetOption(SocketOption<int> option, int value) => SetOptionCore(option, value);

        /// <summary>Sets a 64-bit integer option (<c>zmq_setsockopt</c>).</summary>
        /// <inheritdoc cref="SetOption(SocketOption{int}, int)" path="/*[not(self::summary)]"/>
        public void SetOption(SocketOption<long> option, long value) => SetOptionCore(option, value);

        /// <summary>Sets an unsigned 64-bit integer option (<c>zmq_setsockopt</c>).</summary>
        /// <inheritdoc cref="SetOption(SocketOption{int}, int)" path="/*[not(self::summary)]"/>
        public void SetOption(SocketOption<ulong> option, ulong value) => SetOptionCore(option, value);

        /// <summary>Sets a boolean option (<c>zmq_setsockopt</c>; libzmq gets 1 or 0).</summary>
        /// <inheritdoc cref="SetOption(SocketOption{int}, int)" path="/*[not(self::summary)]"/>
        public void SetOption(SocketOption<bool> option, bool value) => SetOptionCore(option, value);

        /// <summary>Sets a time option (<c>zmq_setsockopt</c>; libzmq gets whole milliseconds,
        /// <see cref="System.Threading.Timeout.InfiniteTimeSpan"/> as -1).</summary>
        /// <param name="option">A key from <see cref="SocketOptions"/>, or one made by its <c>Custom*</c> factories.</param>
        /// <param name="value">The value: <see cref="System.Threading.Timeout.InfiniteTimeSpan"/>, or zero to int.MaxValue milliseconds.</param>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="value"/> is negative (other than infinite), too large, or
        /// outside the range documented on the option's key in <see cref="SocketOptions"/>.</exception>
        /// <inheritdoc cref="SetOption(SocketOption{int}, int)" path="/exception"/>
        public void SetOption(SocketOption<TimeSpan> option, TimeSpan value) => SetOptionCore(option, value);

        /// <summary>Sets a text option (<c>zmq_setsockopt</c>; sent as UTF-8).</summary>
        /// <param name="option">A key from <see cref="SocketOptions"/>, or one made by its <c>Custom*</c> factories.</param>
        /// <param name="value">The text.</param>
        /// <exception cref="ArgumentNullException"><paramref name="option"/> or <paramref name="value"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="value"/> contains a NUL character (libzmq would stop there).</exception>
        /// <exception cref="InvalidOperationException">The option is read-only.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq rejected it (<see cref="ZmqError.InvalidArgument"/>); the option is named.</exception>
        public void SetOption(SocketOption<string> option, string value) => SetOptionCore(option, value);

        /// <summary>Sets a binary option (<c>zmq_setsockopt</c>).</summary>
        /// <param name="option">A key from <see cref="SocketOptions"/>, or one made by its <c>Custom*</c> factories.</param>
        /// <param name="value">The bytes.</param>
        /// <exception cref="ArgumentNullException"><paramref name="option"/> or <paramref name="value"/> is null.</exception>
        /// <exception cref="ArgumentException">The value breaks a rule libzmq would reject or misread: a routing id that is
        /// empty, longer than 255 bytes or starts with a zero byte, a CURVE key that is not 32 bytes.</exception>
        /// <exception cref="InvalidOperationException">The option is read-only.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="ZmqException">libzmq rejected it (<see cref="ZmqError.InvalidArgument"/>); the option is named.</exception>
        public void SetOption(SocketOption<byte[]> option, byte[] value) => SetOptionCore(option, value);
    }
}
