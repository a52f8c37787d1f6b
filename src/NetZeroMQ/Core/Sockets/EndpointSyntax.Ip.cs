using System;

namespace NetZeroMQ
{
    /// <summary>Hosts and ports, as tcp, ws and udp write them (libzmq's <c>ip_resolver_t</c> reads all three).</summary>
    internal static partial class EndpointSyntax
    {
        /// <summary>
        /// Longest host text, in UTF-8 bytes: a DNS name has at most 253 characters, a Windows interface's friendly name at most
        /// 255. Longer text can never resolve; libzmq would try anyway (a connect in the background, forever).
        /// </summary>
        private const int MaxHostBytes = 255;

        /// <summary>How a host:port is read.</summary>
        private enum HostRules
        {
            /// <summary>
            /// A local address (bind, and Unbind/Disconnect): <c>*</c>, an IP address, or an interface name, which on Windows may
            /// be a friendly name with spaces or other letters (libzmq compares it with the adapter's names); port <c>*</c> or 0.
            /// </summary>
            Local,

            /// <summary>
            /// The source address of a tcp connect (<c>source;peer</c>): <c>*</c>, an IP address, or an interface name, in the
            /// characters libzmq's connect accepts anywhere in the address (socket_base.cpp); port <c>*</c> or 0.
            /// </summary>
            Source,

            /// <summary>A peer to connect to: an IP address or a DNS name (letters, digits, '.', '-', '_'); port 1 to 65535.</summary>
            Peer,
        }

        /// <summary>
        /// <c>host:port</c>. libzmq takes the port after the last ':' (so an IPv6 address must be in brackets for the rest to be
        /// one host) and strips brackets only when they enclose the whole host.
        /// </summary>
        private static string? HostPort(ReadOnlySpan<char> text, HostRules rules)
        {
            int colon;
            if (!text.IsEmpty && text[0] == '[')
            {
                int close = text.IndexOf(']');
                if (close < 0)
                {
                    return "the '[' of an IPv6 address has no ']'";
                }

                if (close + 1 == text.Length || text[close + 1] != ':')
                {
                    return "after the ']' of an IPv6 address comes ':port'";
                }

                colon = close + 1;
            }
            else
            {
                colon = text.LastIndexOf(':');
                if (colon < 0)
                {
                    return text.IsEmpty ? "the host is empty" : "there is no ':port' after the host";
                }
            }

            return Host(text.Slice(0, colon), rules) ?? Port(text.Slice(colon + 1), rules);
        }

        private static string? Host(ReadOnlySpan<char> host, HostRules rules)
        {
            if (host.IsEmpty)
            {
                return "the host is empty";
            }

            if (host[0] == '[')
            {
                return host[host.Length - 1] == ']'
                    ? IpLiteral(host.Slice(1, host.Length - 2))
                    : "the '[' of an IPv6 address has no ']'";
            }

            if (host.Length == 1 && host[0] == '*')
            {
                return rules == HostRules.Peer ? "the wildcard host '*' can only be bound: connect to an address or a name" : null;
            }

            if (Utf8Length(host) > MaxHostBytes)
            {
                return "the host is longer than " + MaxHostBytes + " bytes";
            }

            foreach (char c in host)
            {
                string? problem = c switch
                {
                    ':' => "the host contains ':' (write an IPv6 address in brackets, as in tcp://[::1]:5555)",
                    '%' => "a zone index ('%') only follows an IPv6 address in brackets, as in [fe80::1%eth0]",
                    '[' or ']' => "'[' and ']' only enclose a whole IPv6 address",
                    ';' => "';' only separates a source address from the peer (tcp://source:port;peer:port, or udp://interface;group:port)",
                    '/' => "the host contains '/'",
                    _ => char.IsControl(c) ? "the host contains a control character" : null,
                };
                if (problem is not null)
                {
                    return problem;
                }
            }

            if (char.IsWhiteSpace(host[0]) || char.IsWhiteSpace(host[host.Length - 1]))
            {
                return "the host begins or ends with white space";
            }

            if (rules != HostRules.Local && !IsHostName(host))
            {
                return "a host name or IPv4 address has only ASCII letters, digits, '.', '-' and '_', and starts with a letter or digit";
            }

            return null;
        }

        /// <summary>The characters libzmq's tcp connect accepts for a name; the first must be a letter or digit.</summary>
        private static bool IsHostName(ReadOnlySpan<char> host)
        {
            if (!IsAsciiLetterOrDigit(host[0]))
            {
                return false;
            }

            foreach (char c in host)
            {
                if (!IsAsciiLetterOrDigit(c) && c != '.' && c != '-' && c != '_')
                {
                    return false;
                }
            }

            return true;
        }

        /// <summary>What brackets hold: an IPv6 address with an optional zone index, or (as libzmq also reads) an IPv4 address.</summary>
        private static string? IpLiteral(ReadOnlySpan<char> inner)
        {
            int percent = inner.IndexOf('%');
            ReadOnlySpan<char> address = percent < 0 ? inner : inner.Slice(0, percent);
            if (IsIPv6(address))
            {
                return percent < 0 ? null : Zone(inner.Slice(percent + 1));
            }

            if (IsIPv4(address))
            {
                return percent < 0 ? null : "a zone index ('%') is only for IPv6 addresses";
            }

            return "the brackets hold '" + address.ToString() + "', which is not an IPv6 address";
        }

