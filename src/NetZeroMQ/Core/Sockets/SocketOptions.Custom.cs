using System;

namespace NetZeroMQ
{
    /// <content>
    /// Keys for socket options that the catalogue does not list, one factory per value type that libzmq's options have. The
    /// key's type then picks the matching <c>GetOption</c>/<c>SetOption</c> overload at compile time. These options are not
    /// checked before the native call (no limits, no draft check): libzmq decides whether it knows the number and the size.
    /// </content>
    /// <example><code>
    /// SocketOption&lt;int&gt; newOption = SocketOptions.CustomInt32(120, "NewOption");
    /// socket.SetOption(newOption, 5);
    /// </code></example>
    public static partial class SocketOptions
    {
        /// <summary>A key for a 32-bit integer option this catalogue does not list.</summary>
        /// <param name="id">libzmq's option number.</param>
        /// <param name="name">A name for messages and exceptions.</param>
        /// <param name="access">Whether it can be read, written, or both.</param>
        /// <returns>The key.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="name"/> is null.</exception>
        public static SocketOption<int> CustomInt32(int id, string name, OptionAccess access = OptionAccess.ReadWrite) =>
            new SocketOption<int>(id, name, access, fixedLength: 0);

        /// <summary>A key for a 64-bit integer option this catalogue does not list.</summary>
        /// <inheritdoc cref="CustomInt32(int, string, OptionAccess)" path="/*[not(self::summary)]"/>
        public static SocketOption<long> CustomInt64(int id, string name, OptionAccess access = OptionAccess.ReadWrite) =>
            new SocketOption<long>(id, name, access, fixedLength: 0);

        /// <summary>A key for an unsigned 64-bit integer option this catalogue does not list.</summary>
        /// <inheritdoc cref="CustomInt32(int, string, OptionAccess)" path="/*[not(self::summary)]"/>
        public static SocketOption<ulong> CustomUInt64(int id, string name, OptionAccess access = OptionAccess.ReadWrite) =>
            new SocketOption<ulong>(id, name, access, fixedLength: 0);

        /// <summary>A key for a boolean option (a 32-bit integer, 0 or 1, in libzmq) this catalogue does not list.</summary>
        /// <inheritdoc cref="CustomInt32(int, string, OptionAccess)" path="/*[not(self::summary)]"/>
        public static SocketOption<bool> CustomBoolean(int id, string name, OptionAccess access = OptionAccess.ReadWrite) =>
            new SocketOption<bool>(id, name, access, fixedLength: 0);

        /// <summary>A key for a time option (a 32-bit count of milliseconds in libzmq, -1 for infinite) this catalogue does not
        /// list.</summary>
        /// <inheritdoc cref="CustomInt32(int, string, OptionAccess)" path="/*[not(self::summary)]"/>
        public static SocketOption<TimeSpan> CustomTimeSpan(int id, string name, OptionAccess access = OptionAccess.ReadWrite) =>
            new SocketOption<TimeSpan>(id, name, access, fixedLength: 0);

        /// <summary>A key for a text option (UTF-8 in libzmq) this catalogue does not list.</summary>
        /// <inheritdoc cref="CustomInt32(int, string, OptionAccess)" path="/*[not(self::summary)]"/>
        public static SocketOption<string> CustomString(int id, string name, OptionAccess access = OptionAccess.ReadWrite) =>
            new SocketOption<string>(id, name, access, fixedLength: 0);

        /// <summary>A key for a binary option this catalogue does not list.</summary>
        /// <inheritdoc cref="CustomInt32(int, string, OptionAccess)" path="/*[not(self::summary)]"/>
        public static SocketOption<byte[]> CustomBytes(int id, string name, OptionAccess access = OptionAccess.ReadWrite) =>
            new SocketOption<byte[]>(id, name, access, fixedLength: 0);
    }
}
