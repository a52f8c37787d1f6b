using System;
using System.Collections.Generic;
using NetZeroMQ.Tests.Monitoring;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Security
{
    /// <summary><see cref="Socket.MaxMessageSize"/> as the size guard of a public endpoint: an oversized sender is cut off,
    /// everyone else keeps working.</summary>
    public class MaxMessageSizeTests
    {
        /// <summary>With CURVE, libzmq compares the limit with the encrypted MESSAGE command, 33 bytes longer than the payload
        /// (8 command name + 8 nonce + 16 MAC + 1 flags; measured on 4.3.4): a 1024 limit admits 991-byte payloads.</summary>
        [Theory]
        [InlineData(false, 1024)]
        [InlineData(true, 1024 - 33)]
        public void MaxMessageSize_OversizedSender_DisconnectedWhileOtherClientKeepsWorking(bool curve, int largestPayload)
        {
            // Without CURVE in the loaded libzmq, the CURVE case asserts its refusal; the NULL case runs.
            if (curve && !LoadedLibzmq.HasCurveOrAssertRefused())
            {
                return;
            }

            using CurveKeyPair? serverKeys = curve ? CurveKeyPair.Generate() : null;
            using CurveKeyPair? clientKeys = curve ? CurveKeyPair.Generate() : null;
            using Context context = Zmq.NewContext();
            using var authenticator = new ZapAuthenticator(context);
            using Socket server = Zmq.NewSocket(context, SocketType.Pull);
            server.MaxMessageSize = 1024;
            if (curve)
            {
                authenticator.AllowCurveKey(clientKeys!.PublicKey);
                server.SetCurveServer(serverKeys!);
            }

            // Each client's connection is awaited by its handshake's success; a libzmq 4.2 release build never reports one (its
            // refusal asserted here), so there by the connection's accept, and the honest client's messages arriving below
            // prove its handshake.
            MonitorEvents connected = MonitorEvents.HandshakeSucceeded;
            if (!LoadedLibzmq.Sends(connected))
            {
                LoadedLibzmq.AssertMonitorRefused(connected, () => server.Monitor(connected | MonitorEvents.Disconnected));
                connected = MonitorEvents.Accepted;
            }

            using SocketMonitor monitor = server.Monitor(connected | MonitorEvents.Disconnected);
            string endpoint = Transports.BindAnywhere(server, "tcp");
            using Socket attacker = Zmq.NewSocket(context, SocketType.Push);
            using Socket honest = Zmq.NewSocket(context, SocketType.Push);
            foreach (Socket client in new[] { attacker, honest })
            {
                if (curve)
                {
                    client.SetCurveClient(clientKeys!, serverKeys!.PublicKey);
                }

                client.Connect(endpoint);
            }

            var seen = new List<MonitorEvent>();
            monitor.WaitFor(connected, seen);
            monitor.WaitFor(connected, seen);

            attacker.Send(new byte[4096]);
            monitor.WaitFor(MonitorEvents.Disconnected, seen);
            honest.Send("small");
            honest.Send(new byte[largestPayload]); // exactly at the limit is allowed

            Assert.Equal("small", server.RecvString());
            Assert.Equal(largestPayload, server.RecvBytes().Length);
            server.ReceiveTimeout = TestTimeouts.Absent;
            Assert.Equal(ZmqError.TryAgain, Assert.Throws<ZmqException>(() => server.RecvBytes()).Error);
            while (monitor.TryRecv(TestTimeouts.Absent, out MonitorEvent? later))
            {
                seen.Add(later);
            }

            Assert.Single(seen, e => e.Kind == MonitorEvents.Disconnected); // only the oversized sender was cut off
            Assert.Equal(1024, server.MaxMessageSize);
        }
    }
}
