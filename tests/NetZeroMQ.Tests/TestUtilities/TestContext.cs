using System;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>Factory helpers shared by the tests.</summary>
    public static class Zmq
    {
        /// <summary>A context whose sockets drop queued messages at close, so test teardown never waits on linger.</summary>
        public static Context NewContext() => new Context { DefaultLinger = TimeSpan.Zero };

        /// <summary>A socket with both timeouts set to <see cref="TestTimeouts.Expected"/>: no blocking call in a test can hang.</summary>
        public static Socket NewSocket(Context context, SocketType type)
        {
            var socket = new Socket(context, type);
            socket.ReceiveTimeout = TestTimeouts.Expected;
            socket.SendTimeout = TestTimeouts.Expected;
            return socket;
        }
    }
}
