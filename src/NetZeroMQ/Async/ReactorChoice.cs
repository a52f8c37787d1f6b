#if NET
using System;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    /// <summary>
    /// Which <see cref="Reactor"/> the process uses: epoll on Linux, the portable <c>zmq_poll</c> reactor everywhere else; on
    /// Linux the portable one is chosen with the environment variable <c>NETZEROMQ_REACTOR=poll</c> or the AppContext switch
    /// <c>NetZeroMQ.UsePortableReactor</c> (which wins when both are set). Read once, when the reactor starts.
    /// </summary>
    internal static class ReactorChoice
    {
        /// <summary>The environment variable: <c>poll</c> (the portable reactor) or <c>epoll</c> (the default on Linux).</summary>
        internal const string EnvironmentVariable = "NETZEROMQ_REACTOR";

        /// <summary>The AppContext switch (runtimeconfig.json, or <c>AppContext.SetSwitch</c> before the first async call).</summary>
        internal const string Switch = "NetZeroMQ.UsePortableReactor";

        private static readonly bool s_epollAvailable = RuntimeInformation.IsOSPlatform(OSPlatform.Linux);

        /// <summary>Whether the portable reactor is the one to start.</summary>
        /// <exception cref="InvalidOperationException">The environment variable names no reactor.</exception>
        internal static bool Portable()
        {
            if (!s_epollAvailable)
            {
                return true; // "epoll" asked for where there is none: the portable reactor is the only one there is.
            }

            if (AppContext.TryGetSwitch(Switch, out bool portable))
            {
                return portable;
            }

            string? value = Environment.GetEnvironmentVariable(EnvironmentVariable);
            return value switch
            {
                null or "" or "epoll" => false,
                "poll" => true,

                // A typo would otherwise run the other reactor silently, and a test run "against both" would test one twice.
                _ => throw new InvalidOperationException(
                    EnvironmentVariable + " is '" + value + "'; the async reactors are 'poll' (portable, zmq_poll) and 'epoll' (Linux, the default there)."),
            };
        }
    }
}
#endif
