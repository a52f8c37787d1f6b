using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Xml.Linq;
using NetZeroMQ.Tests.TestUtilities;

namespace NetZeroMQ.Tests.Documentation
{
    /// <summary>The markdown files of the repository, and which of them the NuGet package carries as its readme.</summary>
    public static class DocumentationFiles
    {
        // Build output, packages and tool folders: none of it is documentation written here.
        private static readonly HashSet<string> s_skippedFolders = new(StringComparer.Ordinal)
        {
            "bin", "obj", "artifacts", "TestResults", "BenchmarkDotNet.Artifacts", "node_modules",
        };

        /// <summary>The library project, whose PackageReadmeFile names the package page's readme.</summary>
        public static string LibraryProject { get; } = Path.Combine(Repository.Root, "src", "NetZeroMQ", "NetZeroMQ.csproj");

        /// <summary>Every markdown file of the repository outside build output and dot-folders, sorted by relative path.</summary>
        public static IReadOnlyList<MarkdownFile> All { get; } = Find(Repository.Root)
            .Select(path => MarkdownFile.Load(path, Repository.Root))
            .OrderBy(file => file.RelativePath, StringComparer.Ordinal)
            .ToList();

        /// <summary>The file that <c>dotnet pack</c> puts into the package as its readme, read from the library project.</summary>
        public static MarkdownFile PackageReadme { get; } = MarkdownFile.Load(FindPackageReadme(), Repository.Root);

        /// <summary>A file of <see cref="All"/> by its relative path.</summary>
        public static MarkdownFile Get(string relativePath) =>
            All.SingleOrDefault(file => file.RelativePath == relativePath)
            ?? throw new InvalidOperationException(relativePath + " is not among the repository's markdown files");

        private static IEnumerable<string> Find(string folder)
        {
            foreach (string file in Directory.EnumerateFiles(folder, "*.md"))
            {
                yield return file;
            }

            foreach (string child in Directory.EnumerateDirectories(folder))
            {
                string name = Path.GetFileName(child);
                if (name.StartsWith('.') || s_skippedFolders.Contains(name))
                {
                    continue;
                }

                foreach (string file in Find(child))
                {
                    yield return file;
                }
            }
        }

        /// <summary>
        /// Follows the project the way NuGet's pack does: PackageReadmeFile is a path inside the package, and the packed item
        /// whose PackagePath (a folder, or a full file path when it has the file's extension) lands there is the source file.
        /// </summary>
        private static string FindPackageReadme()
        {
            XDocument project = XDocument.Load(LibraryProject);
            string? readme = project.Descendants("PackageReadmeFile").SingleOrDefault()?.Value.Trim();
            if (string.IsNullOrEmpty(readme))
            {
                throw new InvalidOperationException("NetZeroMQ.csproj sets no PackageReadmeFile");
            }

            string projectFolder = Path.GetDirectoryName(LibraryProject)!;
            var sources = new List<string>();
            foreach (XElement item in project.Descendants().Where(e => (string?)e.Attribute("Pack") == "true"))
            {
                // Without a PackagePath an item goes to content/, never to where the readme is looked for.
                string? include = (string?)item.Attribute("Include");
                string? packagePath = ((string?)item.Attribute("PackagePath"))?.Replace('\\', '/').Trim('/');
                if (include is null || packagePath is null)
                {
                    continue;
                }

                string packed = Path.GetExtension(packagePath).Equals(Path.GetExtension(include), StringComparison.OrdinalIgnoreCase)
                    ? packagePath
                    : (packagePath.Length == 0 ? "" : packagePath + "/") + Path.GetFileName(include);
                if (packed == readme.Replace('\\', '/').Trim('/'))
                {
                    sources.Add(Path.GetFullPath(Path.Combine(projectFolder, include)));
                }
            }

            if (sources.Count != 1 || !File.Exists(sources[0]))
            {
                throw new InvalidOperationException("NetZeroMQ.csproj should pack exactly one existing file as " + readme + ", found: "
                    + string.Join(", ", sources));
            }

            return sources[0];
        }
    }
}
