namespace NetZeroMQ
{
    /// <summary>
    /// The twelve stable libzmq socket types. See <see href="http://api.zeromq.org/4-3:zmq-socket">zmq_socket</see>.
    /// </summary>
    public enum SocketType
    {
        /// <summary>Exclusive pair, meant for inproc between two threads.</summary>
        Pair = 0,

        /// <summary>Publisher: send-only, fans out to subscribers, drops at the high-water mark.</summary>
        Pub = 1,

        /// <summary>Subscriber: receive-only, filtered by prefix subscriptions (<see cref="Socket.Subscribe(string)"/>).</summary>
        Sub = 2,

        /// <summary>Request: strictly send, then receive.</summary>
        Req = 3,

        /// <summary>Reply: strictly receive, then send.</summary>
        Rep = 4,

        /// <summary>Asynchronous request/reply peer; load-balances sends, fair-queues receives.</summary>
        Dealer = 5,

        /// <summary>Addresses peers by routing id: receives [routing id][frames...], sends to the routing id in the first frame.</summary>
        Router = 6,

        /// <summary>Pipeline sink: receive-only, fair-queued.</summary>
        Pull = 7,

        /// <summary>Pipeline source: send-only, load-balanced, blocks at the high-water mark.</summary>
        Push = 8,

        /// <summary>Publisher that also receives subscription messages (<c>\x01topic</c> / <c>\x00topic</c>).</summary>
        XPub = 9,

        /// <summary>Subscriber that sends subscriptions as messages.</summary>
        XSub = 10,

        /// <summary>Raw TCP: receives and sends [routing id][data].</summary>
        Stream = 11,
    }
}
