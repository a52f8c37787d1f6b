using System;
using System.Globalization;
using System.IO;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// The kernel's own record of listening IPv4 tcp sockets (Linux: <c>/proc/net/tcp</c>), which names each by its inode. A
    /// test that asks whether one particular listener is closed asks by that inode: a connect probe to its port cannot tell
    /// that listener from any other that took the same port since (a parallel test, another process on the machine).
    /// </summary>
    public static class TcpListeners
    {
        private const string Table = "/proc/net/tcp";

        /// <summary>Whether the kernel's table can be read here (Linux).</summary>
        public static bool Available => File.Exists(Table);

        /// <summary>The inode of the socket listening on 127.0.0.1:<paramref name="port"/>, or null when none is.</summary>
        public static ulong? OnLoopbackPort(int port)
        {
            string local = "0100007F:" + port.ToString("X4", CultureInfo.InvariantCulture);
            foreach (string[] row in Listening())
            {
                if (row[1] == local)
                {
                    return ulong.Parse(row[9], CultureInfo.InvariantCulture);
                }
            }

            return null;
        }

        /// <summary>Whether the listening socket of this inode is still open.</summary>
        public static bool IsOpen(ulong inode)
        {
            string wanted = inode.ToString(CultureInfo.InvariantCulture);
            foreach (string[] row in Listening())
            {
                if (row[9] == wanted)
                {
                    return true;
                }
            }

            return false;
        }

        /// <summary>The table's rows in state LISTEN (0A), split into fields: [1] local address, [3] state, [9] inode.</summary>
        private static System.Collections.Generic.IEnumerable<string[]> Listening()
        {
            foreach (string line in File.ReadAllLines(Table))
            {
                string[] row = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
                if (row.Length > 9 && row[3] == "0A")
                {
                    yield return row;
                }
            }
        }
    }
}
