using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Architecture
{
    /// <summary>
    /// No handler of a <c>catch (X e) when (...)</c> reads <c>e</c>, in any C# file of the repository: the .NET 10 JIT can
    /// lose the variable the filter assigns (src/NetZeroMQ/README.md, "Exception filters").
    /// </summary>
    public class ExceptionFilterTests
    {
        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async System.Threading.Tasks.Task NoFilteredHandler_ReadsTheFiltersVariable()
        {
            await System.Threading.Tasks.Task.Yield();
            string[] files = Repository.TrackedFiles().Where(f => f.EndsWith(".cs", StringComparison.Ordinal)).ToArray();
            Assert.Contains("src/NetZeroMQ/Core/Sockets/Socket.Multipart.Recv.cs", files);
            List<string> offenders = files
                .SelectMany(f => HandlersReadingTheFiltersVariable(File.ReadAllText(Path.Combine(Repository.Root, f)))
                    .Select(line => f + ":" + line))
                .ToList();
            Assert.True(offenders.Count == 0, "catch handlers that read their filter's variable:\n" + string.Join("\n", offenders));
        }

        [Fact]
        public void Checker_FindsAHandlerThatReadsTheVariable_AndOnlyThat()
        {
            // The checker itself must be able to fail.
            const string source = @"
class C
{
    void M()
    {
        try { } catch (System.Exception e) when (e is System.IO.IOException) { System.Console.WriteLine(e); }
        try { } catch (System.Exception e) when (e is System.IO.IOException) { }
        try { } catch (System.Exception e) { if (e is System.IO.IOException) { throw; } }
        try { } catch (System.Exception) when (true) { }
    }
}";
            Assert.Equal(new[] { 6 }, HandlersReadingTheFiltersVariable(source));
        }

        /// <summary>
        /// The 1-based lines of the filtered catch clauses in <paramref name="source"/> whose block names the variable, in the
        /// code of either target (the library builds for net8.0 and netstandard2.0).
        /// </summary>
        private static IEnumerable<int> HandlersReadingTheFiltersVariable(string source) =>
            new[] { new[] { "NET", "NET8_0_OR_GREATER" }, Array.Empty<string>() }
                .SelectMany(symbols => HandlersReadingTheFiltersVariable(source, symbols))
                .Distinct()
                .OrderBy(line => line);

        private static IEnumerable<int> HandlersReadingTheFiltersVariable(string source, string[] symbols)
        {
            var tree = CSharpSyntaxTree.ParseText(source, new CSharpParseOptions(LanguageVersion.Latest, preprocessorSymbols: symbols));
            foreach (CatchClauseSyntax clause in tree.GetRoot().DescendantNodes().OfType<CatchClauseSyntax>())
            {
                string? variable = clause.Declaration?.Identifier.ValueText;
                if (clause.Filter is null || string.IsNullOrEmpty(variable))
                {
                    continue;
                }

                if (clause.Block.DescendantNodes().OfType<IdentifierNameSyntax>().Any(n => n.Identifier.ValueText == variable))
                {
                    yield return tree.GetLineSpan(clause.Span).StartLinePosition.Line + 1;
                }
            }
        }
    }
}
