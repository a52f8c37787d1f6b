using System;

namespace NetZeroMQ
{
    /// <summary>
    /// The one internal way into a message for code outside the core: a claim on the message's usage guard for a <c>using</c>
    /// scope, during which its <c>zmq_msg_t</c> cannot be released and no other thread can use it. Anything read or copied
    /// from the message's memory must be read or copied before <see cref="Dispose"/>.
    /// </summary>
    internal readonly unsafe struct MessageLease : IDisposable
    {
        private readonly Message? _message;

        internal MessageLease(Message message) => _message = message;

        /// <summary>The <c>zmq_msg_t</c>, valid until <see cref="Dispose"/>.</summary>
        internal void* Native => _message!.UnguardedPointer;

        /// <summary>Ends the claim (releasing the message if a Dispose arrived meanwhile).</summary>
        public void Dispose() => _message?.Exit();
    }
}
