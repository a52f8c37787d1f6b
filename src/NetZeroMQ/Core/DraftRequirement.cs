using System;

namespace NetZeroMQ
{
    /// <summary>
    /// Whether the loaded libzmq was built with the draft API (<c>zmq_has("draft")</c>), and the one
    /// <see cref="NotSupportedException"/> every draft member throws when it was not: the draft socket options here in the core,
    /// the draft sockets and functions in <c>Draft/</c>.
    /// </summary>
    internal static class DraftRequirement
    {
        // 0: not asked yet, 1: draft, 2: no draft. The answer never changes once libzmq is loaded.
        private static int s_state;

        /// <summary>Whether the loaded libzmq reports the draft capability; asked once.</summary>
        internal static bool HasDraftApi
        {
            get
            {
                if (s_state == 0)
                {
                    s_state = Libzmq.Has("draft") ? 1 : 2;
                }

                return s_state == 1;
            }
        }

        /// <summary>Throws <see cref="Missing"/> for <paramref name="what"/> unless the loaded libzmq has the draft API.</summary>
        internal static void ThrowIfMissing(string what)
        {
            if (!HasDraftApi)
            {
                throw Missing(what, "have (zmq_has(\"draft\") is false)", string.Empty);
            }
        }

        /// <summary>The exception: names what needed the draft API, the loaded libzmq and how to get one that has it.</summary>
        /// <param name="what">What needed it ("Socket option RouterNotify", "Socket type Server").</param>
        /// <param name="lacks">How the library lacks it, after "does not": "export", "have ...".</param>
        /// <param name="advice">Advice appended to the standard one, or empty.</param>
        internal static NotSupportedException Missing(string what, string lacks, string advice) =>
            new NotSupportedException(
                what + " needs libzmq's draft API, which the loaded libzmq " + Libzmq.Version + " ('" + Libzmq.LoadedFrom + "') does not " +
                lacks + ". Use a libzmq built with --enable-drafts / -DENABLE_DRAFTS=ON" + advice + ".");
    }
}
