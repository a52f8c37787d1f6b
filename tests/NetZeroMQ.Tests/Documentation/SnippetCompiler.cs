using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace NetZeroMQ.Tests.Documentation
{
    /// <summary>
    /// Compiles a documentation snippet exactly as written, the way a user who pastes it into a new project would: no usings
    /// added, nullable on, warnings as errors, C# 12 (what a net8.0 project gets), referencing the framework and NetZeroMQ's
    /// public surface only (never this test assembly or anything else it loads). A block with statements at the top is a
    /// program; a block of type declarations only is a library.
    /// </summary>
    public static class SnippetCompiler
    {
        private static readonly CSharpParseOptions s_parseOptions = new(LanguageVersion.CSharp12);
        private static readonly IReadOnlyList<MetadataReference> s_references = LoadReferences();

        /// <summary>True when the block has statements at the top (a program), false for type declarations only.</summary>
        public static bool IsProgram(string code) =>
            CSharpSyntaxTree.ParseText(code, s_parseOptions).GetCompilationUnitRoot().Members.OfType<GlobalStatementSyntax>().Any();

        /// <summary>The compiler's errors (warnings count as errors): the snippet's 1-based line and "CSxxxx message".</summary>
        public static IReadOnlyList<(int Line, string Message)> Compile(string code) => Compile(code, out _);

        /// <summary>As <see cref="Compile(string)"/>, and the assembly's image when there are no errors.</summary>
        public static IReadOnlyList<(int Line, string Message)> Compile(string code, out byte[]? image) => Compile(code, allowUnsafe: false, out image);

        /// <summary>As <see cref="Compile(string, out byte[])"/>, with unsafe code allowed or not (the samples' projects allow it).</summary>
        public static IReadOnlyList<(int Line, string Message)> Compile(string code, bool allowUnsafe, out byte[]? image)
        {
            SyntaxTree tree = CSharpSyntaxTree.ParseText(code, s_parseOptions);
            var options = new CSharpCompilationOptions(
                IsProgram(code) ? OutputKind.ConsoleApplication : OutputKind.DynamicallyLinkedLibrary,
                allowUnsafe: allowUnsafe,
                nullableContextOptions: NullableContextOptions.Enable,
                generalDiagnosticOption: ReportDiagnostic.Error,
                warningLevel: 9999,
                // The SDK's own NoWarn: binding-redirect notes about NetZeroMQ's net8.0 references on a newer framework.
                specificDiagnosticOptions: new Dictionary<string, ReportDiagnostic> { ["CS1701"] = ReportDiagnostic.Suppress, ["CS1702"] = ReportDiagnostic.Suppress });
            // Named after nothing that NetZeroMQ grants InternalsVisibleTo: a snippet sees the public API only.
            CSharpCompilation compilation = CSharpCompilation.Create("DocumentationSnippet", new[] { tree }, s_references, options);
            using var output = new MemoryStream();
            var errors = compilation.Emit(output).Diagnostics
                .Where(d => d.Severity == DiagnosticSeverity.Error)
                .Select(d => (d.Location.GetLineSpan().StartLinePosition.Line + 1, d.Id + " " + d.GetMessage()))
                .ToList();
            image = errors.Count == 0 ? output.ToArray() : null;
            return errors;
        }

        private static IReadOnlyList<MetadataReference> LoadReferences()
        {
            // The shared framework this test runs on (every managed assembly of it), and the NetZeroMQ build it references.
            string framework = RuntimeEnvironment.GetRuntimeDirectory();
            var paths = Directory.EnumerateFiles(framework, "*.dll").Where(IsManagedAssembly).ToList();
            paths.Add(typeof(Context).Assembly.Location);
            return paths.Select(path => (MetadataReference)MetadataReference.CreateFromFile(path)).ToList();
        }

        private static bool IsManagedAssembly(string path)
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
    }
}
