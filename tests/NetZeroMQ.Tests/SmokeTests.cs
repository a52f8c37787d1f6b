using System;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    public class SmokeTests
    {
        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void PushPull_SpanSendAndRecv_BytesArrive(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket pull = Zmq.NewSocket(context, SocketType.Pull);
            using Socket push = Zmq.NewSocket(context, SocketType.Push);
            push.Connect(Transports.BindAnywhere(pull, transport));

            push.Send(new byte[] { 1, 2, 3 });
            push.Send("héllo");
            var buffer = new byte[16];
            RecvResult result = pull.Recv(buffer);
            Assert.Equal(new RecvResult(3, 3), result);
            Assert.Equal(new byte[] { 1, 2, 3 }, buffer[..3]);
            Assert.Equal("héllo", pull.RecvString());
        }
    }
}
