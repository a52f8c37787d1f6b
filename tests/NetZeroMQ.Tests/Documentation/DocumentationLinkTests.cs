using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Documentation
{
    /// <summary>
    /// Links in the repository's markdown resolve: a relative link names a file or folder of this repository (and a heading of
    /// it, when it has an anchor). The package readme is shown on a package page, where nothing relative resolves, so every
    /// link there is an absolute http(s) address.
    /// </summary>
    public class DocumentationLinkTests
    {
        private static readonly Regex s_scheme = new(@"^[a-zA-Z][a-zA-Z0-9+.-]*:", RegexOptions.Compiled);

        /// <summary>Every markdown file of the repository, by relative path.</summary>
        public static TheoryData<string> MarkdownFiles()
        {
            var data = new TheoryData<string>();
            foreach (MarkdownFile file in DocumentationFiles.All)
            {
                data.Add(file.RelativePath);
            }

            return data;
        }

        [Theory]
        [MemberData(nameof(MarkdownFiles))]
        public void RelativeLinks_InRepositoryMarkdown_ResolveToFilesAndHeadings(string file)
        {
            MarkdownFile markdown = DocumentationFiles.Get(file);
            var broken = markdown.Links.Where(link => !s_scheme.IsMatch(link.Target))
                .Select(link => (link, problem: Resolve(markdown, link.Target)))
                .Where(x => x.problem is not null)
                .Select(x => "  " + file + ":" + x.link.Line + ": (" + x.link.Target + ") " + x.problem)
                .ToList();
            Assert.True(broken.Count == 0, "broken links:\n" + string.Join("\n", broken));
        }

        [Fact]
        public void Links_InPackageReadme_AreAbsoluteHttpAddresses()
        {
            MarkdownFile readme = DocumentationFiles.PackageReadme;
            var relative = readme.Links
                .Where(link => !Uri.TryCreate(link.Target, UriKind.Absolute, out Uri? uri) || (uri.Scheme != Uri.UriSchemeHttps && uri.Scheme != Uri.UriSchemeHttp))
                .Select(link => "  " + readme.RelativePath + ":" + link.Line + ": (" + link.Target + ")")
                .ToList();
            Assert.True(relative.Count == 0, "the package readme is shown on a package page, where these do not resolve:\n" + string.Join("\n", relative));
        }

        [Fact]
        public void MarkdownFiles_TheFrontDoorAndEveryGuide_AreChecked()
        {
            // Guards the discovery: the README, CONTRIBUTING.md, every page of docs/ and the benchmark README are among the
            // files whose links the theory above checks.
            var checkedFiles = DocumentationFiles.All.Select(file => file.RelativePath).ToHashSet(StringComparer.Ordinal);
            var expected = new List<string> { "README.md", "CONTRIBUTING.md", "benchmarks/NetZeroMQ.Benchmarks/README.md", "benchmarks/results/README.md" };
            expected.AddRange(Directory.EnumerateFiles(Path.Combine(Repository.Root, "docs"), "*.md").Select(f => "docs/" + Path.GetFileName(f)));

            Assert.Contains("docs/performance.md", expected);
            Assert.All(expected, file => Assert.Contains(file, checkedFiles));
        }

        [Fact]
        public void Resolve_BrokenTargets_AreReported()
        {
            // The checker itself: a missing file, a missing heading, a missing heading in another file, and a path out of the repository.
            MarkdownFile readme = DocumentationFiles.Get("README.md");
            Assert.Equal("no such file or folder", Resolve(readme, "samples/NoSuchSample/Program.cs"));
            Assert.Equal("no heading with this anchor", Resolve(readme, "#no-such-heading"));
            Assert.Equal("no heading with this anchor", Resolve(readme, "docs/reliability.md#no-such-heading"));
            Assert.Equal("points outside the repository", Resolve(readme, "../outside.md"));
            Assert.Null(Resolve(readme, "#quick-start"));
            Assert.Null(Resolve(readme, "samples/QuickStart/Program.cs"));
            Assert.Null(Resolve(readme, "samples/QuickStart"));
        }

        /// <summary>Null when <paramref name="target"/> resolves from <paramref name="from"/>, else what is wrong.</summary>
        private static string? Resolve(MarkdownFile from, string target)
        {
            int hash = target.IndexOf('#');
            string path = Uri.UnescapeDataString(hash < 0 ? target : target.Substring(0, hash));
            string? anchor = hash < 0 ? null : target.Substring(hash + 1);
            string root = Path.GetFullPath(Repository.Root);
            string full = path.Length == 0 ? from.Path
                : path.StartsWith('/') ? Path.GetFullPath(Path.Combine(root, path.TrimStart('/')))
                : Path.GetFullPath(Path.Combine(Path.GetDirectoryName(from.Path)!, path));
            if (!full.StartsWith(root + Path.DirectorySeparatorChar, StringComparison.Ordinal) && full != root)
            {
                return "points outside the repository";
            }

            if (!File.Exists(full) && !Directory.Exists(full))
            {
                return "no such file or folder";
            }

            if (anchor is null || !full.EndsWith(".md", StringComparison.OrdinalIgnoreCase))
            {
                return null;
            }

            IReadOnlySet<string> anchors = full == from.Path ? from.Anchors : MarkdownFile.Load(full, root).Anchors;
            return anchors.Contains(anchor) ? null : "no heading with this anchor";
        }
    }
}
