using System;

namespace NetZeroMQ.Draft
{
    /// <summary>
    /// The draft functions of libzmq, called through addresses found by <see cref="DraftApi"/> (never bound statically). Each
    /// throws <see cref="NotSupportedException"/> when the loaded libzmq does not export it.
    /// See <see href="http://api.zeromq.org/master:zmq-join">zmq_join</see>,
    /// <see href="http://api.zeromq.org/master:zmq-msg-set-routing-id">zmq_msg_set_routing_id</see>,
    /// <see href="http://api.zeromq.org/master:zmq-msg-set-group">zmq_msg_set_group</see>.
    /// </summary>
    /// <remarks>Each call is a use of its socket or message and follows their threading rules.</remarks>
    public static unsafe class DraftExtensions
    {
        /// <summary>Joins a group on a DISH socket (<c>zmq_join</c>).</summary>
        /// <param name="socket">A DISH socket.</param>
        /// <param name="group">The group name, 1-255 UTF-8 bytes.</param>
        /// <exception cref="NotSupportedException">The loaded libzmq lacks <c>zmq_join</c>.</exception>
        /// <exception cref="ZmqException">libzmq refused (not a DISH socket, already joined).</exception>
        public static void Join(this Socket socket, string group) => CallGroup(socket, group, leave: false);

        /// <summary>Leaves a group on a DISH socket (<c>zmq_leave</c>).</summary>
        /// <param name="socket">A DISH socket.</param>
        /// <param name="group">The group name.</param>
        /// <exception cref="NotSupportedException">The loaded libzmq lacks <c>zmq_leave</c>.</exception>
        /// <exception cref="ZmqException">libzmq refused (not joined).</exception>
        public static void Leave(this Socket socket, string group) => CallGroup(socket, group, leave: true);

        /// <summary>Sets the routing id a SERVER or PEER socket sends this message to (<c>zmq_msg_set_routing_id</c>).</summary>
        /// <param name="message">The message.</param>
        /// <param name="routingId">The peer's routing id, not 0.</param>
        /// <exception cref="NotSupportedException">The loaded libzmq lacks it.</exception>
        public static void SetRoutingId(this Message message, uint routingId)
        {
            CheckMessage(message, DraftApi.HasRoutingId, "zmq_msg_set_routing_id");
#if NET
            using MessageLease lease = message.Lease();
            if (Interop.ZmqDraft.zmq_msg_set_routing_id(lease.Native, routingId) != 0)
            {
                ZmqThrow.LastError("zmq_msg_set_routing_id");
            }
#endif
        }

        /// <summary>The routing id of the peer a SERVER or PEER socket received this message from (<c>zmq_msg_routing_id</c>), 0 if none.</summary>
        /// <param name="message">The message.</param>
        /// <returns>The routing id.</returns>
        /// <exception cref="NotSupportedException">The loaded libzmq lacks it.</exception>
        public static uint GetRoutingId(this Message message)
        {
            CheckMessage(message, DraftApi.HasRoutingId, "zmq_msg_routing_id");
#if NET
            using MessageLease lease = message.Lease();
            return Interop.ZmqDraft.zmq_msg_routing_id(lease.Native);
#else
            return 0;
#endif
        }

        /// <summary>Sets the group a RADIO socket publishes this message to (<c>zmq_msg_set_group</c>).</summary>
        /// <param name="message">The message.</param>
        /// <param name="group">The group name, 1-255 UTF-8 bytes.</param>
        /// <exception cref="NotSupportedException">The loaded libzmq lacks it.</exception>
        public static void SetGroup(this Message message, string group)
        {
            CheckMessage(message, DraftApi.HasMessageGroup, "zmq_msg_set_group");
            Utf8.ThrowIfInvalidName(group, nameof(group));
#if NET
            using var text = new Utf8.CString(group, stackalloc byte[Utf8.StackLimit]);
            using MessageLease lease = message.Lease();
            fixed (byte* p = text)
            {
                if (Interop.ZmqDraft.zmq_msg_set_group(lease.Native, p) != 0)
                {
                    ZmqThrow.LastError("zmq_msg_set_group");
                }
            }
#endif
        }

        private static void CheckMessage(Message message, bool available, string name)
        {
            if (message is null)
            {
                throw new ArgumentNullException(nameof(message));
            }

            if (message.IsDisposed)
            {
                throw new ObjectDisposedException(message.GetType().FullName);
            }

            if (!available)
            {
                DraftApi.ThrowUnavailable(name);
            }
        }

        private static void CallGroup(Socket socket, string group, bool leave)
        {
            string name = leave ? "zmq_leave" : "zmq_join";
            if (socket is null)
            {
                throw new ArgumentNullException(nameof(socket));
            }

            if (socket.IsDisposed)
            {
                throw new ObjectDisposedException(socket.GetType().FullName);
            }

            Utf8.ThrowIfInvalidName(group, nameof(group));
            if (!DraftApi.HasGroups)
            {
                DraftApi.ThrowUnavailable(name);
            }
#if NET
            using var text = new Utf8.CString(group, stackalloc byte[Utf8.StackLimit]);
            using SocketLease lease = socket.Lease();
            fixed (byte* p = text)
            {
                if ((leave ? Interop.ZmqDraft.zmq_leave(lease.Native, p) : Interop.ZmqDraft.zmq_join(lease.Native, p)) != 0)
                {
                    ZmqThrow.LastError(name);
                }
            }
#endif
        }
    }
}
