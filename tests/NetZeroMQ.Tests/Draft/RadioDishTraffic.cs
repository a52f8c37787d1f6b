using System;
using System.Text;
using System.Threading;
using NetZeroMQ.Draft;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Draft
{
    /// <summary>RADIO to DISH with one group joined ("weather") and one not ("sport").</summary>
    internal static class RadioDishTraffic
    {
        /// <summary>
        /// A join reaches a connected RADIO in the background (and udp drops what arrives before the DISH reads), so the RADIO
        /// publishes to both groups until a "weather" message arrives; afterwards no "sport" message may ever arrive.
        /// </summary>
        internal static void AssertJoinedGroupOnly(Socket radio, Socket dish)
        {
            using var received = new Message();
            var deadline = DateTime.UtcNow + TestTimeouts.Expected;
            int sent = 0;
            while (true)
            {
                Publish(radio, "sport", "goal " + sent);
                Publish(radio, "weather", "rain " + sent);
                sent++;
                if (dish.TryRecv(received, TimeSpan.FromMilliseconds(20)))
                {
                    break;
                }

                Assert.True(DateTime.UtcNow < deadline, "no weather message arrived");
            }

            do
            {
                Assert.Equal("weather", received.Group);
                Assert.StartsWith("rain ", Encoding.UTF8.GetString(received.Data));
            }
            while (dish.TryRecv(received, TestTimeouts.Absent));
        }

        /// <summary>
        /// Publishes empty messages to <paramref name="group"/> until one arrives (the join has reached the RADIO), then takes
        /// every one still on its way, so that the next message the DISH receives is the caller's first.
        /// </summary>
        internal static void WaitUntilJoined(Socket radio, Socket dish, string group)
        {
            using var received = new Message();
            var deadline = DateTime.UtcNow + TestTimeouts.Expected;
            do
            {
                Publish(radio, group, "");
                Assert.True(DateTime.UtcNow < deadline, "the DISH's join never reached the RADIO");
            }
            while (!dish.TryRecv(received, TimeSpan.FromMilliseconds(20)));

            while (dish.TryRecv(received, TestTimeouts.Absent))
            {
                Assert.Equal(0, received.Size);
            }
        }

        private static void Publish(Socket radio, string group, string text)
        {
            using var message = new Message(Encoding.UTF8.GetBytes(text));
            message.Group = group;
            radio.Send(message);
        }
    }
}
