#if NET
using System;

namespace NetZeroMQ
{
    /// <summary>
    /// What the <see cref="Reactor"/> calls back, on its own thread, for a registered descriptor (a socket's async side, or any
    /// other machinery that waits on a descriptor: a draft poller's, for instance). Both calls must not throw and must not
    /// block: nothing on the reactor thread could catch it, and every other registration waits meanwhile.
    /// </summary>
    internal interface IReactorClient
    {
        /// <summary>The descriptor was readable after <see cref="Reactor.Arm"/>; the registration is disarmed again.</summary>
        void OnReadable();

        /// <summary>
        /// The reactor has stopped (<paramref name="error"/> says why): whatever this client waits for will not be woken, so it
        /// ends now with that error.
        /// </summary>
        void OnReactorFailed(Exception error);
    }
}
#endif
