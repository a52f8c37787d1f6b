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
    /// <see cref="SocketOptions"/>; create your own for options this binding does not list (for example draft options of a
    /// newer libzmq): libzmq then decides whether it knows them.
    /// </summary>
    /// <typeparam name="T">
    /// The value type: <see cref="int"/>, <see cref="long"/>, <see cref="ulong"/>, <see cref="bool"/>, <see cref="TimeSpan"/>
    /// (milliseconds, <see cref="System.Threading.Timeout.InfiniteTimeSpan"/> for -1), <see cref="string"/> (UTF-8) or
    /// <c>byte[]</c>.
    /// </typeparam>
    public readonly struct SocketOption<T> : IEquatable<SocketOption<T>>
    {
        /// <summary>Creates an option key.</summary>
        /// <param name="id">libzmq's option number.</param>
        /// <param name="name">A name for messages and exceptions.</param>
        /// <param name="access">Whether it can be read, written, or both.</param>
        public SocketOption(int id, string name, OptionAccess access = OptionAccess.ReadWrite)
            : this(id, name, access, fixedLength: 0)
        {
        }

        internal SocketOption(int id, string name, OptionAccess access, int fixedLength)
        {
            if (typeof(T) != typeof(int) && typeof(T) != typeof(long) && typeof(T) != typeof(ulong) && typeof(T) != typeof(bool)
                && typeof(T) != typeof(TimeSpan) && typeof(T) != typeof(string) && typeof(T) != typeof(byte[]))
            {
                throw new NotSupportedException("Socket options hold int, long, ulong, bool, TimeSpan, string or byte[], not " + typeof(T).Name + ".");
            }

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
        public bool Equals(SocketOption<T> other) => Id == other.Id;

        /// <inheritdoc/>
        public override bool Equals(object? obj) => obj is SocketOption<T> other && Equals(other);

        /// <inheritdoc/>
        public override int GetHashCode() => Id;

        /// <inheritdoc/>
        public override string ToString() => Name + " (" + Id + ", " + typeof(T).Name + ", " + Access + ")";
    }
}
