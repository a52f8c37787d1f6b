using System.IO;
using System.Linq;
using Xunit;

namespace NetZeroMQ.Tests.Documentation
{
    public class MarkdownFileTests
    {
        [Theory]
        [InlineData("Quick start", "quick-start")]
        [InlineData("Zero-copy and ownership", "zero-copy-and-ownership")]
        [InlineData("`Socket` options (typed)", "socket-options-typed")]
        [InlineData("Notes on C#", "notes-on-c")]
        [InlineData("snake_case name", "snake_case-name")]
        public void Slug_Heading_IsGitHubsAnchor(string heading, string anchor)
        {
            Assert.Equal(anchor, MarkdownFile.Slug(heading));
        }

        [Fact]
        public void Load_FencesLinksAndHeadings_AreFoundWhereWritten()
        {
            string folder = Path.Combine(Path.GetTempPath(), "netzeromq-markdown-" + System.Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(folder);
            try
            {
                string path = Path.Combine(folder, "doc.md");
                File.WriteAllText(path, string.Join("\n",
                    "# Title",
                    "See [a](a.md) and `[not](code.md)` and ![img](pic.png \"title\").",
                    "````csharp",
                    "var x = 1; // [not](in-code.md)",
                    "```",
                    "still code",
                    "````",
                    "## Title ##",
                    "~~~",
                    "plain",
                    "~~~",
                    "[ref]: https://example.org/ref",
                    "<a href=\"html.md\">x</a>"));
                MarkdownFile file = MarkdownFile.Load(path, folder);

                Assert.Equal("doc.md", file.RelativePath);
                Assert.Collection(file.CodeBlocks,
                    b => Assert.Equal(("csharp", 4, "var x = 1; // [not](in-code.md)\n```\nstill code"), (b.Language, b.FirstLine, b.Code)),
                    b => Assert.Equal(("", 10, "plain"), (b.Language, b.FirstLine, b.Code)));
                Assert.True(file.CodeBlocks[0].IsCSharp);
                Assert.Equal(new[] { ("a.md", 2), ("pic.png", 2), ("https://example.org/ref", 12), ("html.md", 13) },
                    file.Links.Select(l => (l.Target, l.Line)).ToArray());
                Assert.Equal(new[] { "title", "title-1" }, file.Anchors.OrderBy(a => a).ToArray());
            }
            finally
            {
                Directory.Delete(folder, recursive: true);
            }
        }
    }
}
