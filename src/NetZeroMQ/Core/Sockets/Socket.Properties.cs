using System;

namespace NetZeroMQ
{
    public sealed partial class Socket
    {
        /// <summary>How long queued messages may delay the context's termination after this socket is closed
        /// (<see cref="SocketOptions.Linger"/>). Starts at the context's <see cref="Context.DefaultLinger"/>.</summary>
        public TimeSpan Linger
        {
            get => GetOption(SocketOptions.Linger);
            set => SetOption(SocketOptions.Linger, value);
        }

        /// <summary>Outbound high-water mark in messages, 0 for none (<see cref="SocketOptions.SendHighWatermark"/>, default 1000).</summary>
        public int SendHighWatermark
        {
            get => GetOption(SocketOptions.SendHighWatermark);
            set => SetOption(SocketOptions.SendHighWatermark, value);
        }

        /// <summary>Inbound high-water mark in messages, 0 for none (<see cref="SocketOptions.ReceiveHighWatermark"/>, default 1000).</summary>
        public int ReceiveHighWatermark
        {
            get => GetOption(SocketOptions.ReceiveHighWatermark);
            set => SetOption(SocketOptions.ReceiveHighWatermark, value);
        }

        /// <summary>How long a blocking send may wait; <see cref="System.Threading.Timeout.InfiniteTimeSpan"/> (the default) waits
        /// until it can send, <see cref="TimeSpan.Zero"/> never waits (<see cref="SocketOptions.SendTimeout"/>).</summary>
        public TimeSpan SendTimeout
        {
            get => GetOption(SocketOptions.SendTimeout);
            set => SetOption(SocketOptions.SendTimeout, value);
        }

        /// <summary>How long a blocking receive may wait; <see cref="System.Threading.Timeout.InfiniteTimeSpan"/> (the default) waits
        /// until a message arrives, <see cref="TimeSpan.Zero"/> never waits (<see cref="SocketOptions.ReceiveTimeout"/>).</summary>
        public TimeSpan ReceiveTimeout
        {
            get => GetOption(SocketOptions.ReceiveTimeout);
            set => SetOption(SocketOptions.ReceiveTimeout, value);
        }

        /// <summary>The socket's routing id, 1-255 bytes not starting with a zero byte (<see cref="SocketOptions.RoutingId"/>);
        /// set it before connecting.</summary>
        public byte[] RoutingId
        {
            get => GetOption(SocketOptions.RoutingId);
            set => SetOption(SocketOptions.RoutingId, value);
        }

        /// <summary>Largest inbound message accepted in bytes, -1 for no limit; a peer that sends more is disconnected
        /// (<see cref="SocketOptions.MaxMessageSize"/>). The protection to set on every public endpoint.</summary>
        /// <remarks>Security default: no limit. Only the offending connection is dropped; other peers keep working. With CURVE,
        /// libzmq 4.3 compares the limit with the encrypted frame, 33 bytes longer than the payload (measured).</remarks>
        public long MaxMessageSize
        {
            get => GetOption(SocketOptions.MaxMessageSize);
            set => SetOption(SocketOptions.MaxMessageSize, value);
        }

        /// <summary>The endpoint last bound or connected, with wildcards resolved: after <c>Bind("tcp://127.0.0.1:*")</c> it
        /// holds the port that was chosen (<see cref="SocketOptions.LastEndpoint"/>).</summary>
        public string LastEndpoint => GetOption(SocketOptions.LastEndpoint);

        /// <summary>Whether more frames of the message being received follow (<see cref="SocketOptions.HasMore"/>). After
        /// receiving into a <see cref="Message"/>, <see cref="Message.HasMore"/> says the same without asking the socket.</summary>
        public bool HasMore => GetOption(SocketOptions.HasMore);

        /// <summary>Whether a message can be received or sent now without blocking (<see cref="SocketOptions.Events"/>).</summary>
        public PollEvents Events => (PollEvents)GetOption(SocketOptions.Events);
    }
}
