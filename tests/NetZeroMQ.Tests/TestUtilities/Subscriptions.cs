using System;
using System.Diagnostics;
using System.Text;
using Xunit;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// Works around PUB/SUB's slow-joiner problem without sleeping for a guessed time: a subscription reaches the publisher
    /// some time after Subscribe returns, and everything published before that is silently dropped.
    /// </summary>
    public static class Subscriptions
    {
        private static readonly TimeSpan s_probeInterval = TimeSpan.FromMilliseconds(20);

        /// <summary>
        /// Publishes <paramref name="probe"/> again and again until <paramref name="sub"/> receives one, bounded by
        /// <see cref="TestTimeouts.Expected"/>. After it returns, the publisher has applied every subscription that
        /// <paramref name="sub"/> made before subscribing to the probe (subscriptions travel in order on one connection).
        /// More copies of the probe may still be on their way; skip them with <see cref="RecvSkipping"/>.
        /// </summary>
        public static void WaitUntilDelivered(Socket pub, Socket sub, string probe)
        {
            TimeSpan original = sub.ReceiveTimeout;
            sub.ReceiveTimeout = s_probeInterval;
            var clock = Stopwatch.StartNew();
            try
            {
                while (clock.Elapsed < TestTimeouts.Expected)
                {
                    pub.Send(probe);
                    try
                    {
                        string received = sub.RecvString();
                        Assert.Equal(probe, received);
                        return;
                    }
                    catch (ZmqException e) when (e.IsTimeout)
                    {
                        // Not subscribed yet: publish the probe again.
                    }
                }
            }
            finally
            {
                sub.ReceiveTimeout = original;
            }

            Assert.Fail("The subscriber never received '" + probe + "' within " + TestTimeouts.Expected + ".");
        }

        /// <summary>Receives the next frame that is not a copy of <paramref name="probe"/> left over from the probing.</summary>
        public static string RecvSkipping(Socket sub, string probe)
        {
            while (true)
            {
                string text = sub.RecvString();
                if (text != probe)
                {
                    return text;
                }
            }
        }

        /// <summary>A subscription message as XSUB sends and XPUB receives it: 1 (subscribe) or 0 (unsubscribe), then the topic.</summary>
        public static byte[] Message(bool subscribe, string topic)
        {
            byte[] bytes = new byte[1 + Encoding.UTF8.GetByteCount(topic)];
            bytes[0] = subscribe ? (byte)1 : (byte)0;
            Encoding.UTF8.GetBytes(topic, 0, topic.Length, bytes, 1);
            return bytes;
        }
    }
}
