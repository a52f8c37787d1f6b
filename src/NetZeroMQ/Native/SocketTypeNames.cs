namespace NetZeroMQ
{
    /// <summary>
    /// libzmq's socket type numbers as the lower-case names its documentation uses (<c>ZMQ_PUSH</c> is "push"), for metric
    /// attributes and events, where the layers below the core have only the number. Draft types included.
    /// </summary>
    internal static class SocketTypeNames
    {
        private static readonly string[] s_names =
        {
            "pair", "pub", "sub", "req", "rep", "dealer", "router", "pull", "push", "xpub", "xsub", "stream",
            "server", "client", "radio", "dish", "gather", "scatter", "dgram", "peer", "channel",
        };

        /// <summary>The name of socket type <paramref name="type"/>; "unknown" outside libzmq 4.3's numbers.</summary>
        internal static string Of(int type) => (uint)type < (uint)s_names.Length ? s_names[type] : "unknown";
    }
}
