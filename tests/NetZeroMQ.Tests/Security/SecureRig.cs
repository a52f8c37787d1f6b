using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Security
{
    /// <summary>
    /// A REP server and a REQ client in one context, the server monitored, for handshake tests: configure both sides, then
    /// <see cref="Start"/>, then read the outcome with <see cref="WaitForOutcome"/> and the traffic with <see cref="RoundTrip"/>.
    /// </summary>
    internal sealed class SecureRig : IDisposable
    {
        private readonly List<MonitorEvent> _seen = new List<MonitorEvent>();

        internal SecureRig(Context? context = null)
        {
            OwnsContext = context is null;
            Context = context ?? Zmq.NewContext();
            Server = Zmq.NewSocket(Context, SocketType.Rep);
            Client = Zmq.NewSocket(Context, SocketType.Req);
        }

        internal Context Context { get; }

        internal Socket Server { get; }

        internal Socket Client { get; }

        internal SocketMonitor? Monitor { get; private set; }

        internal string Endpoint { get; private set; } = string.Empty;

        internal ConcurrentQueue<ZapDecisionEventArgs> Decisions { get; } = new ConcurrentQueue<ZapDecisionEventArgs>();

        private bool OwnsContext { get; }

        /// <summary>Records every answer of <paramref name="authenticator"/> in <see cref="Decisions"/>.</summary>
        internal void Watch(ZapAuthenticator authenticator) => authenticator.Decided += (_, e) => Decisions.Enqueue(e);

        /// <summary>
        /// Monitors the server, binds it on <paramref name="transport"/> and connects the client. Where the loaded libzmq never
        /// sends some handshake events (a 4.2 release build never reports a success), the monitor's refusal is asserted and
        /// the server monitors the rest (<see cref="LoadedLibzmq.MonitorOrAssertRefused"/>).
        /// </summary>
        internal void Start(string transport = "tcp")
        {
            Monitor = LoadedLibzmq.MonitorOrAssertRefused(Server, MonitorEvents.HandshakeSucceeded | MonitorEvents.HandshakeFailed);
            Endpoint = Transports.BindAnywhere(Server, transport);
            Client.Connect(Endpoint);
        }

        /// <summary>
        /// The handshake succeeded: the server's monitor reports it where the loaded libzmq sends
        /// <see cref="MonitorEvents.HandshakeSucceeded"/>; elsewhere no failure was reported and a request and its reply cross
        /// (the handshake must have succeeded for them to), bounded either way.
        /// </summary>
        internal void AssertSucceeded()
        {
            if (LoadedLibzmq.Sends(MonitorEvents.HandshakeSucceeded))
            {
                Assert.Equal(MonitorEvents.HandshakeSucceeded, WaitForOutcome().Kind);
                return;
            }

            // The sockets' timeouts are TestTimeouts.Expected (Zmq.NewSocket): a failed handshake fails this round trip in time.
            Assert.Equal("re: handshake", RoundTrip("handshake").Reply);
            MonitorEvent? failure = null;
            Assert.False(Monitor?.TryRecv(out failure) == true, "a handshake failure was reported: " + failure);
        }

        /// <summary>
        /// Where libzmq cannot enforce a ZAP domain (4.1, whose fail-closed setters NetZeroMQ refuses): sets the server up with
        /// the raw options a 4.1 user has, PLAIN (when <paramref name="plain"/>) and the ZAP domain, which libzmq 4.1 sends to
        /// the context's authenticator while one runs; then binds and connects, without a monitor (4.1 reports no handshake
        /// outcome: read it from the traffic and from the authenticator's decisions).
        /// </summary>
        internal void StartWithRawOptions(bool plain, string domain = "global", string transport = "tcp")
        {
            if (plain)
            {
                Server.SetOption(SocketOptions.PlainServer, true);
            }

            Server.SetOption(SocketOptions.ZapDomain, domain);
            Endpoint = Transports.BindAnywhere(Server, transport);
            Client.Connect(Endpoint);
        }

        /// <summary>
        /// The watched authenticator (<see cref="Watch"/>) answered the first request with <paramref name="zapStatus"/>, and
        /// nothing reached the server: a denial seen without handshake events.
        /// </summary>
        internal void AssertDeniedWithoutMonitor(int zapStatus)
        {
            Assert.True(Eventually.True(() => !Decisions.IsEmpty, TestTimeouts.Expected), "the authenticator was never asked");
            Assert.True(Decisions.TryPeek(out ZapDecisionEventArgs? decision));
            Assert.Equal(zapStatus, decision.Decision.StatusCode);
            AssertServerReceivesNothing();
        }

        /// <summary>The server's first handshake outcome: success or one of the three failures (bounded). Where the loaded
        /// libzmq never sends a success, only a failure can come (use <see cref="AssertSucceeded"/> for a success).</summary>
        internal MonitorEvent WaitForOutcome()
        {
            Assert.True(Monitor is not null, "the loaded libzmq " + LoadedLibzmq.Version + " sends no handshake event");
            var clock = Stopwatch.StartNew();
            while (true)
            {
                TimeSpan left = TestTimeouts.Expected - clock.Elapsed;
                if (left <= TimeSpan.Zero || !Monitor!.TryRecv(left, out MonitorEvent? next))
                {
                    throw new TimeoutException("No handshake outcome; saw: " + string.Join(", ", _seen));
                }

                _seen.Add(next);
                return next;
            }
        }

        /// <summary>Client sends <paramref name="text"/>; server receives it (returned with its metadata) and answers; client reads the answer.</summary>
        internal (string Request, string? UserId, string Reply) RoundTrip(string text)
        {
            Client.Send(text);
            using var message = new Message();
            Server.Recv(message);
            string request = message.GetString();
            string? userId = message.UserId;
            Server.Send("re: " + request);
            return (request, userId, Client.RecvString());
        }

        /// <summary>The handshake failed with the authenticator's <paramref name="zapStatus"/>, and nothing reached the server.</summary>
        internal void AssertDeniedByAuthenticator(int zapStatus)
        {
            MonitorEvent outcome = WaitForOutcome();
            Assert.Equal(MonitorEvents.HandshakeFailedAuth, outcome.Kind);
            Assert.Equal(zapStatus, outcome.ZapStatusCode);
            AssertServerReceivesNothing();
        }

        /// <summary>Asserts that the server receives nothing within <see cref="TestTimeouts.Absent"/>.</summary>
        internal void AssertServerReceivesNothing()
        {
            Client.TrySend("should not arrive");
            Server.ReceiveTimeout = TestTimeouts.Absent;
            Assert.False(Server.TryRecvString(out string? _) || ReceivedWithin(Server), "A rejected client's message reached the server.");
        }

        public void Dispose()
        {
            Monitor?.Dispose();
            Client.Dispose();
            Server.Dispose();
            if (OwnsContext)
            {
                Context.Dispose();
            }
        }

        private static bool ReceivedWithin(Socket socket)
        {
            try
            {
                socket.RecvString();
                return true;
            }
            catch (ZmqException e) when (e.IsTimeout)
            {
                return false;
            }
        }
    }
}
