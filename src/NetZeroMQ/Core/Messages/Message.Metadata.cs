using System;
using System.Text;

namespace NetZeroMQ
{
    public sealed unsafe partial class Message
    {
        /// <summary>
        /// A metadata property of the connection the message arrived on (<c>zmq_msg_gets</c>): "Socket-Type", "Identity",
        /// "Peer-Address", "User-Id", or an application property "X-..." the peer set with ZMQ_METADATA. Messages that were
        /// never received, and messages received over inproc, carry no metadata.
        /// See <see href="http://api.zeromq.org/4-3:zmq-msg-gets">zmq_msg_gets</see>.
        /// </summary>
        /// <param name="name">The property name (case-sensitive as libzmq stores it).</param>
        /// <returns>The value, or null if the message does not carry that property.</returns>
        /// <exception cref="ArgumentException"><paramref name="name"/> is null, empty or contains a NUL.</exception>
        /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
        public string? GetMetadata(string name)
        {
            Utf8.ThrowIfInvalidName(name, nameof(name));
            int length = Encoding.UTF8.GetByteCount(name);
            if (length > Utf8.StackLimit)
            {
                return null; // libzmq's property names are short; no property this long can exist.
            }

            byte* property = stackalloc byte[length + 1];
            Utf8.WriteNullTerminated(name, property, length + 1);
            void* msg = Enter();
            try
            {
                return Utf8.FromNullTerminated(Interop.Zmq.zmq_msg_gets(msg, property));
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>The peer's address: an IP address for tcp, <c>localhost:uid:gid:pid</c> for ipc; null for inproc.</summary>
        public string? PeerAddress => GetMetadata("Peer-Address");

        /// <summary>The sending socket's type as libzmq names it ("DEALER", "REQ", ...); null for inproc.</summary>
        public string? PeerSocketType => GetMetadata("Socket-Type");

        /// <summary>The user id a ZAP authenticator assigned to the peer, or null.</summary>
        public string? UserId => GetMetadata("User-Id");

        /// <summary>
        /// The routing id the peer announced. libzmq documents the property as "Routing-Id" but 4.3 delivers it as
        /// "Identity", so both are tried, in that order.
        /// </summary>
        public string? PeerRoutingId => GetMetadata("Routing-Id") ?? GetMetadata("Identity");
    }
}
