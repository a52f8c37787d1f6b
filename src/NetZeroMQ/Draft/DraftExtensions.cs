using System;
using System.Text;

namespace NetZeroMQ.Draft
{
    /// <summary>
    /// The draft functions of libzmq on sockets and messages, called through addresses found by <see cref="DraftApi"/> (never
    /// bound statically). Each throws <see cref="NotSupportedException"/> when the loaded libzmq does not export it.
    /// See <see href="http://api.zeromq.org/master:zmq-join">zmq_join</see>,
    /// <see href="http://api.zeromq.org/master:zmq-msg-set-routing-id">zmq_msg_set_routing_id</see>,
    /// <see href="http://api.zeromq.org/master:zmq-msg-set-group">zmq_msg_set_group</see>.
    /// </summary>
    /// <remarks>Each call is a use of its socket or message and follows their threading rules (a message is used by one
    /// thread at a time; the draft sockets by any number).</remarks>
    public static unsafe class DraftExtensions
    {
        /// <summary>The longest group name libzmq accepts, in UTF-8 bytes (<c>ZMQ_GROUP_MAX_LENGTH</c>).</summary>
        public const int MaxGroupLength = 255;

        /// <summary>The draft members of <see cref="Message"/> as properties (C# 14 and later); compilers before C# 14 see
        /// the same as the extension methods <see cref="GetRoutingId"/>, <see cref="SetRoutingId"/>, <see cref="GetGroup"/>
        /// and <see cref="SetGroup"/>.</summary>
        /// <param name="message">The message.</param>
        extension(Message message)
        {
            /// <summary>
            /// The routing id of a message (<c>zmq_msg_routing_id</c> / <c>zmq_msg_set_routing_id</c>): on a message a SERVER or
            /// PEER socket received, the peer it came from; set it before sending on a SERVER or PEER to choose the peer. 0 means
            /// none, and cannot be set.
            /// </summary>
            /// <exception cref="ArgumentOutOfRangeException">Set to 0.</exception>
            /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
            /// <exception cref="NotSupportedException">The loaded libzmq lacks the draft API.</exception>
            public uint RoutingId
            {
                get => GetRoutingId(message);
                set => SetRoutingId(message, value);
            }

            /// <summary>
            /// The group of a message (<c>zmq_msg_group</c> / <c>zmq_msg_set_group</c>): on a message a DISH received, the
            /// group it was published to; set it before sending on a RADIO. "" when none. 1 to <see cref="MaxGroupLength"/>
            /// UTF-8 bytes, no NUL.
            /// </summary>
            /// <exception cref="ArgumentNullException">Set to null.</exception>
            /// <exception cref="ArgumentException">Set to "", a name with a NUL, or one longer than <see cref="MaxGroupLength"/> bytes.</exception>
            /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
            /// <exception cref="NotSupportedException">The loaded libzmq lacks the draft API.</exception>
            public string Group
            {
                get => GetGroup(message);
                set => SetGroup(message, value);
            }
        }

        /// <summary>Joins a group on a DISH socket (<c>zmq_join</c>): it receives what RADIO peers publish to it.</summary>
        /// <param name="socket">A DISH socket.</param>
        /// <param name="group">The group name, 1 to <see cref="MaxGroupLength"/> UTF-8 bytes, no NUL.</param>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> or <paramref name="group"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="group"/> is empty, contains NUL or is too long.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq lacks <c>zmq_join</c>.</exception>
        /// <exception cref="ZmqException">libzmq refused: <see cref="ZmqError.NotSupported"/> on a socket that is not DISH,
        /// <see cref="ZmqError.InvalidArgument"/> when already joined.</exception>
        public static void Join(this Socket socket, string group) => CallGroup(socket, group, leave: false);

        /// <summary>Leaves a group on a DISH socket (<c>zmq_leave</c>).</summary>
        /// <param name="socket">A DISH socket.</param>
        /// <param name="group">The group name.</param>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> or <paramref name="group"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="group"/> is empty, contains NUL or is too long.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq lacks <c>zmq_leave</c>.</exception>
        /// <exception cref="ZmqException">libzmq refused: <see cref="ZmqError.NotSupported"/> on a socket that is not DISH,
        /// <see cref="ZmqError.InvalidArgument"/> when not joined.</exception>
        public static void Leave(this Socket socket, string group) => CallGroup(socket, group, leave: true);

