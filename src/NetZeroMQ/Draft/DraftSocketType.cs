namespace NetZeroMQ.Draft
{
    /// <summary>
    /// libzmq's draft socket types (numbers 12-20), compiled only into libzmq builds with the draft API
    /// (<c>ZMQ_BUILD_DRAFT_API</c>). Create them with <see cref="DraftSockets.Create"/>, which checks <see cref="DraftApi"/> first.
    /// See <see href="http://api.zeromq.org/master:zmq-socket">zmq_socket (draft)</see>.
    /// </summary>
    /// <remarks>Distribution builds (Debian's libzmq5 4.3.4, for one) create these sockets but export none of the draft
    /// functions they depend on (routing ids, groups, <c>zmq_poller</c>), so they cannot be used there; NetZeroMQ refuses them.</remarks>
    public enum DraftSocketType
    {
        /// <summary>Thread-safe server: replies to a client by the message's routing id.</summary>
        Server = 12,

        /// <summary>Thread-safe client of a <see cref="Server"/>.</summary>
        Client = 13,

        /// <summary>Thread-safe publisher to groups (<c>zmq_msg_set_group</c>).</summary>
        Radio = 14,

        /// <summary>Thread-safe subscriber to groups (<c>zmq_join</c> / <c>zmq_leave</c>).</summary>
        Dish = 15,

        /// <summary>Thread-safe fan-in (a PULL for single-frame messages).</summary>
        Gather = 16,

        /// <summary>Thread-safe fan-out (a PUSH for single-frame messages).</summary>
        Scatter = 17,

        /// <summary>UDP datagrams: [address][payload].</summary>
        Dgram = 18,

        /// <summary>Thread-safe peer addressed by routing id (libzmq 4.3.3+).</summary>
        Peer = 19,

        /// <summary>Thread-safe exclusive pair (libzmq 4.3.3+).</summary>
        Channel = 20,
    }
}
