using System;
using System.Text;

namespace NetZeroMQ
{
    /// <summary>Which call an endpoint is for: it decides where wildcards and the source-address form are allowed.</summary>
    internal enum EndpointUse
    {
        /// <summary>Bind: a local address; the host or port may be <c>*</c>, port 0 picks a free port as <c>*</c> does.</summary>
        Bind,

        /// <summary>Connect: a peer address, for tcp optionally after a local source address (<c>tcp://source:port;peer:port</c>).</summary>
        Connect,

        /// <summary>
        /// Unbind and Disconnect. libzmq only looks the text up (either verb finds bound and connected endpoints alike), so text
        /// that Bind or Connect would accept is well-formed here, and one never used stays <see cref="ZmqError.EndpointNotFound"/>.
        /// </summary>
        Lookup,
    }

    /// <summary>
    /// The one reader of endpoint text before it reaches libzmq, called by Bind, Connect, Unbind and Disconnect.
    /// <para>
    /// Why: libzmq 4.3.4 reads a port with <c>atoi</c> and keeps 16 bits, so <c>tcp://127.0.0.1:-1</c> binds 65535,
    /// <c>:5555abc</c> binds and connects to 5555 and <c>:99999</c> binds 34463; it checks a tcp connect's address only loosely
    /// and resolves it in the background, so <c>tcp://[::1</c> "connects" and then fails quietly forever while Bind of the same
    /// text fails; and Unbind or Disconnect of <c>:5555abc</c> removes <c>:5555</c>. So malformed text is refused here, the same
    /// way on every verb, with an <see cref="ArgumentException"/> that quotes the endpoint and says what is wrong.
    /// </para>
    /// <para>
    /// What: syntax only. No DNS, no interface lookup, no check of which transports a socket type takes or whether the loaded
    /// libzmq has a transport: those stay libzmq's (<see cref="ZmqException"/>), and so does a transport this reader does not
    /// know (<see cref="ZmqError.ProtocolNotSupported"/>). The grammar per transport is in the other parts of this class, each
    /// rule beside the libzmq behaviour it guards against.
    /// </para>
    /// </summary>
    internal static partial class EndpointSyntax
    {
        /// <summary>An exception message quotes at most this many characters of the endpoint.</summary>
        private const int QuotedLength = 200;

        /// <summary>Throws <see cref="ArgumentNullException"/> or <see cref="ArgumentException"/> unless the text is well-formed.</summary>
        internal static void ThrowIfMalformed(string? endpoint, EndpointUse use)
        {
            if (endpoint is null)
            {
                throw new ArgumentNullException(nameof(endpoint));
            }

            string? problem = Check(endpoint, use);
            if (problem is not null)
            {
                ThrowMalformed(endpoint, problem);
            }
        }

        /// <summary>Null when <paramref name="endpoint"/> is well-formed for <paramref name="use"/>, else what is wrong with it.</summary>
        internal static string? Check(string endpoint, EndpointUse use)
        {
            if (endpoint.Length == 0)
            {
                return "it is empty";
            }

            string? problem = CheckCharacters(endpoint);
            if (problem is not null)
            {
                return problem;
            }

            // libzmq splits at the first "://" (socket_base_t::parse_uri).
            int separator = endpoint.IndexOf("://", StringComparison.Ordinal);
            if (separator < 0)
            {
                return "there is no '://' between the transport and the address (as in tcp://127.0.0.1:5555)";
            }

            if (separator == 0)
            {
                return "the transport before '://' is empty";
            }

            ReadOnlySpan<char> transport = endpoint.AsSpan(0, separator);
            ReadOnlySpan<char> address = endpoint.AsSpan(separator + 3);
            if (address.IsEmpty)
            {
                return "the address after '://' is empty";
            }

            return Is(transport, "tcp") ? Tcp(address, use)
                : Is(transport, "ipc") ? Ipc(address, use)
                : Is(transport, "inproc") ? null // any non-empty name; libzmq keeps it as given, without a length limit
                : Is(transport, "ws") || Is(transport, "wss") ? WebSocket(address, use)
                : Is(transport, "udp") ? Udp(address, use)
                : Is(transport, "pgm") || Is(transport, "epgm") ? Pgm(address)
                : Is(transport, "norm") ? Norm(address)
                : Is(transport, "tipc") ? Tipc(address, use)
                : Is(transport, "vmci") ? Vmci(address)
                : null; // unknown to this reader: libzmq answers ProtocolNotSupported, or handles a transport added after 4.3
        }

        /// <summary>
        /// A NUL would end the C string early (libzmq would act on the text before it), and an unpaired surrogate would reach
        /// libzmq as U+FFFD (two different inproc names would become one), so neither may appear anywhere.
        /// </summary>
        private static string? CheckCharacters(string endpoint)
        {
            for (int i = 0; i < endpoint.Length; i++)
            {
                char c = endpoint[i];
                if (c == '\0')
                {
                    return "it contains a NUL character, where libzmq would cut it";
                }

                if (char.IsSurrogate(c))
                {
                    if (char.IsHighSurrogate(c) && i + 1 < endpoint.Length && char.IsLowSurrogate(endpoint[i + 1]))
                    {
                        i++;
                        continue;
                    }

                    return "it contains an unpaired UTF-16 surrogate at index " + i + ", which libzmq would receive as U+FFFD";
                }
            }

            return null;
        }

        private static void ThrowMalformed(string endpoint, string problem)
        {
            string quoted = endpoint.Length <= QuotedLength
                ? "'" + endpoint + "'"
                : "'" + endpoint.Substring(0, QuotedLength) + "...' (" + endpoint.Length + " characters)";
            throw new ArgumentException("Malformed endpoint " + quoted + ": " + problem + ".", nameof(endpoint));
        }

        private static bool Is(ReadOnlySpan<char> text, string value) => text.SequenceEqual(value.AsSpan());

        /// <summary>Prefixes a part's problem with the part's name, or passes null through.</summary>
        private static string? In(string part, string? problem) => problem is null ? null : part + ": " + problem;

        /// <summary>
        /// True for a canonical decimal number from 1 to <paramref name="max"/>: digits only, no sign, space or leading zero.
        /// libzmq's readers (<c>atoi</c>, <c>sscanf %u</c>, <c>strtoul</c>) accept more and read it differently.
        /// </summary>
        private static bool IsNumber(ReadOnlySpan<char> text, uint max)
        {
            if (text.IsEmpty || text.Length > 10 || text[0] == '0')
            {
                return false;
            }

            ulong value = 0;
            foreach (char c in text)
            {
                if (c < '0' || c > '9')
                {
                    return false;
                }

                value = value * 10 + (uint)(c - '0');
            }

            return value <= max;
        }

        /// <summary><see cref="IsNumber"/>, or exactly "0".</summary>
        private static bool IsNumberOrZero(ReadOnlySpan<char> text, uint max) =>
            (text.Length == 1 && text[0] == '0') || IsNumber(text, max);

        private static unsafe int Utf8Length(ReadOnlySpan<char> text)
        {
            if (text.IsEmpty)
            {
                return 0;
            }

            fixed (char* p = text)
            {
                return Encoding.UTF8.GetByteCount(p, text.Length);
            }
        }
    }
}
