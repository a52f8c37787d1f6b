using System;
using System.Threading;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Devices
{
    public class ProxyTests
    {
        [Fact]
        public void Run_PushThroughProxy_ReachesBackendAndCapture()
        {
            using Context context = Zmq.NewContext();
            using Socket frontend = Zmq.NewSocket(context, SocketType.Pull);
            using Socket backend = Zmq.NewSocket(context, SocketType.Push);
            using Socket capture = Zmq.NewSocket(context, SocketType.Push);
            using Socket producer = Zmq.NewSocket(context, SocketType.Push);
            using Socket consumer = Zmq.NewSocket(context, SocketType.Pull);
            using Socket captured = Zmq.NewSocket(context, SocketType.Pull);
            producer.Connect(Transports.BindAnywhere(frontend, "tcp"));
            consumer.Connect(Transports.BindAnywhere(backend, "tcp"));
            captured.Connect(Transports.BindAnywhere(capture, "inproc"));
            Exception? failure = null;
            var thread = new Thread(() =>
            {
                try
                {
                    Proxy.Run(frontend, backend, capture);
                }
                catch (Exception e)
                {
                    failure = e;
                }
            });
            thread.Start();

            producer.SendMultipart("hello", "proxy");
            Assert.Equal(new[] { "hello", "proxy" }, Strings(consumer.RecvMultipartBytes()));
            Assert.Equal(new[] { "hello", "proxy" }, Strings(captured.RecvMultipartBytes()));
            Assert.Throws<InvalidOperationException>(() => frontend.TryRecvBytes(out _)); // the proxy holds its sockets

            context.Shutdown();
            Assert.True(thread.Join(TestTimeouts.Expected), "Proxy.Run did not return on context shutdown");
            Assert.Null(failure);
            Assert.Equal(ZmqError.ContextTerminated, Assert.Throws<ZmqException>(() => frontend.TryRecvBytes(out _)).Error);
        }

        [Fact]
        public void Run_ArgumentsInvalidOrSocketBusy_ThrowsWithoutRunning()
        {
            using Context context = Zmq.NewContext();
            using Socket a = Zmq.NewSocket(context, SocketType.Pull);
            using Socket b = Zmq.NewSocket(context, SocketType.Push);
            Socket disposed = Zmq.NewSocket(context, SocketType.Push);
            disposed.Dispose();

            Assert.Throws<ArgumentNullException>(() => Proxy.Run(null!, b));
            Assert.Throws<ArgumentException>(() => Proxy.Run(a, b, a));
            Assert.Throws<ObjectDisposedException>(() => Proxy.Run(a, disposed));
            Assert.False(a.TryRecvBytes(out _)); // still usable: the failed Run released the guards it took
        }

        private static string[] Strings(byte[][] frames) =>
            Array.ConvertAll(frames, f => System.Text.Encoding.UTF8.GetString(f));
    }
}
