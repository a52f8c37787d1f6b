using System;

namespace NetZeroMQ
{
    /// <summary>
    /// A typed context option key (<c>zmq_ctx_set</c> / <c>zmq_ctx_get</c>): its libzmq number, its name and what can be done
    /// with it, like a socket's <see cref="SocketOption{T}"/>. The keys are in <see cref="ContextOptions"/>.
    /// </summary>
    /// <typeparam name="T">The value type: <see cref="int"/> or <see cref="bool"/> (an integer, 0 or 1, in libzmq).
    /// <see cref="Context.GetOption(ContextOption{int})"/> and <see cref="Context.SetOption(ContextOption{int}, int)"/> have one
    /// overload per value type, and only the library creates keys, so a key of any other type can neither be made nor used.
    /// </typeparam>
    /// <remarks>A class rather than a struct so that no key exists without a number and a name (a struct always has its
    /// <c>default</c>).</remarks>
    public sealed class ContextOption<T> : IEquatable<ContextOption<T>>
    {
        /// <summary>Creates a key. Internal: the value types are fixed by <see cref="ContextOptions"/>.</summary>
        internal ContextOption(int id, string name, OptionAccess access)
        {
            Id = id;
            Name = name ?? throw new ArgumentNullException(nameof(name));
            Access = access;
        }

        /// <summary>libzmq's option number.</summary>
        public int Id { get; }

        /// <summary>The option's name.</summary>
        public string Name { get; }

        /// <summary>Whether it can be read, written, or both.</summary>
        public OptionAccess Access { get; }

        /// <inheritdoc/>
        public bool Equals(ContextOption<T>? other) => other is not null && Id == other.Id;

        /// <inheritdoc/>
        public override bool Equals(object? obj) => obj is ContextOption<T> other && Equals(other);

        /// <inheritdoc/>
        public override int GetHashCode() => Id;

        /// <inheritdoc/>
        public override string ToString() => Name + " (" + Id + ", " + typeof(T).Name + ", " + Access + ")";
    }
}