        /// <summary>
        /// Connects a PEER socket (<c>zmq_connect_peer</c>) and returns the routing id to send to that peer with
        /// (a message's <c>RoutingId</c>). The endpoint is checked as <see cref="Socket.Connect(string)"/> checks it.
        /// </summary>
        /// <param name="socket">A PEER socket (<see cref="DraftSocketType.Peer"/>).</param>
        /// <param name="endpoint">The endpoint to connect to.</param>
        /// <returns>The new peer's routing id (never 0).</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> or <paramref name="endpoint"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="endpoint"/> is empty or malformed.</exception>
        /// <exception cref="InvalidOperationException"><paramref name="socket"/> is not a PEER socket.</exception>
        /// <exception cref="ObjectDisposedException">The socket was disposed.</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq lacks <c>zmq_connect_peer</c>.</exception>
        /// <exception cref="ZmqException">libzmq refused, with the endpoint in the exception (<see cref="ZmqError.Fault"/> when
        /// <see cref="SocketOptions.Immediate"/> is on: a peer's routing id needs its pipe at once).</exception>
        public static uint ConnectPeer(this Socket socket, string endpoint)
        {
            CheckSocket(socket);
            EndpointSyntax.ThrowIfMalformed(endpoint, EndpointUse.Connect);
            if ((int)socket.Type != (int)DraftSocketType.Peer)
            {
                throw new InvalidOperationException("ConnectPeer needs a PEER socket; this one is " + DraftSockets.NameOf(socket.Type) + ".");
            }

            if (!DraftApi.HasConnectPeer)
            {
                DraftApi.ThrowUnavailable("zmq_connect_peer");
            }
#if NET
            if (!endpoint.StartsWith("inproc://", StringComparison.Ordinal))
            {
                DescriptorHeadroom.ThrowIfLow("connect", endpoint);
            }

            using var text = new Utf8.CString(endpoint, stackalloc byte[Utf8.StackLimit]);
            using SocketLease lease = socket.Lease();
            fixed (byte* p = text)
            {
                uint routingId = Interop.ZmqDraft.zmq_connect_peer(lease.Native, p);
                if (routingId == 0)
                {
                    ZmqThrow.LastError("connect_peer", endpoint);
                }

                return routingId;
            }
#else
            return 0;
#endif
        }

        /// <summary>The routing id of a message (<c>zmq_msg_routing_id</c>), 0 if none: the form of the <c>RoutingId</c>
        /// property for compilers before C# 14.</summary>
        /// <param name="message">The message.</param>
        /// <returns>The routing id.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
        /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq lacks the draft API.</exception>
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

        /// <summary>Sets the routing id a SERVER or PEER socket sends a message to (<c>zmq_msg_set_routing_id</c>): the form
        /// of the <c>RoutingId</c> property for compilers before C# 14.</summary>
        /// <param name="message">The message.</param>
        /// <param name="routingId">The peer's routing id, not 0.</param>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="routingId"/> is 0.</exception>
        /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq lacks the draft API.</exception>
        public static void SetRoutingId(this Message message, uint routingId)
        {
            if (routingId == 0)
            {
                // libzmq refuses 0 (EINVAL): it is the "no routing id" value.
                throw new ArgumentOutOfRangeException(nameof(routingId), routingId, "A routing id is never 0.");
            }

            CheckMessage(message, DraftApi.HasRoutingId, "zmq_msg_set_routing_id");
#if NET
            using MessageLease lease = message.Lease();
            if (Interop.ZmqDraft.zmq_msg_set_routing_id(lease.Native, routingId) != 0)
            {
                ZmqThrow.LastError("zmq_msg_set_routing_id");
            }
#endif
        }

        /// <summary>The group of a message (<c>zmq_msg_group</c>), "" when none: the form of the <c>Group</c> property
        /// for compilers before C# 14.</summary>
        /// <param name="message">The message.</param>
        /// <returns>The group name.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
        /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq lacks the draft API.</exception>
        public static string GetGroup(this Message message)
        {
            CheckMessage(message, DraftApi.HasMessageGroup, "zmq_msg_group");
#if NET
            using MessageLease lease = message.Lease();
            byte* group = Interop.ZmqDraft.zmq_msg_group(lease.Native);

            // A DISH reads the same few groups again and again: a known one (s_groups) is handed out again rather than decoded
            // into a new string per message.
            int length = 0;
            while (group[length] != 0)
            {
                length++;
            }

            if (length == 0)
            {
                return "";
            }

            int slot = GroupSlot(group[0], group[length - 1], length);
            if (s_groups[slot] is { } known && known.Matches(group))
            {
                return known.Name;
            }

            string name = Utf8.FromNullTerminated(group)!;

            // Kept only when the name encodes back to the very bytes (not so for invalid UTF-8): a kept group is one SetGroup
            // sends without checking it again.
            var encoded = new EncodedGroup(name);
            if (encoded.Matches(group))
            {
                s_groups[slot] = encoded;
            }

            return name;
#else
            return "";
#endif
        }

