using System;
using System.Collections.Generic;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// A PUSH whose multipart send really fails part way: the sender's context is shut down between two frames. The PULL
    /// lives in a context of its own (so tcp), which the shutdown leaves working, and one message has already gone through.
    /// </summary>
    internal sealed class BrokenMultipartSender : IDisposable
    {
        private readonly Context _receiverContext = Zmq.NewContext();
        private readonly Context _context = Zmq.NewContext();

        internal BrokenMultipartSender()
        {
            Pull = Zmq.NewSocket(_receiverContext, SocketType.Pull);
            Push = Zmq.NewSocket(_context, SocketType.Push);
            Push.Connect(Transports.BindAnywhere(Pull, "tcp"));
            Push.SendMultipart("before");
            if (Pull.RecvString() != "before")
            {
                throw new InvalidOperationException("the pair did not deliver its first message");
            }
        }

        internal Socket Pull { get; }

        internal Socket Push { get; }

        /// <summary>Sends <paramref name="frameCount"/> frames "f0", "f1", ...; the context shuts down right before frame
        /// <paramref name="failingFrame"/> goes to libzmq. Returns what the send threw.</summary>
        internal ZmqException SendBreakingBefore(int failingFrame, int frameCount)
        {
            var frames = new List<ReadOnlyMemory<byte>>();
            for (int i = 0; i < frameCount; i++)
            {
                byte[] bytes = System.Text.Encoding.ASCII.GetBytes("f" + i);
                frames.Add(i == failingFrame
                    ? new MultipartFaults.BeforeSendMemory(bytes, () => MultipartFaults.ShutDownBeforeNextSend(_context)).Memory
                    : bytes);
            }

            try
            {
                Push.SendMultipart(frames);
            }
            catch (ZmqException e)
            {
                return e;
            }

            throw new InvalidOperationException("the multipart send did not fail");
        }

        public void Dispose()
        {
            Push.Dispose();
            Pull.Dispose();
            _context.Dispose();
            _receiverContext.Dispose();
        }
    }
}
