using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests.Documentation
{
    /// <summary>
    /// The package readme is README.md's package regions, made by the library project when packing; it is written for someone
    /// who installed the package: nothing in it needs this repository.
    /// </summary>
    public class PackageReadmeTests
    {
        // Repository tooling and folders a package user does not have. "CI" as a word; paths as they would be written.
        private static readonly Regex s_repositoryOnly = new(
            @"build\.sh|\.ci/|\bCI\b|\beng/|\bsamples/|\btests/|\bbenchmarks/|\bdocs/|\bsrc/|Directory\.Build\.props|\bclone\b",
            RegexOptions.Compiled);

        [Fact]
        public void PackageReadme_Text_NamesNoRepositoryTooling()
        {
            MarkdownFile readme = DocumentationFiles.PackageReadme;
            string[] lines = File.ReadAllLines(readme.Path);
            var found = lines.Select((text, index) => (text, line: index + 1))
                .Where(x => s_repositoryOnly.IsMatch(x.text))
                .Select(x => "  " + readme.RelativePath + ":" + x.line + ": " + s_repositoryOnly.Match(x.text).Value + "  in: " + x.text)
                .ToList();
            Assert.True(found.Count == 0, "the package readme names what only this repository has:\n" + string.Join("\n", found));
        }

        [Fact]
        public void PackageReadme_Generated_IsTheReadmesPackageRegions()
        {
            // What the PackageReadme target wrote is exactly the documented rule applied to README.md, and the rule selected
            // a real part of it: the title and the quick start, not the build instructions.
            string readme = File.ReadAllText(Path.Combine(Repository.Root, "README.md"));
            string packaged = File.ReadAllText(DocumentationFiles.PackageReadme.Path);

            Assert.Equal(DocumentationFiles.PackageRegionsOf(readme), packaged.Replace("\r\n", "\n"));
            Assert.StartsWith("# NetZeroMQ\n", packaged.Replace("\r\n", "\n"));
            Assert.Contains("## Quick start", packaged);
            Assert.DoesNotContain("<!-- package:", packaged);
            Assert.True(packaged.Length < readme.Length, "the package readme is all of README.md");
        }

        [Fact]
        public void PackageRegionsOf_Markers_TakeOnlyTheLinesBetweenThem()
        {
            string text = string.Join("\n", "outside", DocumentationFiles.PackageRegionBegin, "one", "", DocumentationFiles.PackageRegionEnd,
                "outside too", DocumentationFiles.PackageRegionBegin, "two", DocumentationFiles.PackageRegionEnd, "last");

            Assert.Equal("one\n\ntwo\n", DocumentationFiles.PackageRegionsOf(text));
        }
    }
}
