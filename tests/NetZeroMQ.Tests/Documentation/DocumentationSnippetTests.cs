using System;
using System.Collections.Generic;
using System.Linq;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Documentation
{
    /// <summary>
    /// Every C# block in the repository's markdown (README.md, the package readme, docs, benchmark and sample notes) compiles as
    /// written against NetZeroMQ's public API: a reader who pastes one gets a program that builds, not a fragment with
    /// undefined names.
    /// </summary>
    public class DocumentationSnippetTests
    {
        /// <summary>
        /// The pages of the NetZeroMQ.Hosting package: their blocks use the Generic Host and that package, which these
        /// compilations do not reference; tests/NetZeroMQ.Hosting.Tests (HostingDocumentationTests) compiles them instead.
        /// </summary>
        public static readonly string[] CompiledByHostingTests = { "docs/hosting.md", "src/NetZeroMQ.Hosting/PACKAGE.md" };

        /// <summary>Each C# block as (file relative to the repository, line of its first code line).</summary>
        public static TheoryData<string, int> CSharpBlocks()
        {
            var data = new TheoryData<string, int>();
            foreach (MarkdownFile file in DocumentationFiles.All.Where(f => !CompiledByHostingTests.Contains(f.RelativePath)))
            {
                foreach (MarkdownCodeBlock block in file.CodeBlocks.Where(b => b.IsCSharp))
                {
                    data.Add(file.RelativePath, block.FirstLine);
                }
            }

            return data;
        }

        [Theory]
        [MemberData(nameof(CSharpBlocks))]
        public void CSharpBlock_CompiledAsWritten_HasNoErrors(string file, int firstLine)
        {
            MarkdownCodeBlock block = DocumentationFiles.Get(file).CodeBlocks.Single(b => b.FirstLine == firstLine);
            IReadOnlyList<(int Line, string Message)> errors = SnippetCompiler.Compile(block.Code);
            Assert.True(errors.Count == 0, "the C# block of " + file + " at line " + firstLine + " does not compile:\n"
                + string.Join("\n", errors.Select(e => "  " + file + ":" + (firstLine + e.Line - 1) + ": " + e.Message)));
        }

        /// <summary>The C# blocks that are programs (statements at the top), as (file, line of the first code line).</summary>
        public static TheoryData<string, int> CSharpPrograms()
        {
            var data = new TheoryData<string, int>();
            foreach (MarkdownFile file in DocumentationFiles.All.Where(f => !CompiledByHostingTests.Contains(f.RelativePath)))
            {
                foreach (MarkdownCodeBlock block in file.CodeBlocks.Where(b => b.IsCSharp && SnippetCompiler.IsProgram(b.Code)))
                {
                    data.Add(file.RelativePath, block.FirstLine);
                }
            }

            return data;
        }

        [Theory]
        [MemberData(nameof(CSharpPrograms))]
        public void CSharpProgramBlock_Run_EndsWithExitCodeZero(string file, int firstLine)
        {
            // A program block is also run, so that what it shows works, not only compiles (and ends by itself).
            MarkdownCodeBlock block = DocumentationFiles.Get(file).CodeBlocks.Single(b => b.FirstLine == firstLine);
            IReadOnlyList<(int Line, string Message)> errors = SnippetCompiler.Compile(block.Code, out byte[]? image);
            Assert.True(errors.Count == 0, file + ":" + firstLine + " does not compile (see CSharpBlock_CompiledAsWritten_HasNoErrors)");
            if (block.Code.Contains("Curve", StringComparison.Ordinal) && !LoadedLibzmq.HasCurve)
            {
                // Where libzmq has no CURVE, a program that uses it stops at the documented refusal.
                LoadedLibzmq.AssertCurveRefused(() => SnippetRunner.Run(image!, TestTimeouts.Expected * 3));
                return;
            }

            Assert.Equal(0, SnippetRunner.Run(image!, TestTimeouts.Expected * 3));
        }

        [Fact]
        public void CSharpBlocks_BothReadmes_AreAmongTheCheckedBlocks()
        {
            // Guards the discovery itself: if the fences or the package readme were missed, the theory above would pass on nothing.
            // The package readme is made of README.md's package regions, so its blocks are README.md's and are checked there.
            var blocks = CSharpBlocks().Select(row => (string)row[0]).ToList();
            Assert.True(blocks.Count(f => f == "README.md") >= 2, "README.md's quick start and receive blocks were not found");
            var readmeCode = DocumentationFiles.Get("README.md").CodeBlocks.Where(b => b.IsCSharp).Select(b => b.Code).ToList();
            var packageCode = DocumentationFiles.PackageReadme.CodeBlocks.Where(b => b.IsCSharp).Select(b => b.Code).ToList();
            Assert.NotEmpty(packageCode);
            Assert.All(packageCode, code => Assert.Contains(code, readmeCode));
        }

        [Fact]
        public void Compile_UndefinedName_ReportsTheErrorAndItsLine()
        {
            var errors = SnippetCompiler.Compile("using NetZeroMQ;\n\nusing var context = new Context();\nserver.SetCurveServer(serverKeys);\n");
            Assert.Contains(errors, e => e.Line == 4 && e.Message.StartsWith("CS0103 ", StringComparison.Ordinal) && e.Message.Contains("'server'"));
            Assert.Contains(errors, e => e.Line == 4 && e.Message.Contains("'serverKeys'"));
        }

        [Fact]
        public void Compile_MissingUsing_ReportsTheType()
        {
            // No usings are added: a block that forgets `using NetZeroMQ;` fails here as it would in the reader's project.
            var errors = SnippetCompiler.Compile("using var context = new Context();\n");
            Assert.Contains(errors, e => e.Line == 1 && e.Message.StartsWith("CS0246 ", StringComparison.Ordinal) && e.Message.Contains("'Context'"));
        }

        [Fact]
        public void Compile_InternalType_IsNotVisible()
        {
            // The test assembly sees NetZeroMQ's internals; a snippet must not.
            var errors = SnippetCompiler.Compile("class C { NetZeroMQ.UsageGuard _guard; }\n");
            Assert.Contains(errors, e => e.Message.StartsWith("CS0122 ", StringComparison.Ordinal) && e.Message.Contains("UsageGuard"));
        }

        [Fact]
        public void Compile_Warning_IsAnError()
        {
            // Nullable is on and warnings are errors, as in this repository's own projects.
            var errors = SnippetCompiler.Compile("string? text = null;\nSystem.Console.WriteLine(text.Length);\n");
            Assert.Contains(errors, e => e.Line == 2 && e.Message.StartsWith("CS8602 ", StringComparison.Ordinal));
        }

        [Fact]
        public void Run_ProgramThatThrows_RethrowsItsException()
        {
            Assert.Empty(SnippetCompiler.Compile("throw new System.InvalidOperationException(\"from the snippet\");\n", out byte[]? image));
            var e = Assert.Throws<InvalidOperationException>(() => SnippetRunner.Run(image!, TestTimeouts.Expected));
            Assert.Equal("from the snippet", e.Message);
        }

        [Fact]
        public void Run_ProgramThatDoesNotEnd_TimesOut()
        {
            Assert.Empty(SnippetCompiler.Compile("System.Threading.Thread.Sleep(3000);\n", out byte[]? image));
            Assert.Throws<TimeoutException>(() => SnippetRunner.Run(image!, TestTimeouts.Absent));
        }

        [Fact]
        public void Run_ProgramReturningCode_ReturnsIt()
        {
            Assert.Empty(SnippetCompiler.Compile("await System.Threading.Tasks.Task.Yield();\nreturn 3;\n", out byte[]? image));
            Assert.Equal(3, SnippetRunner.Run(image!, TestTimeouts.Expected));
        }

        [Fact]
        public void Compile_CompleteProgramAndLibrary_HaveNoErrors()
        {
            Assert.Empty(SnippetCompiler.Compile("using NetZeroMQ;\n\nusing var context = new Context();\nSystem.Console.WriteLine(Libzmq.Version);\n"));
            Assert.Empty(SnippetCompiler.Compile("using NetZeroMQ;\n\npublic static class Sender\n{\n    public static void Hello(Socket socket) => socket.Send(\"hello\");\n}\n"));
        }
    }
}
