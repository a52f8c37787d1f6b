namespace NetZeroMQ
{
    /// <summary>
    /// The rule a failed call broke, in words, for the errors libzmq reports by code alone: a REQ that sends twice gets EFSM,
    /// a receive on a PUB gets ENOTSUP, a Subscribe on a PUB gets EINVAL. The code stays the exception's; the rule is added to
    /// its message, naming the socket type, so that a new user reads what to do instead of "Operation cannot be accomplished
    /// in current state".
    /// </summary>
    internal static class SocketMisuse
    {
        // libzmq's socket type numbers (zmq.h), stable and draft.
        private const int Pub = 1, Sub = 2, Req = 3, Rep = 4, Router = 6, Pull = 7, Push = 8, XPub = 9, XSub = 10, Stream = 11;
        private const int Radio = 14, Dish = 15, Gather = 16, Scatter = 17;

        /// <summary>The rule a send or receive that failed with <paramref name="error"/> broke, or null when it is not misuse.</summary>
        /// <param name="type">The socket's type number.</param>
        /// <param name="error">The portable code of the failure.</param>
        /// <param name="isSend">Whether the call was a send.</param>
        internal static string? OfTransfer(int type, ZmqError error, bool isSend)
        {
            string name = Upper(type);
            if (error == ZmqError.InvalidState)
            {
                return (type, isSend) switch
                {
                    (Req, true) => "a REQ socket must receive the reply before it sends again",
                    (Req, false) => "a REQ socket must send a request before it receives",
                    (Rep, true) => "a REP socket must receive a request before it sends a reply",
                    (Rep, false) => "a REP socket must send the reply before it receives again",
                    _ => "the " + name + " socket's message pattern does not allow this " + (isSend ? "send" : "receive") + " now",
                };
            }

            if (error != ZmqError.NotSupported)
            {
                return null;
            }

            if (isSend)
            {
                return type switch
                {
                    Sub => "a SUB socket cannot send, it only receives (subscribe with Subscribe, or use XSUB to send subscriptions as messages)",
                    Pull or Gather or Dish => "a " + name + " socket cannot send, it only receives",
                    _ => "a " + name + " socket cannot send",
                };
            }

            return type switch
            {
                Pub => "a PUB socket cannot receive, it only sends (use XPUB to receive its subscribers' subscriptions)",
                Push or Scatter or Radio => "a " + name + " socket cannot receive, it only sends",
                _ => "a " + name + " socket cannot receive",
            };
        }

        /// <summary>
        /// The rule a socket option set that libzmq refused with EINVAL broke when the option belongs to other socket types
        /// (libzmq answers those with EINVAL, as it does a bad value), or null when the option applies to this type.
        /// </summary>
        /// <param name="type">The socket's type number.</param>
        /// <param name="option">libzmq's option number.</param>
        /// <param name="name">The option's name.</param>
        internal static string? OfOption(int type, int option, string name)
        {
            int[]? types = option switch
            {
                6 or 7 => new[] { Sub, XSub }, // SUBSCRIBE, UNSUBSCRIBE
                33 or 56 or 97 => new[] { Router }, // ROUTER_MANDATORY, ROUTER_HANDOVER, ROUTER_NOTIFY
                51 => new[] { Router, 5, Req }, // PROBE_ROUTER: ROUTER, DEALER, REQ
                52 or 53 => new[] { Req }, // REQ_CORRELATE, REQ_RELAXED
                40 or 69 or 71 or 72 or 78 or 98 => new[] { XPub }, // the XPUB_* options
                61 => new[] { Router, Stream }, // CONNECT_ROUTING_ID
                73 => new[] { Stream }, // STREAM_NOTIFY
                74 => new[] { Pub, Sub, XPub, XSub }, // INVERT_MATCHING
                _ => null,
            };
            if (types is null || System.Array.IndexOf(types, type) >= 0)
            {
                return null;
            }

            string list = Upper(types[0]);
            for (int i = 1; i < types.Length; i++)
            {
                list += (i == types.Length - 1 ? " and " : ", ") + Upper(types[i]);
            }

            return name + " is for " + list + " sockets; this is a " + Upper(type) + " socket";
        }

        private static string Upper(int type) => SocketTypeNames.Of(type).ToUpperInvariant();
    }
}
