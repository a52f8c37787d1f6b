using System;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    /// <summary>The address grammar of each transport, beside the libzmq 4.3.4 reader (file named) whose quirks it guards against.</summary>
    internal static partial class EndpointSyntax
    {
        /// <summary>
        /// <c>sizeof (sockaddr_un.sun_path)</c>: 104 on macOS and the BSDs, 108 on Linux and Windows. libzmq refuses a path
        /// that does not fit with its NUL (ENAMETOOLONG, ipc_address.cpp), but its bind first unlinks whatever file has that path.
        /// </summary>
        private static readonly int s_ipcPathSize =
            RuntimeInformation.IsOSPlatform(OSPlatform.OSX) || RuntimeInformation.IsOSPlatform(OSPlatform.Create("FREEBSD")) ? 104 : 108;

        /// <summary>
        /// <c>host:port</c>, or on connect <c>source:port;peer:port</c> (tcp_address.cpp splits at the last ';'). A bind reads the
        /// source form too and then ignores the source, so it is refused there.
        /// </summary>
        private static string? Tcp(ReadOnlySpan<char> address, EndpointUse use)
        {
            int semicolon = address.LastIndexOf(';');
            if (semicolon < 0)
            {
                return HostPort(address, use == EndpointUse.Connect ? HostRules.Peer : HostRules.Local);
            }

            ReadOnlySpan<char> source = address.Slice(0, semicolon);
            if (source.IndexOf(';') >= 0)
            {
                return "there is more than one ';' (the form is tcp://source:port;peer:port)";
            }

            if (use == EndpointUse.Bind)
            {
                return "a source address before ';' is for Connect only (libzmq's bind would ignore it)";
            }

            return In("the source address (before ';')", HostPort(source, HostRules.Source))
                ?? In("the peer address (after ';')", HostPort(address.Slice(semicolon + 1), HostRules.Peer));
        }

        /// <summary>
        /// <c>host:port</c> then an optional <c>/path</c> of one segment. ws_address.cpp splits the path off at the last '/'
        /// and the port at the last ':', so <c>ws://h:1/a/b</c> listens on <c>/b</c> and a ':' in the path moves the port.
        /// </summary>
        private static string? WebSocket(ReadOnlySpan<char> address, EndpointUse use)
        {
            int slash = address.IndexOf('/');
            ReadOnlySpan<char> hostPort = slash < 0 ? address : address.Slice(0, slash);
            string? problem = HostPort(hostPort, use == EndpointUse.Connect ? HostRules.Peer : HostRules.Local);
            if (problem is not null || slash < 0)
            {
                return problem;
            }

            foreach (char c in address.Slice(slash + 1))
            {
                if (c == '/')
                {
                    return "the ws path has more than one segment, and libzmq 4.3 would keep only the last (ws://host:port/a/b listens on /b)";
                }

                // RFC 3986 path characters, without ':' (libzmq would take the port from after it).
                if (!IsAsciiLetterOrDigit(c) && "-._~!$&'()*+,;=@%".IndexOf(c) < 0)
                {
                    return "the ws path has only letters, digits and -._~!$&'()*+,;=@% after the '/'; '" + c + "' is not allowed";
                }
            }

            return null;
        }

        /// <summary>
        /// <c>[interface;]host:port</c> (udp_address.cpp): the optional interface before ';' has no port. Whether the address
        /// must be multicast, and the family, are libzmq's to check.
        /// </summary>
        private static string? Udp(ReadOnlySpan<char> address, EndpointUse use)
        {
            int semicolon = address.LastIndexOf(';');
            if (semicolon >= 0)
            {
                ReadOnlySpan<char> source = address.Slice(0, semicolon);
                if (source.IndexOf(';') >= 0)
                {
                    return "there is more than one ';' (the form is udp://interface;group:port)";
                }

                string? problem = In("the interface (before ';')", Host(source, HostRules.Local));
                if (problem is not null)
                {
                    return problem;
                }
            }

            return HostPort(address.Slice(semicolon + 1), use == EndpointUse.Connect ? HostRules.Peer : HostRules.Local);
        }

        /// <summary>
        /// A file path, <c>@name</c> for Linux's abstract namespace, or <c>*</c> for a fresh temporary path. ipc_listener.cpp
        /// takes any path that starts with '*' as the wildcard and ignores the rest.
        /// </summary>
        private static string? Ipc(ReadOnlySpan<char> path, EndpointUse use)
        {
            if (path[0] == '*')
            {
                if (path.Length > 1)
                {
                    return "libzmq reads an ipc path that starts with '*' as the wildcard and ignores the rest: write ipc://* alone";
                }

                return use == EndpointUse.Connect ? "ipc://* (a fresh temporary path) can only be bound; connect to the path LastEndpoint reports" : null;
            }

            if (path.Length == 1 && path[0] == '@')
            {
                return "the abstract socket name after '@' is empty";
            }

            int bytes = Utf8Length(path);
            return bytes < s_ipcPathSize
                ? null
                : "the ipc path is " + bytes + " bytes in UTF-8, and this system's limit is " + (s_ipcPathSize - 1) + " (sockaddr_un)";
        }

        /// <summary>
        /// <c>network:port</c>, the network in OpenPGM's syntax (<c>interface;group</c>). pgm_socket.cpp reads the port with
        /// <c>atoi</c>, and fails on port 0 without setting errno; a network of 255 bytes or more is refused.
        /// </summary>
        private static string? Pgm(ReadOnlySpan<char> address)
        {
            int colon = address.LastIndexOf(':');
            if (colon < 0)
            {
                return "there is no ':port' (the form is interface;group:port)";
            }

            if (Utf8Length(address.Slice(0, colon)) > 254)
            {
                return "the network before ':port' is longer than 254 bytes";
            }

            ReadOnlySpan<char> port = address.Slice(colon + 1);
            return IsNumber(port, 65535) ? null : PortProblem(port, string.Empty);
        }

        /// <summary>
        /// <c>[id,][interface;]address:port</c> (norm_engine.cpp): the id and port are read with <c>atoi</c>, the interface and
        /// address are cut at 255 bytes without an error, and an address NORM cannot use fails in libzmq's I/O thread, which
        /// aborts the process (an empty one, or an IPv6 address in brackets: NORM takes it without).
        /// </summary>
        private static string? Norm(ReadOnlySpan<char> address)
        {
            int comma = address.IndexOf(',');
            if (comma >= 0)
            {
                if (!IsNumber(address.Slice(0, comma), int.MaxValue))
                {
                    return "the NORM node id before ',' must be a number from 1 to 2147483647";
                }

                address = address.Slice(comma + 1);
            }

            int semicolon = address.IndexOf(';');
            if (semicolon >= 0)
            {
                int length = Utf8Length(address.Slice(0, semicolon));
                if (length == 0 || length > 255)
                {
                    return "the interface before ';' must have 1 to 255 bytes";
                }

                address = address.Slice(semicolon + 1);
            }

            int colon = address.LastIndexOf(':');
            if (colon < 0)
            {
                return "there is no ':port' after the address";
            }

            ReadOnlySpan<char> host = address.Slice(0, colon);
            ReadOnlySpan<char> port = address.Slice(colon + 1);
            if (host.IsEmpty)
            {
                return "the address before ':port' is empty";
            }

            if (host.IndexOf('[') >= 0 || host.IndexOf(']') >= 0)
            {
                return "NORM takes an IPv6 address without brackets (norm://ff02::1:5000)";
            }

            bool valid = host.IndexOf(':') >= 0 ? IsIPv6(host) : IsHostName(host) && host.Length <= MaxHostBytes;
            if (!valid)
            {
                return "the address before ':port' is not an IP address or host name";
            }

            return IsNumber(port, 65535) ? null : PortProblem(port, string.Empty);
        }

        /// <summary>
        /// <c>{type,lower,upper}</c> or <c>{type,instance}</c> (optionally <c>@zone.cluster.node</c>), <c>&lt;zone.cluster.node:ref&gt;</c>,
        /// or <c>&lt;*&gt;</c> for a random port identity (bind only). tipc_address.cpp reads them with <c>sscanf</c>, which
        /// accepts signs and ignores text after the match, and tests only the first three characters of <c>&lt;*&gt;</c>.
        /// </summary>
        private static string? Tipc(ReadOnlySpan<char> address, EndpointUse use)
        {
            if (Is(address, "<*>"))
            {
                return use == EndpointUse.Connect ? "tipc://<*> (a random port identity) can only be bound" : null;
            }

            int i = 0;
            bool valid = address[0] == '{'
                ? Skip(address, ref i, '{') && Number(address, ref i) && Skip(address, ref i, ',') && Number(address, ref i)
                  && (!Skip(address, ref i, ',') || Number(address, ref i)) && Skip(address, ref i, '}')
                  && (!Skip(address, ref i, '@') || (Number(address, ref i) && Skip(address, ref i, '.') && Number(address, ref i)
                                                      && Skip(address, ref i, '.') && Number(address, ref i)))
                : Skip(address, ref i, '<') && Number(address, ref i) && Skip(address, ref i, '.') && Number(address, ref i)
                  && Skip(address, ref i, '.') && Number(address, ref i) && Skip(address, ref i, ':') && Number(address, ref i)
                  && Skip(address, ref i, '>');
            return valid && i == address.Length
                ? null
                : "not a tipc address: {type,lower,upper}, {type,instance} (each optionally @zone.cluster.node), <zone.cluster.node:ref> or <*>, with numbers in digits only";

            static bool Skip(ReadOnlySpan<char> text, ref int at, char c)
            {
                if (at < text.Length && text[at] == c)
                {
                    at++;
                    return true;
                }

                return false;
            }

            static bool Number(ReadOnlySpan<char> text, ref int at)
            {
                int start = at;
                while (at < text.Length && text[at] >= '0' && text[at] <= '9')
                {
                    at++;
                }

                return IsNumberOrZero(text.Slice(start, at - start), uint.MaxValue);
            }
        }

        /// <summary>
        /// <c>cid:port</c> (vmci_address.cpp): each <c>*</c> or <c>-1</c> for any, the context id also <c>@</c> for the local
        /// one, else a number, which libzmq reads with <c>strtoul</c> without looking at what follows it.
        /// </summary>
        private static string? Vmci(ReadOnlySpan<char> address)
        {
            int colon = address.LastIndexOf(':');
            if (colon < 0)
            {
                return "there is no ':port' (the form is cid:port)";
            }

            ReadOnlySpan<char> cid = address.Slice(0, colon);
            ReadOnlySpan<char> port = address.Slice(colon + 1);
            if (!Is(cid, "@") && !IsAny(cid))
            {
                return "the VMCI context id must be @, *, -1 or a number in digits only";
            }

            return IsAny(port) ? null : "the VMCI port must be *, -1 or a number in digits only";

            static bool IsAny(ReadOnlySpan<char> text) => Is(text, "*") || Is(text, "-1") || IsNumberOrZero(text, uint.MaxValue);
        }
    }
}
