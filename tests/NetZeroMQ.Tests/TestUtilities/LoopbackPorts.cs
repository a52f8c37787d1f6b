using System;
using System.Globalization;
using System.IO;
using System.Net;
using System.Net.Sockets;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// Loopback tcp ports below the system's ephemeral range, where the system hands out none by itself. Once such a port is
    /// free, neither another test's wildcard bind (<c>tcp://127.0.0.1:*</c>, run in parallel) nor the source port of any
    /// connect can take it: "nothing listens there" stays true, and a connect to it never reaches itself (a loopback connect
    /// whose source port happens to equal its destination port connects to itself). A port taken from the ephemeral range
    /// and closed again has neither guarantee: a probe once found such a freed port answering in CI.
    /// </summary>
    public static class LoopbackPorts
    {
        private const int Attempts = 100;

        /// <summary>The first ephemeral port: Linux's ip_local_port_range, else the IANA range's 49152.</summary>
        private static readonly int s_ephemeralStart = ReadEphemeralStart();

        /// <summary>A port nothing listens on (checked by listening on it once), below the ephemeral range.</summary>
        public static int Unused() => FirstFree(port =>
        {
            var listener = new TcpListener(IPAddress.Loopback, port);
            try
            {
                listener.Start();
                listener.Stop();
                return true;
            }
            catch (SocketException e) when (e.SocketErrorCode == SocketError.AddressAlreadyInUse)
            {
                return false;
            }
        });

        /// <summary>Binds <paramref name="socket"/> to a free port below the ephemeral range; returns the endpoint.</summary>
        public static string Bind(NetZeroMQ.Socket socket)
        {
            int port = FirstFree(port =>
            {
                try
                {
                    socket.Bind(Endpoint(port));
                    return true;
                }
                catch (ZmqException e) when (e.Error == ZmqError.AddressInUse)
                {
                    return false;
                }
            });
            return Endpoint(port);
        }

        private static string Endpoint(int port) => "tcp://127.0.0.1:" + port.ToString(CultureInfo.InvariantCulture);

        /// <summary>The first of up to <see cref="Attempts"/> random ports below the ephemeral range that <paramref name="take"/> takes.</summary>
        private static int FirstFree(Func<int, bool> take)
        {
            int low = Math.Min(20000, s_ephemeralStart / 2);
            for (int attempt = 0; attempt < Attempts; attempt++)
            {
                int port = Random.Shared.Next(low, s_ephemeralStart);
                if (take(port))
                {
                    return port;
                }
            }

            throw new InvalidOperationException($"no free loopback port in [{low}, {s_ephemeralStart}) in {Attempts} attempts");
        }

        private static int ReadEphemeralStart()
        {
            const string RangeFile = "/proc/sys/net/ipv4/ip_local_port_range";
            return File.Exists(RangeFile)
                ? int.Parse(File.ReadAllText(RangeFile).Split(new[] { ' ', '\t' }, StringSplitOptions.RemoveEmptyEntries)[0], CultureInfo.InvariantCulture)
                : 49152;
        }
    }
}
