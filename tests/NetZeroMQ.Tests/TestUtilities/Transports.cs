using System;
using System.Threading;
using Xunit;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>The three transports every pattern is tested over, with endpoints that can never collide.</summary>
    public static class Transports
    {
        private static int s_counter;

        /// <summary>Theory data: "inproc", "ipc", "tcp".</summary>
        public static TheoryData<string> All => new TheoryData<string> { "inproc", "ipc", "tcp" };

        /// <summary>An endpoint to bind: a unique inproc name, a wildcard ipc path, or tcp on loopback with a wildcard port.</summary>
        public static string BindEndpoint(string transport) => transport switch
        {
            "inproc" => "inproc://test-" + Environment.ProcessId + "-" + Interlocked.Increment(ref s_counter),
            "ipc" => "ipc://*",
            "tcp" => "tcp://127.0.0.1:*",
            _ => throw new ArgumentOutOfRangeException(nameof(transport), transport, "unknown transport"),
        };

        /// <summary>Binds <paramref name="socket"/> on a fresh endpoint and returns the endpoint peers connect to.</summary>
        public static string BindAnywhere(Socket socket, string transport)
        {
            string endpoint = BindEndpoint(transport);
            socket.Bind(endpoint);
            return transport == "inproc" ? endpoint : socket.LastEndpoint;
        }

        /// <summary>
        /// The directory libzmq (4.2 and later, where it has <c>mkdtemp</c>) made for the socket file at <paramref name="path"/>
        /// of an <c>ipc://*</c> bind (<c>$TMPDIR/tmpXXXXXX/socket</c>), which it removes as it closes the listener; null for any
        /// other path (libzmq 4.1 makes the file itself in the current directory).
        /// </summary>
        public static string? WildcardIpcDirectory(string path)
        {
            string? directory = System.IO.Path.GetDirectoryName(path);
            string name = System.IO.Path.GetFileName(directory ?? string.Empty);
            return System.IO.Path.GetFileName(path) == "socket" && name.Length == 9 && name.StartsWith("tmp", StringComparison.Ordinal)
                ? directory
                : null;
        }
    }
}
