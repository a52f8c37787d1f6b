using System;
using System.Collections.Generic;
using System.IO;
using NetZeroMQ.Tests.Monitoring;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// The decisions for what libzmq 4.2 does differently from 4.3 in monitors and ipc listeners: the handshake events a build
    /// never sends, and the socket file of a wildcard ipc listener left behind at close.
    /// </summary>
    public partial class LibzmqVersionsTests
    {
        public static TheoryData<MonitorEvents, string, bool, string> MonitorEventCases => new TheoryData<MonitorEvents, string, bool, string>
        {
            // events asked for, version, draft build, the events never sent ("" for none)
            { MonitorEvents.HandshakeSucceeded, "4.3.0", false, "" },
            { MonitorEvents.HandshakeSucceeded | MonitorEvents.HandshakeFailed, "4.3.5", false, "" },
            { MonitorEvents.HandshakeSucceeded, "4.2.5", false, "HandshakeSucceeded" },
            { MonitorEvents.HandshakeSucceeded | MonitorEvents.HandshakeFailed, "4.2.5", false, "HandshakeSucceeded" },
            { MonitorEvents.HandshakeSucceeded, "4.2.5", true, "" },
            { MonitorEvents.HandshakeFailed, "4.2.5", false, "" }, // the mechanisms and the ZAP client send them in every build
            { MonitorEvents.HandshakeFailed, "4.2.3", false, "" },
            { MonitorEvents.HandshakeSucceeded, "4.2.3", false, "HandshakeSucceeded" },
            { MonitorEvents.HandshakeFailed | MonitorEvents.HandshakeSucceeded, "4.2.2", false, "HandshakeFailedNoDetail, HandshakeSucceeded, HandshakeFailedProtocol, HandshakeFailedAuth" },
            { MonitorEvents.HandshakeSucceeded | MonitorEvents.HandshakeFailedNoDetail, "4.2.1", true, "" }, // the draft HANDSHAKE_SUCCEED and HANDSHAKE_FAILED
            { MonitorEvents.HandshakeFailed, "4.2.1", true, "HandshakeFailedProtocol, HandshakeFailedAuth" },
            { MonitorEvents.HandshakeSucceeded, "4.2.0", true, "HandshakeSucceeded" },
            { MonitorEvents.HandshakeFailedAuth | MonitorEvents.Connected, "4.1.8", false, "HandshakeFailedAuth" },
            { MonitorEvents.Connected | MonitorEvents.Disconnected | MonitorEvents.Closed, "4.1.0", false, "" },
            { MonitorEvents.All, "4.1.8", false, "" }, // every event the loaded libzmq sends
            { MonitorEvents.All, "4.2.5", false, "" },
            { MonitorEvents.AllV2, "4.2.5", false, "" },
        };

        [Theory]
        [MemberData(nameof(MonitorEventCases))]
        public void MonitorEventsRefusal_ByVersionAndBuild_RefusesExactlyTheEventsNeverSent(MonitorEvents events, string version, bool draft, string neverSent)
        {
            NotSupportedException? refusal = LibzmqVersions.MonitorEventsRefusal((int)events, Version.Parse(version), draft);

            Assert.Equal(neverSent.Length == 0, refusal is null);
            Assert.Equal(neverSent.Length == 0, LibzmqVersions.MonitorEventsNeverSent((int)events, Version.Parse(version), draft) == 0);
            if (refusal is not null)
            {
                Assert.StartsWith("Monitor events " + neverSent + " need libzmq 4.3.0 or later (or a 4.2.3 to 4.2.5 build with the draft API); " +
                    "the loaded libzmq is " + version + (draft ? " (built with the draft API)" : " (built without the draft API)"), refusal.Message);
                Assert.Contains("would wait for them forever", refusal.Message);
            }
        }

        [Fact]
        public void Monitor_HandshakeEventsOnTheLoadedVersion_RefusedWhereNeverSentAndAllNeverRefused()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Rep);
            foreach (MonitorEvents kind in new[] { MonitorEvents.HandshakeSucceeded, MonitorEvents.HandshakeFailedNoDetail, MonitorEvents.HandshakeFailedProtocol, MonitorEvents.HandshakeFailedAuth })
            {
                if (LoadedLibzmq.Sends(kind))
                {
                    using SocketMonitor monitor = socket.Monitor(kind | MonitorEvents.Listening);
                    Assert.Equal(kind | MonitorEvents.Listening, monitor.Events);
                }
                else
                {
                    LoadedLibzmq.AssertMonitorRefused(kind, () => socket.Monitor(kind | MonitorEvents.Listening));
                }
            }

            // 4.3 sends every handshake event from every build; a 4.2.3 to 4.2.5 release build all but the success.
            Assert.Equal(LoadedLibzmq.IsAtLeast(4, 3, 0) || (LoadedLibzmq.HasDraft && LoadedLibzmq.IsAtLeast(4, 2, 1)), LoadedLibzmq.Sends(MonitorEvents.HandshakeSucceeded));
            using SocketMonitor all = socket.Monitor(MonitorEvents.All);
            string endpoint = Transports.BindAnywhere(socket, "tcp");
            Assert.Equal(LoadedLibzmq.ListenerEventEndpoint(endpoint), all.WaitFor(MonitorEvents.Listening).Endpoint);
        }

        [Theory]
        [InlineData("4.1.8", false)]
        [InlineData("4.2.2", false)]
        [InlineData("4.2.3", true)]
        [InlineData("4.2.5", true)]
        [InlineData("4.3.1", true)]
        [InlineData("4.3.2", false)]
        [InlineData("4.3.5", false)]
        public void LeavesWildcardIpcFile_ByVersion_From423To431(string version, bool leaves)
        {
            Assert.Equal(leaves, LibzmqVersions.LeavesWildcardIpcFile(Version.Parse(version)));
        }

        [Fact]
        public void Unbind_WildcardIpc_ListenerClosesAndItsFileAndDirectoryAreGone()
        {
            // libzmq 4.2.3 to 4.3.1 left the file, so their removal of the directory failed (CloseFailed, ENOTEMPTY) and both
            // stayed; NetZeroMQ unlinks the file before the unbind there.
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Pull);
            using SocketMonitor monitor = socket.Monitor(MonitorEvents.Closed | MonitorEvents.CloseFailed);
            string endpoint = Transports.BindAnywhere(socket, "ipc");
            string path = endpoint.Substring("ipc://".Length);
            string? directory = Transports.WildcardIpcDirectory(path);
            Assert.True(File.Exists(path), path);

            socket.Unbind(endpoint);

            var seen = new List<MonitorEvent>();
            MonitorEvent closed = monitor.WaitFor(MonitorEvents.Closed, seen);
            Assert.Equal(endpoint, closed.Endpoint);
            Assert.DoesNotContain(seen, e => e.Kind == MonitorEvents.CloseFailed);
            Assert.False(File.Exists(path), path + " is still there after the listener closed");
            Assert.False(directory is not null && Directory.Exists(directory), directory + " is still there after the listener closed");
        }

        [Theory]
        [InlineData(false)]
        [InlineData(true)]
        public void ContextDispose_WildcardIpcListenerOpen_FileAndDirectoryGoneWhenDisposeReturns(bool disposeSocketFirst)
        {
            Context context = Zmq.NewContext();
            Socket socket = Zmq.NewSocket(context, SocketType.Pull);
            string path = Transports.BindAnywhere(socket, "ipc").Substring("ipc://".Length);
            string? directory = Transports.WildcardIpcDirectory(path);
            Assert.True(File.Exists(path), path);
            if (disposeSocketFirst)
            {
                socket.Dispose();
            }

            context.Dispose();

            Assert.False(File.Exists(path), path + " is still there after Context.Dispose");
            Assert.False(directory is not null && Directory.Exists(directory), directory + " is still there after Context.Dispose");
        }
    }
}
