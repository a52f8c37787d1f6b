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
    }
}
