using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using NetZeroMQ.Draft;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Draft
{
    public class DraftApiTests
    {
        [Theory]
        [InlineData("zmq_poller_new")]
        [InlineData("zmq_join")]
        [InlineData("zmq_leave")]
        [InlineData("zmq_msg_set_routing_id")]
        [InlineData("zmq_msg_routing_id")]
        [InlineData("zmq_msg_set_group")]
        [InlineData("zmq_socket_monitor_versioned")]
        [InlineData("zmq_msg_group")]
        [InlineData("zmq_connect_peer")]
        public void Probe_EachDraftFunction_MatchesExportTableOfLoadedLibrary(string function)
        {
            bool exported = ExportedByLoadedLibzmq(function);
            bool probed = function switch
            {
                "zmq_poller_new" => DraftApi.HasPoller,
                "zmq_join" or "zmq_leave" => DraftApi.HasGroups,
                "zmq_msg_set_routing_id" or "zmq_msg_routing_id" => DraftApi.HasRoutingId,
                "zmq_msg_set_group" or "zmq_msg_group" => DraftApi.HasMessageGroup,
                "zmq_connect_peer" => DraftApi.HasConnectPeer,
                _ => DraftApi.HasVersionedMonitor,
            };

            Assert.True(DraftApi.CanProbe);
            Assert.Equal(exported, probed);
        }

        [Fact]
        public void IsAvailable_Always_AgreesWithZmqHasDraft()
        {
            Assert.Equal(Libzmq.Has("draft"), DraftApi.IsAvailable);
        }

        [Fact]
        public void Create_EveryDraftType_ThrowsNotSupportedUnlessDraftApiExported()
        {
            using Context context = Zmq.NewContext();
            foreach (DraftSocketType type in Enum.GetValues(typeof(DraftSocketType)))
            {
                if (DraftApi.IsAvailable)
                {
                    using Socket socket = DraftSockets.Create(context, type);
                    Assert.Equal((int)type, (int)socket.Type);
                }
                else
                {
                    var error = Assert.Throws<NotSupportedException>(() => DraftSockets.Create(context, type));
                    Assert.Contains("draft API", error.Message);
                }
            }

            Assert.Throws<ArgumentOutOfRangeException>(() => DraftSockets.Create(context, (DraftSocketType)11));
            Assert.Throws<ArgumentOutOfRangeException>(() => new Socket(context, (SocketType)13));
        }

        [Fact]
        public void DraftFunctions_MissingExports_ThrowNotSupported()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Sub);
            using var message = new Message();
            if (!DraftApi.HasGroups)
            {
                Assert.Throws<NotSupportedException>(() => socket.Join("group"));
                Assert.Throws<NotSupportedException>(() => socket.Leave("group"));
            }
            else
            {
                Assert.Throws<ZmqException>(() => socket.Join("group")); // not a DISH socket
            }

            if (!DraftApi.HasRoutingId)
            {
                Assert.Throws<NotSupportedException>(() => message.RoutingId = 7);
                Assert.Throws<NotSupportedException>(() => message.RoutingId);
            }
            else
            {
                message.RoutingId = 7;
                Assert.Equal(7u, message.RoutingId);
            }

            if (!DraftApi.HasMessageGroup)
            {
                Assert.Throws<NotSupportedException>(() => message.Group = "g");
            }
        }

        /// <summary>Reads the dynamic symbol table of the libzmq this process mapped, with binutils' nm (independent of the probe).</summary>
        private static bool ExportedByLoadedLibzmq(string function)
        {
            Libzmq.EnsureUsable();
            string path = File.ReadAllLines("/proc/self/maps")
                .Select(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries).LastOrDefault() ?? "")
                .First(file => Path.GetFileName(file).StartsWith("libzmq.so", StringComparison.Ordinal));
            var start = new ProcessStartInfo("nm", "-D --defined-only \"" + path + "\"") { RedirectStandardOutput = true, UseShellExecute = false };
            using Process nm = Process.Start(start)!;
            string symbols = nm.StandardOutput.ReadToEnd();
            Assert.True(nm.WaitForExit((int)TestTimeouts.Expected.TotalMilliseconds));
            Assert.Equal(0, nm.ExitCode);
            Assert.Contains(" zmq_socket_monitor\n", symbols); // the stable neighbour is there: the listing is real
            return symbols.Split('\n').Any(line => line.EndsWith(" " + function, StringComparison.Ordinal));
        }
    }
}
