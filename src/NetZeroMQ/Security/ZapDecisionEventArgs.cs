using System;

namespace NetZeroMQ
{
    /// <summary>What <see cref="ZapAuthenticator.Decided"/> reports: the request (null when it was malformed) and the answer sent.</summary>
    public sealed class ZapDecisionEventArgs : EventArgs
    {
        internal ZapDecisionEventArgs(ZapRequest? request, ZapDecision decision)
        {
            Request = request;
            Decision = decision;
        }

        /// <summary>The request, or null when it was malformed. Its password is cleared once the handlers return.</summary>
        public ZapRequest? Request { get; }

        /// <summary>The answer sent to libzmq.</summary>
        public ZapDecision Decision { get; }

        /// <summary>The request (without password) and the decision.</summary>
        /// <returns>The text.</returns>
        public override string ToString() => (Request?.ToString() ?? "malformed request") + " -> " + Decision;
    }
}
