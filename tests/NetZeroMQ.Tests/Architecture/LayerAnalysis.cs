using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace NetZeroMQ.Tests.Architecture
{
    /// <summary>
    /// Compiles the library's sources with Roslyn (the net8.0 view: NET defined, and the netstandard2.0 build's own files,
    /// <c>*.NetStandard.cs</c>, left out as the project file leaves them out of net8.0) and lists every place where a file uses a
    /// type or member declared in a folder its layer may not use, every feature file that adds to a type of a lower layer, and
    /// every use of a lower layer's non-public member that is not one of the declared ways in.
    /// </summary>
    internal static class LayerAnalysis
    {
        private static readonly string[] s_symbols = { "NET", "NETCOREAPP", "NET5_0_OR_GREATER", "NET6_0_OR_GREATER", "NET7_0_OR_GREATER", "NET8_0_OR_GREATER", "RELEASE" };

        internal static List<string> FindViolations(LayerRules rules, ISet<string> waysIn, ISet<string> wayInLayers)
        {
            var parse = new CSharpParseOptions(LanguageVersion.Latest, preprocessorSymbols: s_symbols);
            string[] files = Directory.GetFiles(LayerRules.LibraryRoot, "*.cs", SearchOption.AllDirectories)
                .Where(f => !IsBuildOutput(f) && !f.EndsWith(".NetStandard.cs", StringComparison.Ordinal))
                .OrderBy(f => f, StringComparer.Ordinal)
                .ToArray();
            SyntaxTree[] trees = files.Select(f => CSharpSyntaxTree.ParseText(File.ReadAllText(f), parse, f)).ToArray();
            var compilation = CSharpCompilation.Create(
                "LayerCheck",
                trees,
                PlatformReferences(),
                new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, allowUnsafe: true));

            var violations = new List<string>();
            foreach (SyntaxTree tree in trees)
            {
                string? folder = LayerRules.FolderOf(tree.FilePath);
                string name = Path.GetRelativePath(LayerRules.LibraryRoot, tree.FilePath).Replace('\\', '/');
                if (folder is null)
                {
                    violations.Add(name + ": a source file at the library's root belongs to no layer");
                    continue;
                }

                if (rules.LayerOf(folder) is null)
                {
                    violations.Add(name + ": folder '" + folder + "' is in no layer of src/NetZeroMQ/README.md");
                    continue;
                }

                SemanticModel model = compilation.GetSemanticModel(tree);
                CheckPartials(rules, tree, model, folder, name, violations);
                CheckReferences(rules, tree, model, folder, name, waysIn, wayInLayers, violations);
            }

            return violations.Distinct().ToList();
        }

        /// <summary>A type declared in one layer may not be extended by partial declarations in another.</summary>
        private static void CheckPartials(LayerRules rules, SyntaxTree tree, SemanticModel model, string folder, string name, List<string> violations)
        {
            foreach (TypeDeclarationSyntax declaration in tree.GetRoot().DescendantNodes().OfType<TypeDeclarationSyntax>())
            {
                if (model.GetDeclaredSymbol(declaration) is not INamedTypeSymbol type)
                {
                    continue;
                }

                foreach (string other in FoldersOf(type))
                {
                    // Reported on the side that extends a type of a layer it uses (the higher layer), once.
                    if (rules.LayerOf(other) != rules.LayerOf(folder) && rules.MayUse(folder, other))
                    {
                        violations.Add(name + ": partial " + type.Name + " is also declared in " + other + "/ (another layer): use that layer's way in instead");
                    }
                }
            }
        }

        private static void CheckReferences(
            LayerRules rules, SyntaxTree tree, SemanticModel model, string folder, string name, ISet<string> waysIn, ISet<string> wayInLayers, List<string> violations)
        {
            foreach (SimpleNameSyntax node in tree.GetRoot().DescendantNodes().OfType<SimpleNameSyntax>())
            {
                ISymbol? symbol = model.GetSymbolInfo(node).Symbol ?? model.GetSymbolInfo(node).CandidateSymbols.FirstOrDefault();
                if (symbol is null || symbol.Locations.All(l => !l.IsInSource)
                    || symbol.Kind is SymbolKind.Parameter or SymbolKind.Local or SymbolKind.RangeVariable or SymbolKind.Label or SymbolKind.TypeParameter or SymbolKind.Namespace)
                {
                    continue;
                }

                symbol = symbol.OriginalDefinition;
                string[] targets = FoldersOf(symbol).ToArray();
                if (targets.Length == 0 || targets.Contains(folder))
                {
                    continue;
                }

                int line = node.GetLocation().GetLineSpan().StartLinePosition.Line + 1;
                if (!targets.Any(t => rules.MayUse(folder, t)))
                {
                    violations.Add(name + ":" + line + ": uses " + Describe(symbol) + " from " + string.Join("/", targets) + "/, which layer " + rules.LayerOf(folder) + " may not use");
                    continue;
                }

                // Allowed layer, but a non-public member of a layer that is entered only through its way in.
                bool isMember = symbol is not INamedTypeSymbol && symbol.ContainingType is not null;
                if (isMember && symbol.DeclaredAccessibility != Accessibility.Public && rules.LayerOf(folder) != rules.LayerOf(targets[0])
                    && wayInLayers.Contains(rules.LayerOf(targets[0])!) && !waysIn.Contains(symbol.ContainingType!.Name + "." + symbol.Name))
                {
                    violations.Add(name + ":" + line + ": uses " + Describe(symbol) + ", a non-public member of " + targets[0] + "/ that is not a declared way in");
                }
            }
        }

        private static IEnumerable<string> FoldersOf(ISymbol symbol) =>
            symbol.Locations.Where(l => l.IsInSource && l.SourceTree is not null)
                .Select(l => LayerRules.FolderOf(l.SourceTree!.FilePath))
                .Where(f => f is not null)
                .Select(f => f!)
                .Distinct();

        private static string Describe(ISymbol symbol) =>
            symbol is INamedTypeSymbol ? symbol.Name : (symbol.ContainingType?.Name + "." + symbol.Name);

        private static bool IsBuildOutput(string path)
        {
            string relative = Path.GetRelativePath(LayerRules.LibraryRoot, path).Replace('\\', '/');
            return relative.StartsWith("bin/", StringComparison.Ordinal) || relative.StartsWith("obj/", StringComparison.Ordinal);
        }

        private static IEnumerable<MetadataReference> PlatformReferences()
        {
            string list = (string?)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES") ?? "";
            return list.Split(Path.PathSeparator)
                .Where(p => Path.GetFileName(p).StartsWith("System.", StringComparison.Ordinal) || Path.GetFileName(p) is "mscorlib.dll" or "netstandard.dll")
                .Select(p => MetadataReference.CreateFromFile(p));
        }
    }
}
