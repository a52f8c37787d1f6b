using System;
using System.Collections.Generic;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// The decisions NetZeroMQ takes by libzmq version (docs/libzmq-versions.md), tested with version numbers so that they
    /// run on every machine, and the behaviour they lead to on the libzmq this run loaded.
    /// </summary>
    public partial class LibzmqVersionsTests
    {
        public static TheoryData<string, string, bool> OptionCases => new TheoryData<string, string, bool>
        {
            { nameof(SocketOptions.UseFd), "4.1.8", false },
            { nameof(SocketOptions.UseFd), "4.2.0", true },
            { nameof(SocketOptions.HeartbeatInterval), "4.1.8", false },
            { nameof(SocketOptions.HeartbeatInterval), "4.2.5", true },
            { nameof(SocketOptions.BindToDevice), "4.2.5", false }, // exists, but aborts the process on a device it cannot bind
            { nameof(SocketOptions.BindToDevice), "4.3.1", false },
            { nameof(SocketOptions.BindToDevice), "4.3.2", true },
            { nameof(SocketOptions.ZapEnforceDomain), "4.2.5", true },
            { nameof(SocketOptions.MulticastLoop), "4.2.5", false },
            { nameof(SocketOptions.MulticastLoop), "4.3.0", true },
            { nameof(SocketOptions.SocksUsername), "4.3.1", false },
            { nameof(SocketOptions.SocksUsername), "4.3.2", true },
            { nameof(SocketOptions.OnlyFirstSubscribe), "4.3.2", false },
            { nameof(SocketOptions.OnlyFirstSubscribe), "4.3.3", true },
            { nameof(SocketOptions.ReconnectStop), "4.3.2", false },
            { nameof(SocketOptions.ReconnectStop), "4.3.5", true },
            { nameof(SocketOptions.Priority), "4.3.3", false },
            { nameof(SocketOptions.Priority), "4.3.4", true },
            { nameof(SocketOptions.Linger), "4.1.0", true },
            { nameof(SocketOptions.XPubNoDrop), "4.1.0", true },
            { nameof(SocketOptions.ReqCorrelate), "4.1.0", true },
            { nameof(SocketOptions.ReqRelaxed), "4.1.8", false }, // exists, but 4.1 leaves the REQ with no pipe to its peer
            { nameof(SocketOptions.ReqRelaxed), "4.2.0", true },
        };

        [Theory]
        [MemberData(nameof(OptionCases))]
        public void OptionRefusal_ByVersion_RefusesExactlyWhereTheVersionLacksTheOption(string option, string version, bool has)
        {
            int id = IdOf(option);

            NotSupportedException? refusal = LibzmqVersions.OptionRefusal(id, option, Version.Parse(version));

            Assert.Equal(has, LibzmqVersions.HasOption(id, Version.Parse(version)));
            Assert.Equal(has, refusal is null);
            if (refusal is not null)
            {
                Assert.StartsWith("Socket option " + option + " needs libzmq " + LibzmqVersions.OptionSince(id) + " or later; the loaded libzmq is " + version, refusal.Message);
            }
        }

        [Fact]
        public void OptionRefusal_BindToDeviceBefore432_SaysTheProcessWouldAbort()
        {
            NotSupportedException? refusal = LibzmqVersions.OptionRefusal(SocketOptions.BindToDevice.Id, "BindToDevice", new Version(4, 2, 5));

            Assert.NotNull(refusal);
            Assert.Contains("aborts the process when the device cannot be bound", refusal!.Message);
        }

        [Fact]
        public void OptionRefusal_ReqRelaxedOn41_SaysWhyTheNextRequestWouldWaitForEver()
        {
            NotSupportedException? refusal = LibzmqVersions.OptionRefusal(SocketOptions.ReqRelaxed.Id, "ReqRelaxed", new Version(4, 1, 8));

            Assert.NotNull(refusal);
            Assert.Contains("libzmq 4.1.8 drops the abandoned request's peer", refusal!.Message);
            Assert.Contains("the next request waits for ever", refusal.Message);
        }

        [Theory]
        [InlineData("4.1.0", false)]
        [InlineData("4.1.8", false)]
        [InlineData("4.2.0", true)]
        [InlineData("4.3.5", true)]
        public void ZapEnforcementRefusal_ByVersion_RefusesTheFailClosedSettersWhereZapEnforceDomainIsMissing(string version, bool can)
        {
            NotSupportedException? refusal = LibzmqVersions.ZapEnforcementRefusal("SetPlainServer", Version.Parse(version));

            Assert.Equal(can, refusal is null);
            if (refusal is not null)
            {
                Assert.StartsWith("SetPlainServer needs libzmq 4.2.0 or later", refusal.Message);
                Assert.EndsWith("the loaded libzmq is " + version + ".", refusal.Message);
            }
        }

        [Fact]
        public void OptionSince_EveryListedOption_IsWithinTheSupportedRange()
        {
            foreach (int id in SocketOptions.ById.Keys)
            {
                Version? since = LibzmqVersions.OptionSince(id);
                Assert.True(since is null || (since >= new Version(4, 2) && since <= new Version(4, 3, 5)), id + ": " + since);
            }
        }

        [Theory]
        [InlineData("tcp")]
        [InlineData("ipc")]
        public void Bind_TcpOrIpc_BindsOnTheLoadedVersion(string transport)
        {
            // libzmq 4.1 has no ZMQ_USE_FD: every tcp/ipc Bind threw after binding, reading it to forget an adopted descriptor.
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);

            pull.Bind(Transports.BindEndpoint(transport));
            push.Connect(pull.LastEndpoint!);
            push.Send("hello"u8);

            var buffer = new byte[8];
            Assert.Equal(5, pull.Recv(buffer).MessageSize);
            Assert.Equal("hello"u8.ToArray(), buffer.AsSpan(0, 5).ToArray());
        }

        [Fact]
        public void EveryListedOption_NewerThanTheLoadedVersion_IsRefusedNamingBothVersions()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Dealer);
            int refused = 0;
            foreach (KeyValuePair<int, SocketOptions.OptionInfo> option in SocketOptions.ById)
            {
                if (LibzmqVersions.HasOption(option.Key, LoadedLibzmq.Version))
                {
                    continue;
                }

                var buffer = new byte[option.Value.NativeSize == 0 ? 256 : option.Value.NativeSize];
                if (option.Value.Access != OptionAccess.Write)
                {
                    var e = Assert.Throws<NotSupportedException>(() => socket.GetOptionRaw(option.Key, buffer));
                    Assert.Contains("Socket option " + option.Value.Name + " needs libzmq", e.Message);
                }

                // A set is refused the same way once its value passed the option's limits (a value out of them is refused
                // first, on every version): SetRaw, the one native setter, checks the version.
                refused++;
            }

            // The newest listed option (Priority) came in 4.3.4: from there on nothing is refused.
            Assert.Equal(LoadedLibzmq.IsAtLeast(4, 3, 4), refused == 0);
        }

        [Fact]
        public void BindToDevice_MissingDevice_RefusedWithoutReachingLibzmqsAssertion()
        {
            // libzmq 4.2.x to 4.3.1 abort the process (ip.cpp errno_assert) when SO_BINDTODEVICE fails; 4.3.2 and later fail
            // the bind. Run in a child process so that an abort fails this test, not the run.
            (int exitCode, string output) = ChildProcess.Run(ChildScenario);

            Assert.True(exitCode == 0, output);
            if (LoadedLibzmq.IsAtLeast(4, 3, 2))
            {
                // A CMake build of libzmq has no SO_BINDTODEVICE and fails every bind with the option set (NotSupported).
                Assert.Contains(LoadedLibzmq.HasBindToDevice ? "Error=NoDevice" : "Error=NotSupported", output);
            }
            else
            {
                Assert.Contains(typeof(NotSupportedException).FullName!, output);
                Assert.Contains("Socket option BindToDevice needs libzmq 4.3.2 or later", output);
            }
        }

        internal const string ChildScenario = "bind-to-missing-device";

        [Theory]
        [InlineData("4.1.0", true)]
        [InlineData("4.1.8", true)]
        [InlineData("4.2.0", false)]
        [InlineData("4.3.5", false)]
        public void TermCrashesOnPendingInprocConnect_ByVersion_OnlyBefore42(string version, bool crashes)
        {
            Assert.Equal(crashes, LibzmqVersions.TermCrashesOnPendingInprocConnect(Version.Parse(version)));
        }

        [Theory]
        [InlineData("4.1.8", true)]
        [InlineData("4.2.0", false)]
        public void MonitorReplacesWithoutStopping_ByVersion_OnlyBefore42(string version, bool replaces)
        {
            Assert.Equal(replaces, LibzmqVersions.MonitorReplacesWithoutStopping(Version.Parse(version)));
        }

        [Fact]
        public void Dispose_InprocConnectNeverBound_TerminatesWithoutCrashing()
        {
            // libzmq 4.1's zmq_ctx_term dereferences a null socket after zmq_ctx_shutdown when an inproc connect is still
            // pending (SIGSEGV: it ended the 4.1.8 test run). Run in a child process so that a crash fails this test, not the run.
            (int exitCode, string output) = ChildProcess.Run(PendingInprocScenario);

            Assert.True(exitCode == 0, "exit " + exitCode + ":\n" + output);
            Assert.Contains("terminated: shutdown-then-dispose dispose closed-connecting-socket", output);
        }

        internal const string PendingInprocScenario = "pending-inproc-connect-at-shutdown";

        /// <summary>The child of <see cref="Dispose_InprocConnectNeverBound_TerminatesWithoutCrashing"/>.</summary>
        internal static int PendingInprocChild()
        {
            var done = new List<string>();
            using (var context = new Context { DefaultLinger = TimeSpan.Zero })
            using (var req = new Socket(context, SocketType.Req))
            {
                req.Connect("inproc://never-bound-" + Guid.NewGuid());
                Assert.Equal(ZmqError.InvalidState, Assert.Throws<ZmqException>(() => req.TryRecv(new byte[8], out _)).Error);
                context.Shutdown();
            }

            done.Add("shutdown-then-dispose");
            using (var context = new Context { DefaultLinger = TimeSpan.Zero })
            {
                var sub = new Socket(context, SocketType.Sub);
                sub.Connect("inproc://never-bound-" + Guid.NewGuid());
                sub.Connect("inproc://never-bound-" + Guid.NewGuid());
            }

            done.Add("dispose");
            using (var context = new Context { DefaultLinger = TimeSpan.Zero })
            {
                using (var push = new Socket(context, SocketType.Push))
                {
                    push.Connect("inproc://never-bound-" + Guid.NewGuid());
                }
            }

            done.Add("closed-connecting-socket");
            Console.WriteLine("terminated: " + string.Join(" ", done));
            return 0;
        }

        [Fact]
        public void Socket_OnShutDownContextThatNeverHadOne_IsRefusedWithContextTerminated()
        {
            // libzmq 4.3.2 and older accept it (libzmq #3792); the binding refuses it on every version.
            using Context context = Zmq.NewContext();
            context.Shutdown();

            var e = Assert.Throws<ZmqException>(() => new Socket(context, SocketType.Pair));

            Assert.Equal(ZmqError.ContextTerminated, e.Error);
            Assert.Contains("Context.Shutdown", e.Message);
        }

        [Fact]
        public void Socket_OnShutDownContextThatHadOne_IsRefusedWithContextTerminated()
        {
            using Context context = Zmq.NewContext();
            using (new Socket(context, SocketType.Pair))
            {
            }

            context.Shutdown();

            Assert.Equal(ZmqError.ContextTerminated, Assert.Throws<ZmqException>(() => new Socket(context, SocketType.Sub)).Error);
        }

        [Fact]
        public void Socket_OnDisposedContext_StillThrowsObjectDisposed()
        {
            Context context = Zmq.NewContext();
            context.Dispose();

            Assert.Throws<ObjectDisposedException>(() => new Socket(context, SocketType.Pair));
        }

        public static TheoryData<string, bool, int, string, bool> ContextOptionCases => new TheoryData<string, bool, int, string, bool>
        {
            // option, write, value, version, has
            { nameof(ContextOptions.IOThreads), true, 1, "4.1.0", true },
            { nameof(ContextOptions.IPv6), false, 0, "4.1.0", true },
            { nameof(ContextOptions.ThreadSchedulingPolicy), true, 0, "4.1.0", true },
            { nameof(ContextOptions.ThreadSchedulingPolicy), false, 0, "4.2.5", false }, // libzmq answered -1 (its error) as the value
            { nameof(ContextOptions.ThreadSchedulingPolicy), false, 0, "4.3.0", true },
            { nameof(ContextOptions.Blocky), true, 0, "4.1.8", false },
            { nameof(ContextOptions.Blocky), true, 0, "4.2.0", true },
            { nameof(ContextOptions.MaxMessageSize), false, 0, "4.1.8", false },
            { nameof(ContextOptions.MaxMessageSize), false, 0, "4.2.0", true },
            { nameof(ContextOptions.MessageStructSize), false, 0, "4.2.0", false },
            { nameof(ContextOptions.MessageStructSize), false, 0, "4.2.1", true },
            { nameof(ContextOptions.ThreadAffinityCpuAdd), true, 0, "4.2.2", false },
            { nameof(ContextOptions.ThreadAffinityCpuRemove), true, 0, "4.2.3", true },
            { nameof(ContextOptions.ZeroCopyReceive), true, 0, "4.2.3", false },
            { nameof(ContextOptions.ZeroCopyReceive), false, 0, "4.2.4", true },
            { nameof(ContextOptions.ThreadNamePrefix), true, 7, "4.2.2", false },
            { nameof(ContextOptions.ThreadNamePrefix), true, 7, "4.2.3", true },
            { nameof(ContextOptions.ThreadNamePrefix), false, 0, "4.2.5", false },
            { nameof(ContextOptions.ThreadNamePrefix), false, 0, "4.3.0", true },
            { nameof(ContextOptions.ThreadNamePrefix), true, -7, "4.3.2", false }, // "optval_ >= 0" until 4.3.3
            { nameof(ContextOptions.ThreadNamePrefix), true, -7, "4.3.3", true },
        };

        [Theory]
        [MemberData(nameof(ContextOptionCases))]
        public void ContextOptionRefusal_ByVersion_RefusesExactlyWhereTheVersionLacksIt(string option, bool write, int value, string version, bool has)
        {
            int id = ContextOptionIdOf(option);

            NotSupportedException? refusal = LibzmqVersions.ContextOptionRefusal(id, option, write, Version.Parse(version), value);

            Assert.Equal(has, refusal is null);
            if (refusal is not null)
            {
                Assert.StartsWith(
                    "Context option " + option + " needs libzmq " + LibzmqVersions.ContextOptionSince(id, write, value) + " or later to be " +
                    (write ? "set" : "read"), refusal.Message);
                Assert.EndsWith("; the loaded libzmq is " + version + ".", refusal.Message);
            }
        }

        [Fact]
        public void ContextOptionSince_EveryListedOption_IsWithinTheSupportedRange()
        {
            foreach ((int id, _, _) in ListedContextOptions())
            {
                foreach (bool write in new[] { false, true })
                {
                    Version? since = LibzmqVersions.ContextOptionSince(id, write, value: -1);
                    Assert.True(since is null || (since >= new Version(4, 2) && since <= new Version(4, 3, 3)), id + ": " + since);
                }
            }
        }

        [Fact]
        public void EveryListedContextOption_OnTheLoadedVersion_IsRefusedBeforeLibzmqOrReadsWithoutError()
        {
            using var context = new Context();
            foreach ((int id, string name, OptionAccess access) in ListedContextOptions())
            {
                if ((access & OptionAccess.Read) == 0)
                {
                    continue;
                }

                ContextOption<int> key = ContextOptions.CustomInt32(id, name, access);
                if (LibzmqVersions.ContextOptionRefusal(id, name, write: false, LoadedLibzmq.Version) is null)
                {
                    // Let through: libzmq knows it (no EINVAL).
                    context.GetOption(key);
                }
                else
                {
                    LoadedLibzmq.AssertRefused(key, () => context.GetOption(key));
                }
            }
        }

        [Theory]
        [InlineData("tcp://127.0.0.1:*;localhost:5555", "4.1.8", "tcp://127.0.0.1:0;localhost:5555")]
        [InlineData("tcp://127.0.0.1:*;localhost:5555", "4.2.0", "tcp://127.0.0.1:*;localhost:5555")]
        [InlineData("tcp://127.0.0.1:7;localhost:5555", "4.1.8", "tcp://127.0.0.1:7;localhost:5555")]
        [InlineData("tcp://localhost:5555", "4.1.8", "tcp://localhost:5555")]
        [InlineData("inproc://a:*;b", "4.1.8", "inproc://a:*;b")]
        public void ConnectText_WildcardSourcePort_IsPortZeroOnLibzmq41Only(string endpoint, string version, string expected)
        {
            Assert.Equal(expected, LibzmqVersions.ConnectText(endpoint, Version.Parse(version)));
        }

        private static System.Collections.Generic.IEnumerable<(int Id, string Name, OptionAccess Access)> ListedContextOptions()
        {
            foreach (System.Reflection.FieldInfo field in typeof(ContextOptions).GetFields())
            {
                object? value = field.GetValue(null);
                if (value is ContextOption<int> i)
                {
                    yield return (i.Id, i.Name, i.Access);
                }
                else if (value is ContextOption<bool> b)
                {
                    yield return (b.Id, b.Name, b.Access);
                }
            }
        }

        private static int ContextOptionIdOf(string name) =>
            typeof(ContextOptions).GetField(name)!.GetValue(null) switch
            {
                ContextOption<int> i => i.Id,
                ContextOption<bool> b => b.Id,
                _ => throw new ArgumentException("no context option " + name),
            };

        private static int IdOf(string name)
        {
            foreach (KeyValuePair<int, SocketOptions.OptionInfo> option in SocketOptions.ById)
            {
                if (option.Value.Name == name)
                {
                    return option.Key;
                }
            }

            throw new ArgumentException("no option " + name);
        }
    }
}
