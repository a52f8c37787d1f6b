using System;
using System.Collections.Generic;
using System.Linq;
using NetZeroMQ.Tests.Documentation;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// <see cref="SocketOption{T}"/> keys: only the library makes them (one factory per value type libzmq's options have), and
    /// GetOption/SetOption have one overload per value type, so a mismatched key or value is a compile error, not a run-time one.
    /// The compile checks build user code against NetZeroMQ's public surface with Roslyn.
    /// </summary>
    public class SocketOptionKeyTests
    {
        private const string Prelude = "using System;\nusing NetZeroMQ;\nusing var context = new Context();\nusing var socket = new Socket(context, SocketType.Dealer);\n";

        public static TheoryData<string, string> WrongCode => new TheoryData<string, string>
        {
            // A key of a type libzmq has no options of: it cannot be made, and no overload would take it.
            { "new SocketOption<DateTime>(1, \"Date\");", "CS1729" },
            { "var key = new SocketOption<int>();", "CS1729" },
            { "socket.GetOption(default(SocketOption<DateTime>)!);", "CS1503" },
            // A value of another type than the key's.
            { "socket.SetOption(SocketOptions.Linger, 5);", "CS1503" },
            { "socket.SetOption(SocketOptions.SendHighWatermark, TimeSpan.Zero);", "CS1503" },
            { "socket.SetOption(SocketOptions.ZapDomain, new byte[] { 1 });", "CS1503" },
            { "int linger = socket.GetOption(SocketOptions.Linger);", "CS0029" },
            { "string id = socket.GetOption(SocketOptions.RoutingId);", "CS0029" },
            // The old generic form.
            { "socket.GetOption<int>(SocketOptions.SendHighWatermark);", "CS0308" },
        };

        [Theory]
        [MemberData(nameof(WrongCode))]
        public void GetSetOption_KeyOrValueOfTheWrongType_DoesNotCompile(string statement, string expectedError)
        {
            IReadOnlyList<(int Line, string Message)> errors = SnippetCompiler.Compile(Prelude + statement + "\n");

            Assert.NotEmpty(errors);
            Assert.Contains(errors, e => e.Message.StartsWith(expectedError + " ", StringComparison.Ordinal));
        }

        [Fact]
        public void GetSetOption_EveryValueType_CompilesWithoutTypeArguments()
        {
            // The control for the test above: the same prelude with matching keys and values compiles.
            const string Code = Prelude + @"
socket.SetOption(SocketOptions.SendHighWatermark, 7);
socket.SetOption(SocketOptions.MaxMessageSize, 1024L);
socket.SetOption(SocketOptions.Affinity, 1UL);
socket.SetOption(SocketOptions.Immediate, true);
socket.SetOption(SocketOptions.Linger, TimeSpan.Zero);
socket.SetOption(SocketOptions.ZapDomain, ""global"");
socket.SetOption(SocketOptions.RoutingId, new byte[] { 1 });
socket.SetOption(SocketOptions.Subscribe, new byte[] { 1 }.AsSpan());
int hwm = socket.GetOption(SocketOptions.SendHighWatermark);
long max = socket.GetOption(SocketOptions.MaxMessageSize);
ulong affinity = socket.GetOption(SocketOptions.Affinity);
bool more = socket.GetOption(SocketOptions.HasMore);
TimeSpan linger = socket.GetOption(SocketOptions.Linger);
string endpoint = socket.GetOption(SocketOptions.LastEndpoint);
byte[] id = socket.GetOption(SocketOptions.RoutingId);
SocketOption<int> custom = SocketOptions.CustomInt32(9999, ""Custom"");
Console.WriteLine(hwm + max + (long)affinity + (more ? 1 : 0) + linger.Ticks + endpoint.Length + id.Length + custom.Id);
";

            Assert.Empty(SnippetCompiler.Compile(Code));
        }

        [Fact]
        public void Factories_MakeKeysOfTheirValueType_ThatReachTheOption()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Dealer);
            SocketOption<int> hwm = SocketOptions.CustomInt32(SocketOptions.SendHighWatermark.Id, "MySendHighWatermark");
            SocketOption<System.TimeSpan> linger = SocketOptions.CustomTimeSpan(SocketOptions.Linger.Id, "MyLinger", OptionAccess.Write);

            socket.SetOption(hwm, 77);
            socket.SetOption(linger, TimeSpan.FromMilliseconds(123));

            Assert.Equal(77, socket.SendHighWatermark);
            Assert.Equal(77, socket.GetOption(hwm));
            Assert.Equal(TimeSpan.FromMilliseconds(123), socket.Linger);
            Assert.Equal("MyLinger", linger.Name);
            Assert.Equal(OptionAccess.Write, linger.Access);
            Assert.Contains("MyLinger", Assert.Throws<InvalidOperationException>(() => socket.GetOption(linger)).Message);
            Assert.Equal(OptionAccess.ReadWrite, SocketOptions.CustomBytes(1, "b").Access);
            Assert.Equal(typeof(SocketOption<long>), SocketOptions.CustomInt64(1, "l").GetType());
            Assert.Equal(typeof(SocketOption<ulong>), SocketOptions.CustomUInt64(1, "u").GetType());
            Assert.Equal(typeof(SocketOption<bool>), SocketOptions.CustomBoolean(1, "b").GetType());
            Assert.Equal(typeof(SocketOption<string>), SocketOptions.CustomString(1, "s").GetType());
            Assert.Throws<ArgumentNullException>(() => SocketOptions.CustomInt32(1, null!));
        }

        [Fact]
        public void GetSetOption_NullKey_ThrowsArgumentNullNamingTheKey()
        {
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Dealer);

            var thrown = new List<ArgumentNullException>
            {
                Assert.Throws<ArgumentNullException>(() => socket.GetOption((SocketOption<int>)null!)),
                Assert.Throws<ArgumentNullException>(() => socket.GetOption((SocketOption<string>)null!)),
                Assert.Throws<ArgumentNullException>(() => socket.SetOption((SocketOption<TimeSpan>)null!, TimeSpan.FromSeconds(5))),
                Assert.Throws<ArgumentNullException>(() => socket.SetOption((SocketOption<byte[]>)null!, new byte[] { 1 })),
                Assert.Throws<ArgumentNullException>(() => socket.SetOption((SocketOption<byte[]>)null!, new byte[] { 1 }.AsSpan())),
                Assert.Throws<ArgumentNullException>(() => socket.GetCurveKey(null!)),
            };

            Assert.All(thrown, e => Assert.Equal("option", e.ParamName));
            Assert.Equal(TimeSpan.Zero, socket.Linger); // the test context's default: the 5 s never reached libzmq
        }

        [Fact]
        public void Keys_OfSocketOptions_AreEqualByNumber()
        {
            SocketOption<int> again = SocketOptions.CustomInt32(SocketOptions.SendHighWatermark.Id, "another name");

            Assert.True(SocketOptions.SendHighWatermark.Equals(again));
            Assert.Equal(SocketOptions.SendHighWatermark.GetHashCode(), again.GetHashCode());
            Assert.False(SocketOptions.SendHighWatermark.Equals(SocketOptions.ReceiveHighWatermark));
            Assert.False(SocketOptions.SendHighWatermark.Equals(null));
            Assert.Equal("SendHighWatermark (23, Int32, ReadWrite)", SocketOptions.SendHighWatermark.ToString());
            Assert.Equal(new[] { "HasMore" }, typeof(SocketOptions).GetFields().Where(f => f.Name.Contains("More")).Select(f => f.Name));
        }
    }
}