        /// <summary>
        /// libzmq reads a zone that starts with a letter as an interface name (<c>if_nametoindex</c>) and any other with
        /// <c>atoi</c>, so <c>%-1</c> would become scope 4294967295 and <c>%1x</c> scope 1.
        /// </summary>
        private static string? Zone(ReadOnlySpan<char> zone)
        {
            if (zone.IsEmpty)
            {
                return "the zone index after '%' is empty";
            }

            bool valid = IsAsciiLetter(zone[0]) ? IsHostName(zone) && zone.Length <= MaxHostBytes : IsNumber(zone, int.MaxValue);
            return valid ? null : "the zone index after '%' is an interface name (starting with a letter) or a number from 1 to 2147483647";
        }

        private static string? Port(ReadOnlySpan<char> port, HostRules rules)
        {
            if (port.Length == 1 && (port[0] == '*' || port[0] == '0'))
            {
                return rules != HostRules.Peer
                    ? null
                    : "port " + port[0] + " (a free port chosen by the system) can only be bound; connect to the port LastEndpoint reports";
            }

            return IsNumber(port, 65535) ? null : PortProblem(port, rules != HostRules.Peer ? "*, 0 or " : string.Empty);
        }

        /// <summary>The message for a bad port, with what libzmq would have made of it (<c>atoi</c>, then 16 bits).</summary>
        private static string PortProblem(ReadOnlySpan<char> port, string alternatives)
        {
            string problem = port.IsEmpty
                ? "the port after ':' is empty"
                : "the port must be " + alternatives + "a number from 1 to 65535 in digits only, with no sign, space, leading zero " +
                  "or text after it: '" + port.ToString() + "' is not";
            int reading = AtoiPort(port);
            return reading == 0 ? problem : problem + " (libzmq 4.3 would quietly use port " + reading + ")";
        }

        /// <summary>What <c>(uint16_t) atoi (port)</c> gives for short text, as libzmq reads tcp, ws, udp, pgm and norm ports; 0 if none.</summary>
        private static int AtoiPort(ReadOnlySpan<char> text)
        {
            int i = 0;
            while (i < text.Length && (text[i] == ' ' || (text[i] >= '\t' && text[i] <= '\r')))
            {
                i++;
            }

            bool negative = i < text.Length && text[i] == '-';
            if (i < text.Length && (text[i] == '-' || text[i] == '+'))
            {
                i++;
            }

            // Up to nine significant digits; beyond that atoi overflows differently per C library, so no reading is claimed.
            long value = 0;
            int digits = 0;
            for (; i < text.Length && text[i] >= '0' && text[i] <= '9'; i++)
            {
                value = value * 10 + (text[i] - '0');
                if (value != 0 && ++digits > 9)
                {
                    return 0;
                }
            }

            return (ushort)(negative ? -value : value);
        }

        /// <summary>An IPv6 address in the text forms <c>inet_pton</c> reads: eight groups of 1 to 4 hex digits, one "::" for
        /// a run of zero groups, and optionally an IPv4 address as the last two groups.</summary>
        private static bool IsIPv6(ReadOnlySpan<char> text)
        {
            int groups = 0;
            bool compressed = false;
            int i = 0;
            if (text.Length >= 2 && text[0] == ':' && text[1] == ':')
            {
                compressed = true;
                i = 2;
            }

            while (i < text.Length)
            {
                int start = i;
                while (i < text.Length && IsHexDigit(text[i]))
                {
                    i++;
                }

                if (i < text.Length && text[i] == '.')
                {
                    // The IPv4 tail ends the address.
                    if (groups > 6 || !IsIPv4(text.Slice(start)))
                    {
                        return false;
                    }

                    groups += 2;
                    break;
                }

                if (i == start || i - start > 4)
                {
                    return false;
                }

                groups++;
                if (i == text.Length)
                {
                    break;
                }

                if (text[i] != ':' || ++i == text.Length)
                {
                    return false; // a character that is not ':' or a hex digit, or a single ':' at the end
                }

                if (text[i] == ':')
                {
                    if (compressed)
                    {
                        return false;
                    }

                    compressed = true;
                    i++;
                }
            }

            return compressed ? groups <= 7 : groups == 8;
        }

        /// <summary>Four decimal numbers 0 to 255 separated by '.', without leading zeros (as <c>inet_pton</c> reads them).</summary>
        private static bool IsIPv4(ReadOnlySpan<char> text)
        {
            for (int part = 0; part < 4; part++)
            {
                int dot = part < 3 ? text.IndexOf('.') : text.Length;
                if (dot < 0 || !IsNumberOrZero(text.Slice(0, dot), 255))
                {
                    return false;
                }

                text = part < 3 ? text.Slice(dot + 1) : ReadOnlySpan<char>.Empty;
            }

            return true;
        }

        private static bool IsAsciiLetter(char c) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

        private static bool IsAsciiLetterOrDigit(char c) => IsAsciiLetter(c) || (c >= '0' && c <= '9');

        private static bool IsHexDigit(char c) => (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
