using System.Collections.Generic;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Patterns
{
    public class PubSubTests
    {
        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Subscribe_Prefix_OnlyMatchingTopicsArriveInOrder(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket pub = Zmq.NewSocket(context, SocketType.Pub);
            using Socket sub = Zmq.NewSocket(context, SocketType.Sub);
            sub.Connect(Transports.BindAnywhere(pub, transport));
            sub.Subscribe("weather.");
            sub.Subscribe("sync");
            Subscriptions.WaitUntilDelivered(pub, sub, "sync");

            pub.Send("weather.london 12C");
            pub.Send("news.london quiet");
            pub.Send("weathe"); // shorter than the prefix: no match
            pub.Send("Weather.paris 15C"); // matching is by bytes, case-sensitive
            pub.Send("weather.paris 15C");
            pub.Send("sport.paris");
            pub.Send("weather.end");

            var received = new List<string>();
            string text;
            do
            {
                text = Subscriptions.RecvSkipping(sub, "sync");
                received.Add(text);
            }
            while (text != "weather.end");

            Assert.Equal(new[] { "weather.london 12C", "weather.paris 15C", "weather.end" }, received);
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Unsubscribe_Prefix_ItsTopicsStopArriving(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket pub = Zmq.NewSocket(context, SocketType.Pub);
            using Socket sub = Zmq.NewSocket(context, SocketType.Sub);
            sub.Connect(Transports.BindAnywhere(pub, transport));
            sub.Subscribe("weather.");
            sub.Subscribe("sync1");
            Subscriptions.WaitUntilDelivered(pub, sub, "sync1");
            pub.Send("weather.before");
            Assert.Equal("weather.before", Subscriptions.RecvSkipping(sub, "sync1"));

            sub.Unsubscribe("weather.");
            sub.Subscribe("sync2");

            // Once sync2 arrives, the publisher has also processed the earlier unsubscription.
            Subscriptions.WaitUntilDelivered(pub, sub, "sync2");
            pub.Send("weather.after");
            pub.Send("sync2.end");

            var received = new List<string>();
            string text;
            do
            {
                text = sub.RecvString();
                if (text != "sync1" && text != "sync2")
                {
                    received.Add(text);
                }
            }
            while (text != "sync2.end");

            Assert.Equal(new[] { "sync2.end" }, received);
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Subscribe_EmptyPrefix_EverythingArrives(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket pub = Zmq.NewSocket(context, SocketType.Pub);
            using Socket sub = Zmq.NewSocket(context, SocketType.Sub);
            sub.Connect(Transports.BindAnywhere(pub, transport));
            sub.Subscribe(string.Empty);
            Subscriptions.WaitUntilDelivered(pub, sub, "sync");

            pub.Send("a");
            pub.Send(new byte[] { 0, 255 });
            pub.Send(System.Array.Empty<byte>());
            pub.Send("end");

            Assert.Equal("a", Subscriptions.RecvSkipping(sub, "sync"));
            Assert.Equal(new byte[] { 0, 255 }, sub.RecvBytes());
            Assert.Empty(sub.RecvBytes());
            Assert.Equal("end", sub.RecvString());
        }

        [Fact]
        public void Subscribe_NoSubscription_NothingArrives()
        {
            using Context context = Zmq.NewContext();
            using Socket pub = Zmq.NewSocket(context, SocketType.Pub);
            using Socket sub = Zmq.NewSocket(context, SocketType.Sub);
            using Socket control = Zmq.NewSocket(context, SocketType.Sub);
            string endpoint = Transports.BindAnywhere(pub, "inproc");
            sub.Connect(endpoint);
            control.Connect(endpoint);
            control.Subscribe(string.Empty);

            // Once the control subscriber gets everything, the unsubscribed one has had every chance to get it too.
            Subscriptions.WaitUntilDelivered(pub, control, "sync");
            pub.Send("topic");
            Assert.Equal("topic", Subscriptions.RecvSkipping(control, "sync"));

            Assert.False(sub.TryRecvString(out string? leaked), "received " + leaked);
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Subscribe_BinaryPrefix_MatchesBytesNotText(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket pub = Zmq.NewSocket(context, SocketType.Pub);
            using Socket sub = Zmq.NewSocket(context, SocketType.Sub);
            sub.Connect(Transports.BindAnywhere(pub, transport));
            sub.Subscribe(new byte[] { 0x00, 0x01 });
            sub.Subscribe("sync");
            Subscriptions.WaitUntilDelivered(pub, sub, "sync");

            pub.Send(new byte[] { 0x00, 0x02, 9 });
            pub.Send(new byte[] { 0x00, 0x01, 7 });
            pub.Send(new byte[] { 0x01, 0x00, 8 });
            pub.Send(new byte[] { 0x00, 0x01 });

            byte[] frame;
            do
            {
                frame = sub.RecvBytes();
            }
            while (frame.Length == 4 && frame[0] == (byte)'s');

            Assert.Equal(new byte[] { 0x00, 0x01, 7 }, frame);
            Assert.Equal(new byte[] { 0x00, 0x01 }, sub.RecvBytes());
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Send_TwoSubscribersWithDifferentPrefixes_EachGetsOnlyItsTopics(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket pub = Zmq.NewSocket(context, SocketType.Pub);
            using Socket cats = Zmq.NewSocket(context, SocketType.Sub);
            using Socket dogs = Zmq.NewSocket(context, SocketType.Sub);
            string endpoint = Transports.BindAnywhere(pub, transport);
            cats.Connect(endpoint);
            dogs.Connect(endpoint);
            cats.Subscribe("cat");
            cats.Subscribe("sync-cats");
            dogs.Subscribe("dog");
            dogs.Subscribe("sync-dogs");
            Subscriptions.WaitUntilDelivered(pub, cats, "sync-cats");
            Subscriptions.WaitUntilDelivered(pub, dogs, "sync-dogs");

            for (int i = 0; i < 10; i++)
            {
                pub.Send("cat " + i);
                pub.Send("dog " + i);
            }

            for (int i = 0; i < 10; i++)
            {
                Assert.Equal("cat " + i, Subscriptions.RecvSkipping(cats, "sync-cats"));
                Assert.Equal("dog " + i, Subscriptions.RecvSkipping(dogs, "sync-dogs"));
            }
        }
    }
}
