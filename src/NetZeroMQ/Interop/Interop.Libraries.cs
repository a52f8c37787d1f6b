namespace NetZeroMQ
{
    internal static partial class Interop
    {
        /// <summary>Library names used in the import declarations; <see cref="LibzmqResolver"/> maps them to real files.</summary>
        /// <remarks>
        /// Every import and function pointer of both libraries declares cdecl (<c>CallingConvention.Cdecl</c>,
        /// <c>[UnmanagedCallConv]</c>, <c>delegate* unmanaged[Cdecl]</c>), as does every callback libzmq calls: libzmq and the
        /// C library export cdecl functions, while an undeclared convention means stdcall on 32-bit Windows, where each call
        /// would then leave the stack unbalanced. On the 64-bit platforms there is one convention and the declaration changes
        /// nothing. <c>tests/NetZeroMQ.Tests/Architecture/CallingConventionTests.cs</c> reads both builds' metadata and fails
        /// on any import or unmanaged function pointer without it.
        /// </remarks>
        internal static class Libraries
        {
            /// <summary>libzmq. The name is a key for the resolver, not a file name: see <see cref="LibzmqResolver"/>.</summary>
            internal const string Zmq = "libzmq";

            /// <summary>The C library, used only for the wake-up descriptor of blocking receives (eventfd/pipe).</summary>
            internal const string Libc = "libc";
        }
    }
}
