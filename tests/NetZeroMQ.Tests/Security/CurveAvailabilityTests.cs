using System;
using System.Reflection;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Security
{
    /// <summary>
    /// CURVE where the loaded libzmq has none: the real refusal on a libzmq built without libsodium, a pretended one (the
    /// library's cached answer of <c>zmq_has("curve")</c> set to "no") on a libzmq with it. Isolated, because every other CURVE
    /// test would see the pretence too.
    /// </summary>
    [Collection(IsolatedCollection.Name)]
    public class CurveAvailabilityTests
    {
        [Fact]
        public void Curve_LibzmqWithoutCurve_EveryCurveEntryPointThrowsPlatformNotSupported()
        {
            using CurveKeyPair? keys = LoadedLibzmq.HasCurve ? CurveKeyPair.Generate() : null;
            using Context context = Zmq.NewContext();
            using Socket socket = Zmq.NewSocket(context, SocketType.Router);
            FieldInfo state = typeof(Libzmq).GetField("s_curve", BindingFlags.NonPublic | BindingFlags.Static)!;
            object? saved = state.GetValue(null);
            state.SetValue(null, -1);
            try
            {
                if (keys is not null)
                {
                    LoadedLibzmq.AssertCurveRefused(() => socket.SetCurveServer(keys));
                    LoadedLibzmq.AssertCurveRefused(() => socket.SetCurveClient(keys, keys.PublicKey));
                }

                LoadedLibzmq.AssertCurveRefused(() => CurveKeyPair.Generate());
                LoadedLibzmq.AssertCurveRefused(() => CurveKeyPair.FromSecretKey(new byte[32]));

                // The CURVE socket options too, typed and raw, get and set: libzmq would answer them with a bare EINVAL.
                LoadedLibzmq.AssertCurveRefused(() => socket.SetOption(SocketOptions.CurveServer, true));
                LoadedLibzmq.AssertCurveRefused(() => socket.SetOption(SocketOptions.CurvePublicKey, new byte[32]));
                LoadedLibzmq.AssertCurveRefused(() => socket.GetOption(SocketOptions.CurveSecretKey));
                LoadedLibzmq.AssertCurveRefused(() => socket.SetOptionRaw(SocketOptions.CurveServerKey.Id, new byte[32]));
                Assert.Equal(0, socket.GetOption(SocketOptions.Mechanism));
            }
            finally
            {
                state.SetValue(null, saved);
            }

            Assert.Equal(LoadedLibzmq.HasCurve, Libzmq.Has("curve"));
            if (LoadedLibzmq.HasCurve)
            {
                // With the real answer back, the same option goes through.
                socket.SetOption(SocketOptions.CurveServer, true);
                Assert.Equal(2, socket.GetOption(SocketOptions.Mechanism)); // ZMQ_CURVE
            }
        }
    }
}
