using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.Extensions.Hosting;
using Xunit;

namespace NetZeroMQ.Hosting.Tests
{
    /// <summary>
    /// Every C# block of the package's pages (docs/hosting.md, the package readme) compiles as written against the package,
    /// NetZeroMQ and the Generic Host (the ASP.NET Core shared framework): NetZeroMQ.Tests' snippet test leaves these pages
    /// to this one, since it references NetZeroMQ alone. The blocks are hosts that run until stopped, so they are compiled, not run.
    /// </summary>
    public class HostingDocumentationTests
    {
        private static readonly string[] Pages = { "docs/hosting.md", "src/NetZeroMQ.Hosting/PACKAGE.md" };

        private static readonly Regex s_block = new Regex(@"^```csharp\s*\n(.*?)^```", RegexOptions.Singleline | RegexOptions.Multiline);

        public static TheoryData<string, int> CSharpBlocks()
        {
            var data = new TheoryData<string, int>();
            foreach (string page in Pages)
            {
                int index = 0;
                foreach (Match _ in s_block.Matches(File.ReadAllText(Path.Combine(Repository(), page))))
                {
                    data.Add(page, index++);
                }
            }

            return data;
        }

        [Fact]
        public void CSharpBlocks_BothPages_HaveBlocks()
        {
            var pages = CSharpBlocks().Select(row => (string)row[0]).Distinct().ToList();
            Assert.Equal(Pages, pages);
        }

        [Theory]
        [MemberData(nameof(CSharpBlocks))]
        public void CSharpBlock_CompiledAgainstThePackage_HasNoErrors(string page, int index)
        {
            string code = s_block.Matches(File.ReadAllText(Path.Combine(Repository(), page)))[index].Groups[1].Value;
            IReadOnlyList<string> errors = Compile(code);
            Assert.True(errors.Count == 0, page + " block " + index + ":\n" + string.Join("\n", errors));
        }

        /// <summary>
        /// As NetZeroMQ.Tests' SampleImportTests does for the other samples: each Hosting sample is one Program.cs that
        /// compiles, also with <c>using System.Net.Sockets;</c> added (its Socket and SocketType aliases keep it unambiguous).
        /// </summary>
        [Theory]
        [InlineData("HostingWorker")]
        [InlineData("HostingWebApi")]
        public void Sample_WithAndWithoutSystemNetSockets_Compiles(string sample)
        {
            string folder = Path.Combine(Repository(), "samples", sample);
            string code = File.ReadAllText(Path.Combine(folder, "Program.cs"));
            Assert.Empty(Compile(code));
            Assert.Empty(Compile("using System.Net.Sockets;\n" + code));
        }

        private static IReadOnlyList<string> Compile(string code)
        {
            var references = new[] { Path.GetDirectoryName(typeof(object).Assembly.Location)!, Path.GetDirectoryName(typeof(IHost).Assembly.Location)! }
                .SelectMany(folder => Directory.EnumerateFiles(folder, "*.dll"))
                .Append(typeof(Context).Assembly.Location)
                .Append(typeof(SocketFactory).Assembly.Location)
                .Concat(Directory.EnumerateFiles(AppContext.BaseDirectory, "OpenTelemetry*.dll"))
                .Where(IsManaged)
                .Select(path => (MetadataReference)MetadataReference.CreateFromFile(path));
            var compilation = CSharpCompilation.Create(
                "HostingDocumentationSnippet",
                new[] { CSharpSyntaxTree.ParseText(code) },
                references,
                new CSharpCompilationOptions(OutputKind.ConsoleApplication, nullableContextOptions: NullableContextOptions.Enable)
                    .WithSpecificDiagnosticOptions(new Dictionary<string, ReportDiagnostic> { ["CS1701"] = ReportDiagnostic.Suppress, ["CS1702"] = ReportDiagnostic.Suppress }));
            using var output = new MemoryStream();
            return compilation.Emit(output).Diagnostics.Where(d => d.Severity >= DiagnosticSeverity.Warning).Select(d => d.ToString()).ToList();
        }

        private static bool IsManaged(string path)
        {
            try
            {
                System.Reflection.AssemblyName.GetAssemblyName(path);
                return true;
            }
            catch (BadImageFormatException)
            {
                return false;
            }
        }

        private static string Repository()
        {
            for (DirectoryInfo? directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
            {
                if (File.Exists(Path.Combine(directory.FullName, "NetZeroMQ.sln")))
                {
                    return directory.FullName;
                }
            }

            throw new InvalidOperationException("The repository is not above " + AppContext.BaseDirectory);
        }
    }
}