        /// <summary>Sets the group a RADIO socket publishes a message to (<c>zmq_msg_set_group</c>): the form of the
        /// <c>Group</c> property for compilers before C# 14.</summary>
        /// <param name="message">The message.</param>
        /// <param name="group">The group name, 1 to <see cref="MaxGroupLength"/> UTF-8 bytes, no NUL.</param>
        /// <exception cref="ArgumentNullException"><paramref name="message"/> or <paramref name="group"/> is null.</exception>
        /// <exception cref="ArgumentException"><paramref name="group"/> is empty, contains NUL or is too long.</exception>
        /// <exception cref="ObjectDisposedException">The message was disposed.</exception>
        /// <exception cref="NotSupportedException">The loaded libzmq lacks the draft API.</exception>
        public static void SetGroup(this Message message, string group)
        {
#if NET
            // A RADIO sets a group on every message it sends, mostly the same few: the groups set or read lately are kept
            // checked and encoded (s_groups), so a message sent to one of them again costs a comparison, the message's guard
            // and one native call. A kept group was valid and the export present when it was kept, so only the message is
            // checked then.
            EncodedGroup? encoded = group is { Length: > 0 } ? s_groups[GroupSlot(group[0], group[group.Length - 1], group.Length)] : null;
            if (encoded is null || encoded.Name != group)
            {
                ThrowIfInvalidGroup(group, nameof(group));
                CheckMessage(message, DraftApi.HasMessageGroup, "zmq_msg_set_group");
                encoded = new EncodedGroup(group);
                s_groups[GroupSlot(group[0], group[group.Length - 1], group.Length)] = encoded;
            }
            else
            {
                CheckMessage(message, available: true, "zmq_msg_set_group");
            }

            // No try/finally around the lease, as in the core's first attempts: nothing between the claim and its end can throw
            // (a pinned array that is there, a native call without a GC transition). libzmq's errno is read before the lease
            // ends, which could close the message (a Dispose meanwhile).
            MessageLease lease = message.Lease();
            int rc;
            fixed (byte* p = encoded.Bytes)
            {
                rc = Interop.ZmqDraft.zmq_msg_set_group(lease.Native, p);
            }

            int errno = rc != 0 ? Interop.Zmq.zmq_errno() : 0;
            lease.Dispose();
            if (rc != 0)
            {
                ZmqThrow.Error(errno, "zmq_msg_set_group");
            }
#else
            ThrowIfInvalidGroup(group, nameof(group));
            CheckMessage(message, DraftApi.HasMessageGroup, "zmq_msg_set_group");
#endif
        }

#if NET
        /// <summary>The groups set on messages or read from them lately, checked and NUL-terminated (see <see cref="SetGroup"/>),
        /// in <see cref="GroupSlots"/> slots: a group's slot holds the last group of that slot that was used. Each entry is
        /// replaced whole, never changed, so any thread may read the slots without a lock.</summary>
        private static readonly EncodedGroup?[] s_groups = new EncodedGroup?[GroupSlots];

        /// <summary>How many groups <see cref="s_groups"/> keeps at most (a power of two).</summary>
        private const int GroupSlots = 8;

        /// <summary>The slot of a group from its first and last character and its length; the same for its UTF-8 bytes when
        /// those are ASCII (a group of other characters may miss in <see cref="GetGroup"/> and is then decoded).</summary>
        private static int GroupSlot(int first, int last, int length) => (first ^ (last << 1) ^ length) & (GroupSlots - 1);

        /// <summary>A valid group name and its NUL-terminated UTF-8 bytes.</summary>
        private sealed class EncodedGroup
        {
            internal EncodedGroup(string name)
            {
                Name = name;
                int length = Encoding.UTF8.GetByteCount(name);
                Bytes = new byte[length + 1];
                Encoding.UTF8.GetBytes(name, 0, name.Length, Bytes, 0);
            }

            /// <summary>The group.</summary>
            internal string Name { get; }

            /// <summary>Its UTF-8 bytes and a NUL, what <c>zmq_msg_set_group</c> takes.</summary>
            internal byte[] Bytes { get; }

            /// <summary>Whether the NUL-terminated <paramref name="text"/> holds exactly these bytes.</summary>
            internal bool Matches(byte* text)
            {
                byte[] bytes = Bytes;
                for (int i = 0; i < bytes.Length; i++)
                {
                    if (text[i] != bytes[i])
                    {
                        return false; // also where text ends early: its NUL meets a byte of the name
                    }
                }

                return true;
            }
        }
#endif

        /// <summary>libzmq's group rules (RADIO, DISH and the message's group), checked before any native call.</summary>
        private static void ThrowIfInvalidGroup(string group, string paramName)
        {
            Utf8.ThrowIfInvalidName(group, paramName);
            int length = Encoding.UTF8.GetByteCount(group);
            if (length > MaxGroupLength)
            {
                throw new ArgumentException(
                    "A group name is at most " + MaxGroupLength + " UTF-8 bytes (ZMQ_GROUP_MAX_LENGTH); this one is " + length + ".",
                    paramName);
            }
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

        private static void CheckSocket(Socket socket)
        {
            if (socket is null)
            {
                throw new ArgumentNullException(nameof(socket));
            }

            if (socket.IsDisposed)
            {
                throw new ObjectDisposedException(socket.GetType().FullName);
            }
        }

        private static void CallGroup(Socket socket, string group, bool leave)
        {
            string name = leave ? "zmq_leave" : "zmq_join";
            CheckSocket(socket);
            ThrowIfInvalidGroup(group, nameof(group));
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
                    ZmqThrow.LastError(name, option: group);
                }
            }
#endif
        }
    }
}
