using System;

namespace NetZeroMQ
{
    /// <summary>Whether an option can be read, written, or both.</summary>
    [Flags]
    public enum OptionAccess
    {
        /// <summary>Readable with <c>GetOption</c>.</summary>
        Read = 1,

        /// <summary>Writable with <c>SetOption</c>.</summary>
        Write = 2,

        /// <summary>Readable and writable.</summary>
        ReadWrite = Read | Write,
    }

    /// <summary>
    /// A typed socket option key: its libzmq number, its name and what can be done with it. The well-known keys are in
    /// <see cref="SocketOptions"/>; <see cref="SocketOption"/> makes keys for options this binding does not list (for example
    /// draft options of a newer libzmq), and libzmq then decides whether it knows them.
    /// </summary>
    /// <typeparam name="T">
    /// The value type, one of those <see cref="SocketOption"/> makes keys for: <see cref="int"/>, <see cref="long"/>,
    /// <see cref="ulong"/>, <see cref="bool"/>, <see cref="System.TimeSpan"/> (milliseconds,
    /// <see cref="System.Threading.Timeout.InfiniteTimeSpan"/> for -1), <see cref="string"/> (UTF-8) or <c>byte[]</c>.
    /// <see cref="Socket.GetOption(SocketOption{int})"/> and <see cref="Socket.SetOption(SocketOption{int}, int)"/> have one
    /// overload per value type, and only the library creates keys, so a key of any other type can neither be made nor used.
    /// </typeparam>
    /// <remarks>A class rather than a struct so that no key exists without a number and a name (a struct always has its
    /// <c>default</c>).</remarks>
    public sealed class SocketOption<T> : IEquatable<SocketOption<T>>
    {
        /// <summary>Creates a key. Internal: the value types are fixed by the factories of <see cref="SocketOption"/>.</summary>
        internal SocketOption(int id, string name, OptionAccess access, int fixedLength)
        {
            Id = id;
            Name = name ?? throw new ArgumentNullException(nameof(name));
            Access = access;
            FixedLength = fixedLength;
        }

        /// <summary>libzmq's option number.</summary>
        public int Id { get; }

        /// <summary>The option's name.</summary>
        public string Name { get; }

        /// <summary>Whether it can be read, written, or both.</summary>
        public OptionAccess Access { get; }

        /// <summary>For binary options of one exact size (CURVE keys: 32 bytes), that size; otherwise 0.</summary>
        internal int FixedLength { get; }

        /// <inheritdoc/>
        public bool Equals(SocketOption<T>? other) => other is not null && Id == other.Id;

        /// <inheritdoc/>
        public override bool Equals(object? obj) => obj is SocketOption<T> other && Equals(other);

        /// <inheritdoc/>
        public override int GetHashCode() => Id;

        /// <inheritdoc/>
        public override string ToString() => Name + " (" + Id + ", " + typeof(T).Name + ", " + Access + ")";
    }

    /// <summary>
    /// Makes keys for socket options that <see cref="SocketOptions"/> does not list, one factory per value type that libzmq's
    /// options have. The key's type then picks the matching <c>GetOption</c>/<c>SetOption</c> overload at compile time.
    /// </summary>
    /// <example><code>
    /// SocketOption&lt;int&gt; newOption = SocketOption.Int32(120, "NewOption");
    /// socket.SetOption(newOption, 5);
    /// </code></example>
    public static class SocketOption
    {
        /// <summary>A key for a 32-bit integer option.</summary>
        /// <param name="id">libzmq's option number.</param>
        /// <param name="name">A name for messages and exceptions.</param>
        /// <param name="access">Whether it can be read, written, or both.</param>
        /// <returns>The key.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="name"/> is null.</exception>
        public static SocketOption<int> Int32(int id, string name, OptionAccess access = OptionAccess.ReadWrite) =>
            new SocketOption<int>(id, name, access, fixedLength: 0);

        /// <summary>A key for a 64-bit integer option.</summary>
        /// <inheritdoc cref="Int32(int, string, OptionAccess)" path="/*[not(self::summary)]"/>
        public static SocketOption<long> Int64(int id, string name, OptionAccess access = OptionAccess.ReadWrite) =>
            new SocketOption<long>(id, name, access, fixedLength: 0);

        /// <summary>A key for an unsigned 64-bit integer option.</summary>
        /// <inheritdoc cref="Int32(int, string, OptionAccess)" path="/*[not(self::summary)]"/>
        public static SocketOption<ulong> UInt64(int id, string name, OptionAccess access = OptionAccess.ReadWrite) =>
            new SocketOption<ulong>(id, name, access, fixedLength: 0);

        /// <summary>A key for a boolean option (a 32-bit integer, 0 or 1, in libzmq).</summary>
        /// <inheritdoc cref="Int32(int, string, OptionAccess)" path="/*[not(self::summary)]"/>
        public static SocketOption<bool> Boolean(int id, string name, OptionAccess access = OptionAccess.ReadWrite) =>
            new SocketOption<bool>(id, name, access, fixedLength: 0);

        /// <summary>A key for a time option (a 32-bit count of milliseconds in libzmq, -1 for infinite).</summary>
        /// <inheritdoc cref="Int32(int, string, OptionAccess)" path="/*[not(self::summary)]"/>
        public static SocketOption<System.TimeSpan> TimeSpan(int id, string name, OptionAccess access = OptionAccess.ReadWrite) =>
            new SocketOption<System.TimeSpan>(id, name, access, fixedLength: 0);

        /// <summary>A key for a text option (UTF-8 in libzmq).</summary>
        /// <inheritdoc cref="Int32(int, string, OptionAccess)" path="/*[not(self::summary)]"/>
        public static SocketOption<string> String(int id, string name, OptionAccess access = OptionAccess.ReadWrite) =>
            new SocketOption<string>(id, name, access, fixedLength: 0);

        /// <summary>A key for a binary option.</summary>
        /// <inheritdoc cref="Int32(int, string, OptionAccess)" path="/*[not(self::summary)]"/>
        public static SocketOption<byte[]> Bytes(int id, string name, OptionAccess access = OptionAccess.ReadWrite) =>
            new SocketOption<byte[]>(id, name, access, fixedLength: 0);
    }
}
