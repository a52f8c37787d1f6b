#if NET
using System;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    /// <summary>
    /// Which <see cref="Reactor"/> the process uses: epoll on Linux, the portable <c>zmq_poll</c> reactor everywhere else; on
    /// Linux the portable one is chosen with the AppContext switch <c>NetZeroMQ.UsePortableReactor</c> (runtimeconfig.json,
    /// <c>&lt;RuntimeHostConfigurationOption&gt;</c>, or <c>AppContext.SetSwitch</c> before the first async call), the one
    /// switch for this choice. Read once, when the reactor starts.
    /// </summary>
    internal static class ReactorChoice
    {
        /// <summary>The AppContext switch (runtimeconfig.json, or <c>AppContext.SetSwitch</c> before the first async call).</summary>
        internal const string Switch = "NetZeroMQ.UsePortableReactor";

        private static readonly bool s_epollAvailable = RuntimeInformation.IsOSPlatform(OSPlatform.Linux);

        /// <summary>Whether the portable reactor is the one to start.</summary>
        internal static bool Portable() =>
            !s_epollAvailable || (AppContext.TryGetSwitch(Switch, out bool portable) && portable);
    }
}
#endif
