using System;
using System.Reflection;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Security
{
    /// <summary>Pretends the loaded libzmq has no CURVE; isolated, because every other CURVE test would see it too.</summary>
    [Collection(IsolatedCollection.Name)]
    public class CurveAvailabilityTests
    {
        [Fact]
        public void CurveSetters_LibzmqWithoutCurve_ThrowPlatformNotSupported()
        {
            using var keys = CurveKeyPair.Generate();
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Router);
            FieldInfo state = typeof(SocketSecurityExtensions).GetField("s_curveAvailable", BindingFlags.NonPublic | BindingFlags.Static)!;
            object? saved = state.GetValue(null);
            state.SetValue(null, -1);
            try
            {
                var e = Assert.Throws<PlatformNotSupportedException>(() => socket.SetCurveServer(keys));
                Assert.Contains("zmq_has(\"curve\")", e.Message);
                Assert.Throws<PlatformNotSupportedException>(() => socket.SetCurveClient(keys, keys.PublicKey));
                Assert.Throws<PlatformNotSupportedException>(() => CurveKeyPair.Generate());
                Assert.Throws<PlatformNotSupportedException>(() => CurveKeyPair.FromSecretKey(new byte[32]));
                Assert.Equal(0, socket.GetOption(SocketOptions.Mechanism));
            }
            finally
            {
                state.SetValue(null, saved);
            }

            Assert.True(Libzmq.Has("curve"));
        }
    }
}
