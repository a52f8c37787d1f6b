using System;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Documentation
{
    /// <summary>
    /// <see cref="Socket"/> and <see cref="SocketType"/> share their names with System.Net.Sockets, so a file that imports both
    /// namespaces gets CS0104 (ambiguous reference) unless it aliases them. Every sample carries the aliases, and these tests
    /// compile each one with <c>using System.Net.Sockets;</c> added, as a network application would have it (with unsafe code
    /// allowed, as in the samples' projects).
    /// </summary>
    public class SampleImportTests
    {
        private const string SystemNetSockets = "using System.Net.Sockets;\n";

        /// <summary>
        /// The NetZeroMQ.Hosting samples: they use the Generic Host and that package, which these compilations do not reference;
        /// tests/NetZeroMQ.Hosting.Tests (HostingDocumentationTests) compiles them the same way, with and without the import.
        /// </summary>
        public static readonly string[] CompiledByHostingTests = { "HostingWebApi", "HostingWorker" };

        public static TheoryData<string> Samples()
        {
            var data = new TheoryData<string>();
            foreach (string dir in Directory.GetDirectories(Path.Combine(Repository.Root, "samples")).OrderBy(d => d, StringComparer.Ordinal)
                .Where(d => !CompiledByHostingTests.Contains(Path.GetFileName(d))))
            {
                data.Add(Path.GetFileName(dir));
            }

            return data;
        }

        [Theory]
        [MemberData(nameof(Samples))]
        public void Sample_WithSystemNetSocketsImported_Compiles(string sample)
        {
            string folder = Path.Combine(Repository.Root, "samples", sample);
            string[] sources = Directory.GetFiles(folder, "*.cs", SearchOption.AllDirectories)
                .Where(f => !f.Contains(Path.DirectorySeparatorChar + "obj" + Path.DirectorySeparatorChar, StringComparison.Ordinal)
                    && !f.Contains(Path.DirectorySeparatorChar + "bin" + Path.DirectorySeparatorChar, StringComparison.Ordinal))
                .ToArray();
            Assert.Equal(new[] { Path.Combine(folder, "Program.cs") }, sources); // one file per sample: all of it is compiled here
            string code = File.ReadAllText(sources[0]);

            Assert.Empty(SnippetCompiler.Compile(code, allowUnsafe: true, out _));
            Assert.Empty(SnippetCompiler.Compile(SystemNetSockets + code, allowUnsafe: true, out _));
        }

        [Fact]
        public void Sample_WithoutTheAliases_IsAmbiguousNextToSystemNetSockets()
        {
            // The control for the test above: the problem the aliases solve is real.
            string code = File.ReadAllText(Path.Combine(Repository.Root, "samples", "QuickStart", "Program.cs"));
            string withoutAliases = Regex.Replace(code, @"^using (Socket|SocketType) = NetZeroMQ\.\1;\n", string.Empty, RegexOptions.Multiline);
            Assert.NotEqual(code, withoutAliases);

            Assert.Empty(SnippetCompiler.Compile(withoutAliases));
            Assert.Contains(SnippetCompiler.Compile(SystemNetSockets + withoutAliases), e => e.Message.StartsWith("CS0104 ", StringComparison.Ordinal));
        }

        [Fact]
        public void PublicTypes_NamedAsInSystemNetSockets_AreSocketAndSocketTypeOnly()
        {
            // What the README's note and the samples' aliases cover: a new public type with such a name needs an alias too.
            // The namespace is spread over more than one assembly (SocketError and AddressFamily are in the primitives).
            var netSockets = new[] { typeof(System.Net.Sockets.Socket), typeof(System.Net.Sockets.SocketType), typeof(System.Net.Sockets.SocketError) }
                .Select(t => t.Assembly).Distinct().SelectMany(a => a.GetExportedTypes())
                .Where(t => t.Namespace == "System.Net.Sockets").Select(t => t.Name).ToHashSet();
            Assert.Contains("TcpClient", netSockets);
            Assert.Contains("SocketError", netSockets);

            string[] shared = typeof(Socket).Assembly.GetExportedTypes()
                .Where(t => t.Namespace == "NetZeroMQ" && netSockets.Contains(t.Name)).Select(t => t.Name).OrderBy(n => n, StringComparer.Ordinal).ToArray();

            Assert.Equal(new[] { "Socket", "SocketType" }, shared);
        }
    }
}
