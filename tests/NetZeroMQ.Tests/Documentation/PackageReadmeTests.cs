using System.Linq;
using System.Text.RegularExpressions;
using Xunit;

namespace NetZeroMQ.Tests.Documentation
{
    /// <summary>The package readme is written for someone who installed the package: nothing in it needs this repository.</summary>
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
            string[] lines = System.IO.File.ReadAllLines(readme.Path);
            var found = lines.Select((text, index) => (text, line: index + 1))
                .Where(x => s_repositoryOnly.IsMatch(x.text))
                .Select(x => "  " + readme.RelativePath + ":" + x.line + ": " + s_repositoryOnly.Match(x.text).Value)
                .ToList();
            Assert.True(found.Count == 0, "the package readme names what only this repository has:\n" + string.Join("\n", found));
        }

        [Fact]
        public void PackageReadme_IsNotTheRepositoryReadme()
        {
            // The repository README describes building, testing and the repository's files; the package page gets its own.
            Assert.NotEqual("README.md", DocumentationFiles.PackageReadme.RelativePath);
        }
    }
}
