using System;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// The endpoint reader on its own, for text the socket tests cannot use on this machine (other platforms' interface names,
    /// link-local zones, tipc, vmci, multicast) and for where each verb draws the line. <see cref="SocketEndpointsTests"/>
    /// shows the same reader in front of libzmq.
    /// </summary>
    public class EndpointSyntaxTests
    {
        /// <summary>Well-formed for the verbs named: B = Bind, C = Connect, L = Unbind/Disconnect (lookup).</summary>
        public static TheoryData<string, string> WellFormed => new TheoryData<string, string>
        {
            // tcp hosts
            { "tcp://127.0.0.1:5555", "BCL" },
            { "tcp://127.0.0.1:65535", "BCL" },
            { "tcp://127.0.0.1:1", "BCL" },
            { "tcp://*:5555", "BL" },
            { "tcp://*:*", "BL" },
            { "tcp://127.0.0.1:0", "BL" },
            { "tcp://eth0:5555", "BCL" },
            { "tcp://eth0.100:*", "BL" },
            { "tcp://br-1a2b_3c:*", "BL" },
            { "tcp://Ethernet 2:*", "BL" },               // a Windows friendly name: libzmq's bind compares it with the adapters'
            { "tcp://Local Area Connection* 12:*", "BL" },
            { "tcp://R\u00E9seau local:*", "BL" },
            { "tcp://server1.example.com:5555", "BCL" },
            { "tcp://server_1:5555", "BCL" },
            { "tcp://example.com.:5555", "BCL" },
            { "tcp://256.256.256.256:1", "BCL" },         // a name as far as text goes: resolution fails later, in libzmq
            { "tcp://" + new string('a', 255) + ":1", "BCL" },
            // tcp IPv6
            { "tcp://[::1]:5555", "BCL" },
            { "tcp://[::]:*", "BL" },
            { "tcp://[::]:5555", "BCL" },
            { "tcp://[0:0:0:0:0:0:0:1]:5555", "BCL" },
            { "tcp://[2001:db8::8a2e:370:7334]:5555", "BCL" },
            { "tcp://[2001:DB8:0:0:8:800:200C:417A]:5555", "BCL" },
            { "tcp://[1::]:5555", "BCL" },
            { "tcp://[1:2:3:4:5:6:7::]:5555", "BCL" },
            { "tcp://[::ffff:192.0.2.1]:5555", "BCL" },
            { "tcp://[1:2:3:4:5:6:1.2.3.4]:5555", "BCL" },
            { "tcp://[fe80::1%eth0]:5555", "BCL" },
            { "tcp://[fe80::1%2]:5555", "BCL" },
            { "tcp://[fe80::1%en0]:*", "BL" },
            { "tcp://[127.0.0.1]:5555", "BCL" },          // libzmq strips the brackets of an IPv4 address too
            // tcp source-address form (connect)
            { "tcp://127.0.0.1:0;127.0.0.1:5555", "CL" },
            { "tcp://eth1:0;server1:5555", "CL" },
            { "tcp://192.168.1.17:5555;192.168.1.1:5555", "CL" },
            { "tcp://*:*;[::1]:5555", "CL" },
            { "tcp://[::1]:0;[::1]:5555", "CL" },
            // ws
            { "ws://127.0.0.1:*", "BL" },
            { "ws://127.0.0.1:*/chat", "BL" },
            { "ws://127.0.0.1:5555/", "BCL" },
            { "ws://localhost:5555/a.b-c_d~e!$&'()*+,;=@%20", "BCL" },
            { "ws://[::1]:5555/x", "BCL" },
            { "wss://example.com:443/feed", "BCL" },
            // udp
            { "udp://127.0.0.1:5555", "BCL" },
            { "udp://*:5555", "BL" },
            { "udp://239.0.0.1:5555", "BCL" },
            { "udp://eth0;239.0.0.1:5555", "BCL" },
            { "udp://*;239.0.0.1:5555", "BCL" },
            { "udp://192.168.1.1;239.0.0.1:5555", "BCL" },
            { "udp://[::1];[ff02::1]:5555", "BCL" },
            // ipc
            { "ipc://*", "BL" },
            { "ipc:///tmp/feeds/0", "BCL" },
            { "ipc://relative name with spaces", "BCL" },
            { "ipc://@abstract", "BCL" },
            { "ipc:///" + new string('p', 102), "BCL" },   // 103 bytes: fits in sun_path everywhere (104 bytes on macOS, 108 on Linux)
            // inproc: any non-empty name, any length
            { "inproc://x", "BCL" },
            { "inproc://*", "BCL" },
            { "inproc://a b:c;d/e[f", "BCL" },
            { "inproc://" + new string('n', 100_000), "BCL" },
            { "inproc://\U0001F600", "BCL" },
            // multicast, tipc, vmci
            { "pgm://eth0;239.192.1.1:5555", "BCL" },
            { "epgm://127.0.0.1;239.192.1.1:5555", "BCL" },
            { "epgm://:5555", "BCL" },                     // OpenPGM picks the default interface and group
            { "norm://239.1.1.1:5555", "BCL" },
            { "norm://5,eth0;239.1.1.1:5555", "BCL" },
            { "norm://ff02::1:5555", "BCL" },
            { "tipc://{5560,0,0}", "BCL" },
            { "tipc://{5560,0}", "BCL" },
            { "tipc://{5560,0,0}@1.1.1", "BCL" },
            { "tipc://<1.1.1:123>", "BCL" },
            { "tipc://<*>", "BL" },
            { "vmci://*:*", "BCL" },
            { "vmci://@:5555", "BCL" },
            { "vmci://-1:-1", "BCL" },
            { "vmci://3:5555", "BCL" },
            // transports this reader does not know: libzmq answers ProtocolNotSupported (or serves one added later)
            { "bogus://x", "BCL" },
            { "TCP://127.0.0.1:-1", "BCL" },
            { " tcp://127.0.0.1:5555", "BCL" },
        };

        [Theory]
        [MemberData(nameof(WellFormed))]
        public void Check_WellFormedText_AcceptedForItsVerbsOnly(string endpoint, string verbs)
        {
            foreach ((EndpointUse use, char letter) in new[] { (EndpointUse.Bind, 'B'), (EndpointUse.Connect, 'C'), (EndpointUse.Lookup, 'L') })
            {
                string? problem = EndpointSyntax.Check(endpoint, use);
                if (verbs.Contains(letter))
                {
                    Assert.True(problem is null, use + ": " + problem);
                }
                else
                {
                    Assert.NotNull(problem);
                }
            }
        }

        /// <summary>Malformed for every verb, with a piece of the reason.</summary>
        public static TheoryData<string, string> Malformed => new TheoryData<string, string>
        {
            { "tcp://[::1%eth0]:5555x", "port" },
            { "tcp://[::1]:5555/x", "port" },
            { "tcp://[1:2:3:4:5:6:7:8::]:5555", "IPv6" },
            { "tcp://[1:2:3:4:5:6:7]:5555", "IPv6" },
            { "tcp://[1::2::3]:5555", "IPv6" },
            { "tcp://[12345::1]:5555", "IPv6" },
            { "tcp://[::1:]:5555", "IPv6" },
            { "tcp://[:1]:5555", "IPv6" },
            { "tcp://[::256.0.0.1]:5555", "IPv6" },
            { "tcp://[::1.2.3]:5555", "IPv6" },
            { "tcp://[::01.2.3.4]:5555", "IPv6" },
            { "tcp://[1:2:3:4:5:6:7:1.2.3.4]:5555", "IPv6" },
            { "tcp://[*]:5555", "IPv6" },
            { "tcp://[]:5555", "IPv6" },
            { "tcp://[fe80::1%1x]:5555", "zone" },
            { "tcp://[fe80::1%01]:5555", "zone" },
            { "tcp://[fe80::1%2147483648]:5555", "zone" },
            { "tcp://[fe80::1%eth 0]:5555", "zone" },
            { "tcp://eth0\t:5555", "control" },
            { "tcp://a/b:5555", "'/'" },
            { "tcp://127.0.0.1:1;;127.0.0.1:2", "';'" },
            { "tcp://" + new string('a', 256) + ":1", "255" },
            { "tcp://127.0.0.1:4294967297", "port" },
            { "tcp://127.0.0.1:\u0661\u0662", "port" },      // Arabic-Indic digits are not digits to atoi
            { "ws://127.0.0.1:5555/x/", "segment" },
            { "ws://127.0.0.1:5555/\u00E9", "path" },
            { "ws://127.0.0.1:5555;127.0.0.1:5556/x", "':'" },
            { "udp://239.0.0.1:5555;", "interface" },
            { "udp://eth0:1;239.0.0.1:5555", "':'" },
            { "udp://127.0.0.1", "':port'" },
            { "ipc://**", "wildcard" },
            { "ipc:///" + new string('p', 107), "bytes" },  // 108 bytes: no room for the NUL even in Linux's 108
            { "ipc:///" + new string('\u00E9', 60), "bytes" }, // 60 characters, 121 bytes in UTF-8
            { "pgm://eth0;239.192.1.1", "':port'" },
            { "pgm://eth0;239.192.1.1:*", "port" },
            { "norm://0,239.1.1.1:5555", "node id" },
            { "norm://;239.1.1.1:5555", "interface" },
            { "norm://239.1.1.1", "':port'" },
            { "norm://fe80::1::2:5555", "address" },
            { "norm://a b:5555", "address" },
            { "tipc://{1,2,3,4}", "tipc" },
            { "tipc://{1,2,3}@1.1", "tipc" },
            { "tipc://{1,2,3}@1.1.1x", "tipc" },
            { "tipc://{ 1,2,3}", "tipc" },
            { "tipc://{+1,2,3}", "tipc" },
            { "tipc://{4294967296,0,0}", "tipc" },
            { "tipc://<1.1.1:1>x", "tipc" },
            { "tipc://1000", "tipc" },
            { "vmci://:1", "context id" },
            { "vmci://1:", "port" },
            { "vmci://1", "':port'" },
            { "vmci://+1:1", "context id" },
            { "vmci://1:-2", "port" },
        };

        [Theory]
        [MemberData(nameof(Malformed))]
        public void Check_MalformedText_RefusedForEveryVerbWithAReason(string endpoint, string reason)
        {
            foreach (EndpointUse use in new[] { EndpointUse.Bind, EndpointUse.Connect, EndpointUse.Lookup })
            {
                string? problem = EndpointSyntax.Check(endpoint, use);
                Assert.NotNull(problem);
                Assert.Contains(reason, problem, StringComparison.Ordinal);
            }
        }

        [Theory]
        [InlineData("tcp://127.0.0.1:5555;", "Bind", "for Connect only")]
        [InlineData("tcp://127.0.0.1:5555;", "Connect", "the peer address (after ';'): the host is empty")]
        [InlineData("tcp://127.0.0.1:5555;", "Lookup", "the peer address (after ';'): the host is empty")]
        [InlineData("tcp://127.0.0.1:0;127.0.0.1:0", "Connect", "the peer address (after ';'): port 0")]
        [InlineData("tcp://host:1;127.0.0.1:2", "Connect", null)]
        [InlineData("tcp://Ethernet 2:0;127.0.0.1:2", "Connect", "the source address (before ';'): a host name")]
        public void Check_SourceAddressForm_ReadAsConnectText(string endpoint, string use, string? reason)
        {
            string? problem = EndpointSyntax.Check(endpoint, Enum.Parse<EndpointUse>(use));

            if (reason is null)
            {
                Assert.Null(problem);
            }
            else
            {
                Assert.Contains(reason, problem, StringComparison.Ordinal);
            }
        }

        [Theory]
        [InlineData("tcp://127.0.0.1:-1", "65535")]
        [InlineData("tcp://127.0.0.1:5555abc", "5555")]
        [InlineData("tcp://127.0.0.1: +80", "80")]
        [InlineData("tcp://127.0.0.1:070000", "4464")]
        [InlineData("ws://127.0.0.1:-5/x", "65531")]
        [InlineData("udp://127.0.0.1:131072x", "0")]
        [InlineData("tcp://127.0.0.1:00000000000005555x", "5555")]
        [InlineData("tcp://127.0.0.1:1234567890", "0")]
        public void Check_PortLibzmqWouldMisread_SaysWhichPortLibzmqWouldUse(string endpoint, string port)
        {
            string problem = EndpointSyntax.Check(endpoint, EndpointUse.Connect)!;

            if (port == "0")
            {
                // 131072 is 0 in 16 bits, which libzmq refuses; ten digits overflow atoi, which C libraries handle differently.
                Assert.DoesNotContain("would quietly use", problem, StringComparison.Ordinal);
            }
            else
            {
                Assert.Contains("libzmq 4.3 would quietly use port " + port + ")", problem, StringComparison.Ordinal);
            }
        }

        [Fact]
        public void ThrowIfMalformed_LongEndpoint_QuotesItsBeginningAndLength()
        {
            string endpoint = "tcp://" + new string('9', 100_000) + ":1";

            ArgumentException e = Assert.Throws<ArgumentException>(() => EndpointSyntax.ThrowIfMalformed(endpoint, EndpointUse.Bind));

            Assert.Equal("endpoint", e.ParamName);
            Assert.Contains("'" + endpoint.Substring(0, 200) + "...' (100008 characters): the host is longer than 255 bytes.", e.Message, StringComparison.Ordinal);
            Assert.True(e.Message.Length < 400, e.Message);
        }

        [Fact]
        public void Check_UnpairedSurrogateAnywhere_RefusedWithItsIndex()
        {
            Assert.Contains("surrogate at index 11", EndpointSyntax.Check("inproc://ab\uD800", EndpointUse.Bind), StringComparison.Ordinal);
            Assert.Contains("surrogate at index 9", EndpointSyntax.Check("inproc://\uDC00\uD800x", EndpointUse.Connect), StringComparison.Ordinal);
            Assert.Contains("surrogate at index 4", EndpointSyntax.Check("ipc:\uD800//x", EndpointUse.Lookup), StringComparison.Ordinal);
            Assert.Null(EndpointSyntax.Check("inproc://\uD800\uDC00", EndpointUse.Bind)); // a pair is one character, U+10000
        }

        [Fact]
        public void ThrowIfMalformed_Null_ThrowsArgumentNull()
        {
            Assert.Equal("endpoint", Assert.Throws<ArgumentNullException>(() => EndpointSyntax.ThrowIfMalformed(null, EndpointUse.Connect)).ParamName);
        }
    }
}
