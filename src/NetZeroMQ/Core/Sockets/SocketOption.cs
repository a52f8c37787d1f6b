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
    /// <see cref="SocketOptions"/>; its <c>Custom*</c> factories (<see cref="SocketOptions.CustomInt32"/> and the others) make keys
    /// for options this binding does not list (for example draft options of a newer libzmq), and libzmq then decides whether it
    /// knows them.
    /// </summary>
    /// <typeparam name="T">
    /// The value type, one of those the <c>SocketOptions.Custom*</c> factories make keys for: <see cref="int"/>, <see cref="long"/>,
    /// <see cref="ulong"/>, <see cref="bool"/>, <see cref="System.TimeSpan"/> (milliseconds,
    /// <see cref="System.Threading.Timeout.InfiniteTimeSpan"/> for -1), <see cref="string"/> (UTF-8) or <c>byte[]</c>.
    /// <see cref="Socket.GetOption(SocketOption{int})"/> and <see cref="Socket.SetOption(SocketOption{int}, int)"/> have one
    /// overload per value type, and only the library creates keys, so a key of any other type can neither be made nor used.
    /// </typeparam>
    /// <remarks>The key is a type of its own, apart from the catalogue <see cref="SocketOptions"/>, because it is generic and a
    /// static catalogue is not (see there). A class rather than a struct so that no key exists without a number and a name (a struct always has its
    /// <c>default</c>).</remarks>
    public sealed class SocketOption<T> : IEquatable<SocketOption<T>>
    {
        /// <summary>Creates a key. Internal: the value types are fixed by the factories of <see cref="SocketOptions"/>.</summary>
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
}
