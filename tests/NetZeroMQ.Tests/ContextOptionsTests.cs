using System;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    public class ContextOptionsTests
    {
        [Fact]
        public void DefaultLinger_Negative_ThrowsArgumentOutOfRange()
        {
            using var context = new Context();

            Assert.Throws<ArgumentOutOfRangeException>(() => context.DefaultLinger = TimeSpan.FromSeconds(-2));
            Assert.Equal(Context.StandardLinger, context.DefaultLinger);
        }

        [Fact]
        public void ContextOptions_ReadWrite_RoundTripThroughPropertiesAndOptions()
        {
            using var context = new Context();

            context.IOThreads = 2;
            context.MaxSockets = 512;
            context.IPv6 = true;
            Assert.Equal(2, context.IOThreads);
            Assert.Equal(2, context.GetOption(ContextOptions.IOThreads));
            Assert.Equal(512, context.MaxSockets);
            Assert.True(context.IPv6);
            Assert.True(context.GetOption(ContextOptions.IPv6));

            // Newer options round-trip where the loaded libzmq has them, and are refused naming both versions where not.
            SetThenGet(ContextOptions.MaxMessageSize, 1 << 20, c => c.MaxMessageSize = 1 << 20, c => Assert.Equal(1 << 20, c.MaxMessageSize));
            SetThenGet(ContextOptions.ThreadNamePrefix, 7, c => c.SetOption(ContextOptions.ThreadNamePrefix, 7), c => Assert.Equal(7, c.GetOption(ContextOptions.ThreadNamePrefix)));
            SetThenGet(ContextOptions.ZeroCopyReceive, 0, c => c.SetOption(ContextOptions.ZeroCopyReceive, false), c => Assert.False(c.GetOption(ContextOptions.ZeroCopyReceive)));
            SetThenGet(ContextOptions.Blocky, 0, c => c.SetOption(ContextOptions.Blocky, false), c => Assert.False(c.GetOption(ContextOptions.Blocky)));
            SetThenGet(ContextOptions.ThreadSchedulingPolicy, 0, c => c.SetOption(ContextOptions.ThreadSchedulingPolicy, 0), c => Assert.Equal(0, c.GetOption(ContextOptions.ThreadSchedulingPolicy)));

            void SetThenGet<T>(ContextOption<T> option, int value, Action<Context> set, Action<Context> get)
            {
                if (LoadedLibzmq.CanSet(option, value))
                {
                    set(context);
                }
                else
                {
                    LoadedLibzmq.AssertRefused(option, () => set(context));
                }

                if (LoadedLibzmq.CanRead(option))
                {
                    get(context);
                }
                else
                {
                    LoadedLibzmq.AssertRefused(option, () => get(context));
                }
            }
        }

        [Fact]
        public void ContextOptions_Defaults_AreLibzmqs()
        {
            using var context = new Context();

            Assert.Equal(1, context.IOThreads);
            Assert.Equal(1023, context.MaxSockets);
            Assert.False(context.IPv6);
            Assert.True(context.SocketLimit >= context.MaxSockets);
            ReadOrRefused(ContextOptions.MaxMessageSize, c => Assert.Equal(int.MaxValue, c.MaxMessageSize));
            ReadOrRefused(ContextOptions.MessageStructSize, c => Assert.Equal(64, c.GetOption(ContextOptions.MessageStructSize)));
            ReadOrRefused(ContextOptions.ThreadSchedulingPolicy, c => Assert.Equal(-1, c.GetOption(ContextOptions.ThreadSchedulingPolicy)));

            void ReadOrRefused(ContextOption<int> option, Action<Context> get)
            {
                if (LoadedLibzmq.CanRead(option))
                {
                    get(context);
                }
                else
                {
                    // Before the refusal a read of ThreadSchedulingPolicy on 4.2 answered libzmq's -1 error as the default.
                    LoadedLibzmq.AssertRefused(option, () => get(context));
                }
            }
        }

        [Fact]
        public void ContextIPv6_SetBeforeSocket_BecomesTheSocketsDefault()
        {
            using var context = new Context { DefaultLinger = TimeSpan.Zero, IPv6 = true };
            using var socket = new Socket(context, SocketType.Dealer);

            Assert.True(socket.GetOption(SocketOptions.IPv6));
        }

        [Theory]
        [InlineData(nameof(ContextOptions.ThreadAffinityCpuAdd))]
        [InlineData(nameof(ContextOptions.ThreadAffinityCpuRemove))]
        public void ContextGetOption_WriteOnly_ThrowsInvalidOperation(string name)
        {
            using var context = new Context();
            var option = (ContextOption<int>)typeof(ContextOptions).GetField(name)!.GetValue(null)!;

            Assert.Equal(OptionAccess.Write, option.Access);
            var e = Assert.Throws<InvalidOperationException>(() => context.GetOption(option));

            Assert.Contains(name, e.Message);
        }

        [Fact]
        public void ContextOptions_Keys_HaveTheAccessOfTheirOption()
        {
            Assert.Equal(OptionAccess.Read, ContextOptions.SocketLimit.Access);
            Assert.Equal(OptionAccess.Read, ContextOptions.MessageStructSize.Access);
            Assert.Equal(OptionAccess.Write, ContextOptions.ThreadAffinityCpuAdd.Access);
            Assert.Equal(OptionAccess.Write, ContextOptions.ThreadAffinityCpuRemove.Access);
            Assert.Equal(OptionAccess.ReadWrite, ContextOptions.IOThreads.Access);
            Assert.Equal(OptionAccess.ReadWrite, ContextOptions.Blocky.Access);
            Assert.Equal(1, ContextOptions.IOThreads.Id);
            Assert.Equal(nameof(ContextOptions.MaxSockets), ContextOptions.MaxSockets.Name);
            Assert.Equal(ContextOptions.MaxSockets, ContextOptions.CustomInt32(2, "other name"));
        }

        [Fact]
        public void ContextGetSetOption_NullKey_ThrowsArgumentNull()
        {
            using var context = new Context();

            Assert.Equal("option", Assert.Throws<ArgumentNullException>(() => context.GetOption((ContextOption<int>)null!)).ParamName);
            Assert.Equal("option", Assert.Throws<ArgumentNullException>(() => context.GetOption((ContextOption<bool>)null!)).ParamName);
            Assert.Equal("option", Assert.Throws<ArgumentNullException>(() => context.SetOption((ContextOption<int>)null!, 1)).ParamName);
            Assert.Equal("option", Assert.Throws<ArgumentNullException>(() => context.SetOption((ContextOption<bool>)null!, true)).ParamName);
        }

        [Fact]
        public void ContextSetOption_CustomKeyOfAListedNumber_GetsTheListedOptionsChecks()
        {
            using var context = new Context();
            ContextOption<int> maxSockets = ContextOptions.CustomInt32(2, "MyMaxSockets");

            context.SetOption(maxSockets, 100);
            Assert.Equal(100, context.MaxSockets);
            Assert.Throws<ArgumentOutOfRangeException>(() => context.SetOption(maxSockets, context.SocketLimit + 1));
            Assert.Throws<InvalidOperationException>(() => context.GetOption(ContextOptions.CustomInt32(2, "WriteOnly", OptionAccess.Write)));
        }

        [Fact]
        public void ContextSetOption_ReadOnly_ThrowsInvalidOperation()
        {
            using var context = new Context();

            Assert.Throws<InvalidOperationException>(() => context.SetOption(ContextOptions.MessageStructSize, 128));
            Assert.Equal(context.SocketLimit, context.GetOption(ContextOptions.SocketLimit));
        }

        [Fact]
        public void ContextSetOption_WriteOnlyAffinity_Accepted()
        {
            using var context = new Context();

            if (!LoadedLibzmq.CanSet(ContextOptions.ThreadAffinityCpuAdd))
            {
                LoadedLibzmq.AssertRefused(ContextOptions.ThreadAffinityCpuAdd, () => context.SetOption(ContextOptions.ThreadAffinityCpuAdd, 0));
                LoadedLibzmq.AssertRefused(ContextOptions.ThreadAffinityCpuRemove, () => context.SetOption(ContextOptions.ThreadAffinityCpuRemove, 0));
                return;
            }

            context.SetOption(ContextOptions.ThreadAffinityCpuAdd, 0);
            context.SetOption(ContextOptions.ThreadAffinityCpuRemove, 0);
        }

        [Fact]
        public void ContextSetOption_InvalidValue_ThrowsInvalidArgumentNamingTheOption()
        {
            using var context = new Context();

            ZmqException e = Assert.Throws<ZmqException>(() => context.SetOption(ContextOptions.MaxSockets, 0));

            Assert.Equal(ZmqError.InvalidArgument, e.Error);
            Assert.Equal(nameof(ContextOptions.MaxSockets), e.Option);
            Assert.Contains(nameof(ContextOptions.MaxSockets), e.Message);
        }

        [Fact]
        public void ContextGetOption_UnknownNumber_ThrowsInvalidArgument()
        {
            using var context = new Context();

            ZmqException e = Assert.Throws<ZmqException>(() => context.GetOption(ContextOptions.CustomInt32(9999, "Bogus")));

            Assert.Equal(ZmqError.InvalidArgument, e.Error);
        }

        [Theory]
        [InlineData(-1)]
        public void ContextProperties_Negative_ThrowArgumentOutOfRange(int value)
        {
            using var context = new Context();

            Assert.Throws<ArgumentOutOfRangeException>(() => context.IOThreads = value);
            Assert.Throws<ArgumentOutOfRangeException>(() => context.MaxSockets = value);
            Assert.Throws<ArgumentOutOfRangeException>(() => context.MaxMessageSize = value);
            Assert.Equal(1, context.IOThreads);
        }

        [Fact]
        public void SetOption_SocketLimit_ThrowsReadOnlyAndPointsToSetThreadPriority()
        {
            using var context = new Context();
            var e = Assert.Throws<InvalidOperationException>(() => context.SetOption(ContextOptions.SocketLimit, 5));
            Assert.Contains("SetThreadPriority", e.Message);
            Assert.Equal(context.SocketLimit, context.GetOption(ContextOptions.SocketLimit));
        }

        [Fact]
        public void SetThreadPriority_ValidAndNegative_AcceptedOrRejectedAndSocketLimitUnchanged()
        {
            using var context = new Context();
            int limit = context.SocketLimit;
            context.SetThreadPriority(0);
            var e = Assert.Throws<ZmqException>(() => context.SetThreadPriority(-5));
            Assert.Equal(ZmqError.InvalidArgument, e.Error);
            Assert.Equal("ThreadPriority", e.Option);
            Assert.Equal(limit, context.SocketLimit);
        }
    }
}
