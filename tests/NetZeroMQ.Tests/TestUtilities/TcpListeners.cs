using System;
using System.Globalization;
using System.IO;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// The kernel's own record of listening IPv4 tcp sockets (Linux: <c>/proc/net/tcp</c>), which names each by its inode, and
    /// this process's descriptors (<c>/proc/self/fd</c>), which name the socket each refers to by the same inode. A test that
    /// asks whether this process closed one particular listener asks whether any of its descriptors still refers to that
    /// inode. Neither of the easier questions answers it: a connect probe to the port cannot tell that listener from any other
    /// that took the port since (a parallel test, another process), and the kernel's table lists the socket as listening for
    /// as long as any process holds it, which a child that a parallel test starts does between its fork and its exec (a
    /// copy of every descriptor, close-on-exec or not: 27 of 400 closes looked open with a thread starting processes beside).
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

        /// <summary>Whether a descriptor of this process still refers to the socket of this inode.</summary>
        public static bool HeldByThisProcess(ulong inode)
        {
            string wanted = "socket:[" + inode.ToString(CultureInfo.InvariantCulture) + "]";
            foreach (string descriptor in Directory.GetFiles("/proc/self/fd"))
            {
                string? target;
                try
                {
                    target = new FileInfo(descriptor).LinkTarget;
                }
                catch (IOException)
                {
                    // Closed between the listing and the read (another thread's descriptor).
                    continue;
                }

                if (target == wanted)
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
