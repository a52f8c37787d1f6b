using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Patterns
{
    public class XPubXSubTests
    {
        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Recv_SubSubscribesAndUnsubscribes_XPubGetsSubscriptionMessages(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket xpub = Zmq.NewSocket(context, SocketType.XPub);
            using Socket sub = Zmq.NewSocket(context, SocketType.Sub);
            sub.Connect(Transports.BindAnywhere(xpub, transport));

            sub.Subscribe("topic");
            Assert.Equal(Subscriptions.Message(true, "topic"), xpub.RecvBytes());
            Assert.False(xpub.HasMore);

            // The subscription has reached the publisher: no slow joiner from here on.
            xpub.Send("topic data");
            xpub.Send("other data");
            xpub.Send("topic end");
            Assert.Equal("topic data", sub.RecvString());
            Assert.Equal("topic end", sub.RecvString());

            sub.Unsubscribe("topic");
            Assert.Equal(Subscriptions.Message(false, "topic"), xpub.RecvBytes());
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void SendRecv_XSubSendsSubscriptionMessages_XPubGetsThemAndPublishes(string transport)
        {
            using Context context = Zmq.NewContext();
            using Socket xpub = Zmq.NewSocket(context, SocketType.XPub);
            using Socket xsub = Zmq.NewSocket(context, SocketType.XSub);
            xsub.Connect(Transports.BindAnywhere(xpub, transport));

            xsub.Send(Subscriptions.Message(true, "abc"));
            Assert.Equal(Subscriptions.Message(true, "abc"), xpub.RecvBytes());

            xpub.Send("abc-1");
            xpub.Send("xyz-1");
            xpub.Send("abc-2");
            Assert.Equal("abc-1", xsub.RecvString());
            Assert.Equal("abc-2", xsub.RecvString());

            xsub.Send(Subscriptions.Message(false, "abc"));
            Assert.Equal(Subscriptions.Message(false, "abc"), xpub.RecvBytes());
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Recv_DuplicateSubscription_PassedUpOnlyWhenVerbose(string transport)
        {
            Assert.Equal(new[] { "+dup", "+barrier" }, SubscriptionsSeen(transport, verbose: false));
            Assert.Equal(new[] { "+dup", "+dup", "+barrier" }, SubscriptionsSeen(transport, verbose: true));
        }

        [Theory]
        [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
        public void Recv_UnsubscribeWhileAnotherSubscriberRemains_PassedUpOnlyWhenVerboser(string transport)
        {
            if (!LoadedLibzmq.Has(SocketOptions.XPubVerboser))
            {
                // An option newer than the loaded libzmq (docs/libzmq-versions.md): refused naming both versions.
                using Context refusingContext = Zmq.NewContext();
                using Socket refusing = new Socket(refusingContext, SocketType.XPub);
                LoadedLibzmq.AssertRefused(SocketOptions.XPubVerboser, () => refusing.SetOption(SocketOptions.XPubVerboser, true));
                return;
            }

            Assert.Equal(new[] { "+dup", "+barrier", "-barrier" }, UnsubscriptionsSeen(transport, verboser: false));
            Assert.Equal(new[] { "+dup", "+dup", "+barrier", "-dup", "-barrier" }, UnsubscriptionsSeen(transport, verboser: true));
        }

        // Two subscribers subscribe to the same topic, then the second subscribes to "barrier". Subscriptions travel in order on
        // each connection, so when "+barrier" arrives the duplicate has been either passed up before it or dropped for good.
        private static string[] SubscriptionsSeen(string transport, bool verbose)
        {
            using Context context = Zmq.NewContext();
            using Socket xpub = Zmq.NewSocket(context, SocketType.XPub);
            using Socket first = Zmq.NewSocket(context, SocketType.Sub);
            using Socket second = Zmq.NewSocket(context, SocketType.Sub);
            xpub.SetOption(SocketOptions.XPubVerbose, verbose);
            string endpoint = Transports.BindAnywhere(xpub, transport);
            first.Connect(endpoint);
            second.Connect(endpoint);

            first.Subscribe("dup");
            var seen = new System.Collections.Generic.List<string> { Describe(xpub.RecvBytes()) };
            second.Subscribe("dup");
            second.Subscribe("barrier");
            do
            {
                seen.Add(Describe(xpub.RecvBytes()));
            }
            while (seen[^1] != "+barrier");

            return seen.ToArray();
        }

        private static string[] UnsubscriptionsSeen(string transport, bool verboser)
        {
            using Context context = Zmq.NewContext();
            using Socket xpub = Zmq.NewSocket(context, SocketType.XPub);
            using Socket first = Zmq.NewSocket(context, SocketType.Sub);
            using Socket second = Zmq.NewSocket(context, SocketType.Sub);
            xpub.SetOption(SocketOptions.XPubVerboser, verboser);
            string endpoint = Transports.BindAnywhere(xpub, transport);
            first.Connect(endpoint);
            second.Connect(endpoint);

            first.Subscribe("dup");
            var seen = new System.Collections.Generic.List<string> { Describe(xpub.RecvBytes()) };
            second.Subscribe("dup");
            second.Subscribe("barrier");
            do
            {
                seen.Add(Describe(xpub.RecvBytes()));
            }
            while (seen[^1] != "+barrier");

            // "first" still holds "dup": its removal by "second" is not news unless the XPUB is verboser.
            second.Unsubscribe("dup");
            second.Unsubscribe("barrier");
            do
            {
                seen.Add(Describe(xpub.RecvBytes()));
            }
            while (seen[^1] != "-barrier");

            return seen.ToArray();
        }

        private static string Describe(byte[] subscription)
        {
            Assert.NotEmpty(subscription);
            Assert.True(subscription[0] <= 1, "not a subscription message: first byte " + subscription[0]);
            return (subscription[0] == 1 ? "+" : "-") + System.Text.Encoding.UTF8.GetString(subscription, 1, subscription.Length - 1);
        }
    }
}
