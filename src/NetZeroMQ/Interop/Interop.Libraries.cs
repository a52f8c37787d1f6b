namespace NetZeroMQ
{
    internal static partial class Interop
    {
        /// <summary>Library names used in the import declarations; <see cref="LibzmqResolver"/> maps them to real files.</summary>
        internal static class Libraries
        {
            /// <summary>libzmq. The name is a key for the resolver, not a file name: see <see cref="LibzmqResolver"/>.</summary>
            internal const string Zmq = "libzmq";

            /// <summary>The C library, used only for the wake-up descriptor of blocking receives (eventfd/pipe).</summary>
            internal const string Libc = "libc";
        }
    }
}
