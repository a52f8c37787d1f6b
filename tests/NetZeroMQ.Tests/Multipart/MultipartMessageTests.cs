using System;
using Xunit;

namespace NetZeroMQ.Tests.Multipart
{
    public class MultipartMessageTests
    {
        [Fact]
        public void PushFrontAndBack_MixedFrames_KeepOrder()
        {
            using var message = new MultipartMessage();
            message.Add("b");
            message.PushBack(new byte[] { 3 });
            message.PushFront("a");
            message.Insert(1, new Message(new byte[] { 9 }));

            Assert.Equal(4, message.Count);
            Assert.Equal(new[] { "a" }, new[] { message[0].GetString() });
            Assert.Equal(new byte[] { 9 }, message[1].ToArray());
            Assert.Equal("b", message[2].GetString());
            Assert.Equal(new byte[] { 3 }, message[3].ToArray());
        }

        [Fact]
        public void PopFrontAndBack_TwoFrames_TransferOwnership()
        {
            var message = new MultipartMessage(new[] { new byte[] { 1 }, new byte[] { 2 } });
            Message first = message.PopFront();
            Message last = message.PopBack();
            Assert.Empty(message);
            message.Dispose();

            Assert.False(first.IsDisposed);
            Assert.Equal(new byte[] { 1 }, first.ToArray());
            Assert.Equal(new byte[] { 2 }, last.ToArray());
            first.Dispose();
            last.Dispose();
            Assert.Throws<InvalidOperationException>(() => new MultipartMessage().PopFront());
        }

        [Fact]
        public void Clear_ThenAdd_ReusesFrameObjects()
        {
            using var message = new MultipartMessage();
            message.Add(new byte[100]);
            message.Add(new byte[5]);
            Message a = message[0];
            Message b = message[1];

            message.Clear();
            Assert.Empty(message);
            Assert.False(a.IsDisposed);
            message.Add("x");
            message.Add("y");

            Assert.Same(b, message[0]);
            Assert.Same(a, message[1]);
            Assert.Equal("y", message[1].GetString());
        }

        [Fact]
        public void Dispose_WithFramesAndSpares_DisposesAll()
        {
            var message = new MultipartMessage(new[] { new byte[] { 1 }, new byte[] { 2 } });
            Message spare = message[1];
            message.Clear();
            message.Add("kept");
            Message frame = message[0];

            message.Dispose();

            Assert.True(frame.IsDisposed);
            Assert.True(spare.IsDisposed);
            Assert.Throws<ObjectDisposedException>(() => message.Add("z"));
        }

        [Fact]
        public void Add_InvalidFrames_Throw()
        {
            using var message = new MultipartMessage();
            var disposed = new Message();
            disposed.Dispose();
            var frame = new Message();
            message.Add(frame);

            Assert.Throws<ArgumentNullException>(() => message.Add((Message)null!));
            Assert.Throws<ArgumentException>(() => message.Add(disposed));
            Assert.Throws<ArgumentException>(() => message.Add(frame));
            Assert.Throws<ArgumentOutOfRangeException>(() => message.Insert(5, new Message()));
        }
    }
}
