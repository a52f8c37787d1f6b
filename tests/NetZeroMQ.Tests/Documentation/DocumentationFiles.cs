using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using NetZeroMQ.Tests.TestUtilities;

namespace NetZeroMQ.Tests.Documentation
{
    /// <summary>The markdown files of the repository, and the readme the NuGet package carries (made from README.md).</summary>
    public static class DocumentationFiles
    {
        // Build output, packages and tool folders: none of it is documentation written here.
        private static readonly HashSet<string> s_skippedFolders = new(StringComparer.Ordinal)
        {
            "bin", "obj", "artifacts", "TestResults", "BenchmarkDotNet.Artifacts", "node_modules",
        };

        private static readonly Lazy<MarkdownFile> s_packageReadme = new(GeneratePackageReadme);

        /// <summary>The library project, whose PackageReadme target writes the package page's readme.</summary>
        public static string LibraryProject { get; } = Path.Combine(Repository.Root, "src", "NetZeroMQ", "NetZeroMQ.csproj");

        /// <summary>The markers of README.md's parts that the package readme is made of (CONTRIBUTING.md, "Packing and publishing").</summary>
        public const string PackageRegionBegin = "<!-- package: begin -->";

        /// <summary>The line that ends a part of README.md the package readme takes.</summary>
        public const string PackageRegionEnd = "<!-- package: end -->";

        /// <summary>Every markdown file of the repository outside build output and dot-folders, sorted by relative path.</summary>
        public static IReadOnlyList<MarkdownFile> All { get; } = Find(Repository.Root)
            .Select(path => MarkdownFile.Load(path, Repository.Root))
            .OrderBy(file => file.RelativePath, StringComparer.Ordinal)
            .ToList();

        /// <summary>
        /// The readme <c>dotnet pack</c> puts into the package, made by the library project's own PackageReadme target (run once,
        /// into this test run's output folder), so that what is checked is what is packed.
        /// </summary>
        public static MarkdownFile PackageReadme => s_packageReadme.Value;

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

        /// <summary>The lines of README.md between each begin and end marker line, in order: the rule the target follows.</summary>
        public static string PackageRegionsOf(string readme)
        {
            var text = new System.Text.StringBuilder();
            bool inside = false;
            foreach (string line in readme.Replace("\r\n", "\n").Split('\n'))
            {
                if (line == PackageRegionEnd)
                {
                    inside = false;
                }
                else if (line == PackageRegionBegin)
                {
                    inside = true;
                }
                else if (inside)
                {
                    text.Append(line).Append('\n');
                }
            }

            return text.ToString().TrimEnd() + "\n";
        }

        private static MarkdownFile GeneratePackageReadme()
        {
            string output = Path.Combine(AppContext.BaseDirectory, "package-readme", "README.md");
            if (File.Exists(output))
            {
                File.Delete(output); // a file left by an earlier run must not pass for this one's
            }
            var start = new ProcessStartInfo("dotnet")
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
                WorkingDirectory = Path.GetDirectoryName(LibraryProject)!,
            };
            foreach (string argument in new[] { "msbuild", LibraryProject, "-t:PackageReadme", "-p:PackageReadmeOutput=" + output, "-nologo", "-v:m", "-nodeReuse:false" })
            {
                start.ArgumentList.Add(argument);
            }

            using Process msbuild = Process.Start(start)!;
            var error = msbuild.StandardError.ReadToEndAsync();
            string log = msbuild.StandardOutput.ReadToEnd();
            if (!msbuild.WaitForExit((int)TimeSpan.FromMinutes(2).TotalMilliseconds))
            {
                msbuild.Kill(entireProcessTree: true);
                throw new TimeoutException("dotnet msbuild -t:PackageReadme did not end within 2 minutes");
            }

            if (msbuild.ExitCode != 0 || !File.Exists(output))
            {
                throw new InvalidOperationException("dotnet msbuild -t:PackageReadme failed (exit code " + msbuild.ExitCode + "):\n" + log + error.Result);
            }

            return MarkdownFile.Load(output, "README.md (package regions)", File.ReadAllText(output));
        }
    }
}
