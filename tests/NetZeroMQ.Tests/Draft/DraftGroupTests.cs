using System;
using System.Collections.Generic;
using System.Text;
using NetZeroMQ.Draft;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Draft
{
    /// <summary>
    /// A message's group is kept checked and encoded once a group has been used (so a RADIO pays no encoding per message):
    /// whatever the library keeps, each message must carry exactly the group it was given, a DISH must read exactly the group
    /// that arrived, and a bad message or name must still be refused as it was before any group was kept.
    /// </summary>
    public class DraftGroupTests
    {
        [Fact]
        public void SetGroup_ManyGroupsInTurn_EachMessageArrivesWithItsOwnGroup()
        {
            using Context context = Zmq.NewContext();
            using Socket? dish = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Dish);
            if (dish is null)
            {
                return;
            }

            using Socket radio = DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Radio)!;
            radio.SetOption(SocketOptions.XPubNoDrop, true);

            // More groups than the library keeps, names that share their first and last letters and their length, names
            // over libzmq's 14-byte inline limit, the longest name, and names of several-byte UTF-8 characters.
            var groups = new List<string>();
            for (int i = 0; i < 24; i++)
            {
                groups.Add("g" + i + "g");
            }

            groups.Add("a-group-longer-than-fourteen-bytes");
            groups.Add(new string('x', DraftExtensions.MaxGroupLength));
            groups.Add("wetter-\u00fcber-m\u00fcnchen");
            groups.Add("\u5929\u6c14");
            foreach (string group in groups)
            {
                dish.Join(group);
            }

            radio.Connect(Transports.BindAnywhere(dish, "inproc"));
            RadioDishTraffic.WaitUntilJoined(radio, dish, groups[0]);

            using var outgoing = new Message();
            using var incoming = new Message();
            for (int round = 0; round < 3; round++)
            {
                for (int i = 0; i < groups.Count; i++)
                {
                    // A name equal to a kept one but another string object, every other time.
                    string group = round % 2 == 0 ? groups[i] : new string(groups[i].AsSpan());
                    outgoing.Rebuild(Encoding.UTF8.GetBytes(round + ":" + i));
                    outgoing.Group = group;
                    Assert.Equal(groups[i], outgoing.Group);
                    radio.Send(outgoing);

                    dish.Recv(incoming);
                    Assert.Equal(round + ":" + i, Encoding.UTF8.GetString(incoming.Data));
                    Assert.Equal(groups[i], incoming.Group);
                }
            }
        }

        [Fact]
        public void SetGroup_NameKeptFromEarlierMessages_BadMessageOrNameStillRefused()
        {
            using Context context = Zmq.NewContext();
            if (!DraftApi.IsAvailable)
            {
                Assert.Null(DraftSocketsFixture.NewOrAssertUnsupported(context, DraftSocketType.Radio));
                return;
            }

            using var message = new Message();
            message.Group = "kept";
            message.Group = "kept";
            var disposed = new Message();
            disposed.Dispose();

            Assert.Throws<ArgumentNullException>(() => DraftExtensions.SetGroup(null!, "kept"));
            Assert.Throws<ObjectDisposedException>(() => disposed.Group = "kept");
            Assert.Throws<ArgumentNullException>(() => message.Group = null!);
            Assert.Throws<ArgumentException>(() => message.Group = "");
            Assert.Throws<ArgumentException>(() => message.Group = "kept\0");
            Assert.Throws<ArgumentException>(() => message.Group = new string('k', DraftExtensions.MaxGroupLength + 1));
            Assert.Equal("kept", message.Group);
        }
    }
}
