using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;

namespace NetZeroMQ.Tests.Documentation
{
    /// <summary>A fenced code block: its language (the fence's info string), the 1-based line of its first code line, its text.</summary>
    public sealed record MarkdownCodeBlock(string Language, int FirstLine, string Code)
    {
        /// <summary>True for blocks a reader takes for C#: <c>csharp</c>, <c>cs</c> or <c>c#</c>.</summary>
        public bool IsCSharp => Language is "csharp" or "cs" or "c#";
    }

    /// <summary>A link target written in the file (inline link or image, reference definition, or HTML href/src), with its line.</summary>
    public sealed record MarkdownLink(string Target, int Line);

    /// <summary>
    /// The parts of a markdown file the documentation tests check: fenced code blocks, link targets outside code, and the
    /// anchors its headings get. Deliberately small (CommonMark's common cases, as this repository writes them), not a full
    /// parser: fences of three or more backticks or tildes, ATX headings, inline code spans skipped when looking for links.
    /// </summary>
    public sealed class MarkdownFile
    {
        private static readonly Regex s_fence = new(@"^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)", RegexOptions.Compiled);
        private static readonly Regex s_heading = new(@"^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$", RegexOptions.Compiled);
        private static readonly Regex s_codeSpan = new(@"(`+)(?:(?!\1).)+?\1", RegexOptions.Compiled);
        private static readonly Regex s_inlineLink = new(@"\]\(\s*<?([^)\s>]*)>?(?:\s+""[^""]*"")?\s*\)", RegexOptions.Compiled);
        private static readonly Regex s_referenceDefinition = new(@"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", RegexOptions.Compiled);
        private static readonly Regex s_htmlLink = new(@"\b(?:href|src)\s*=\s*[""']([^""']*)[""']", RegexOptions.Compiled | RegexOptions.IgnoreCase);

        private MarkdownFile(string path, string relativePath, List<MarkdownCodeBlock> blocks, List<MarkdownLink> links, HashSet<string> anchors)
        {
            Path = path;
            RelativePath = relativePath;
            CodeBlocks = blocks;
            Links = links;
            Anchors = anchors;
        }

        /// <summary>The file's full path.</summary>
        public string Path { get; }

        /// <summary>The path relative to the repository root, with forward slashes (for messages and test names).</summary>
        public string RelativePath { get; }

        /// <summary>Every fenced code block, in order.</summary>
        public IReadOnlyList<MarkdownCodeBlock> CodeBlocks { get; }

        /// <summary>Every link target outside code blocks and code spans, in order.</summary>
        public IReadOnlyList<MarkdownLink> Links { get; }

        /// <summary>The anchors of the file's headings, as GitHub renders them (<c>## Quick start</c> is <c>#quick-start</c>).</summary>
        public IReadOnlySet<string> Anchors { get; }

        /// <summary>Reads and parses <paramref name="path"/>; <paramref name="root"/> only shapes <see cref="RelativePath"/>.</summary>
        public static MarkdownFile Load(string path, string root) =>
            Load(path, System.IO.Path.GetRelativePath(root, path).Replace('\\', '/'), File.ReadAllText(path));

        /// <summary>Parses <paramref name="text"/>, the content of <paramref name="path"/>, named <paramref name="relativePath"/> in messages.</summary>
        public static MarkdownFile Load(string path, string relativePath, string text)
        {
            string[] lines = text.Replace("\r\n", "\n").Split('\n');
            var blocks = new List<MarkdownCodeBlock>();
            var links = new List<MarkdownLink>();
            var anchors = new HashSet<string>(StringComparer.Ordinal);
            var anchorCounts = new Dictionary<string, int>(StringComparer.Ordinal);
            for (int i = 0; i < lines.Length; i++)
            {
                Match fence = s_fence.Match(lines[i]);
                if (fence.Success)
                {
                    string marker = fence.Groups[1].Value;
                    int first = i + 1;
                    int end = first;
                    while (end < lines.Length && !IsClosingFence(lines[end], marker))
                    {
                        end++;
                    }

                    blocks.Add(new MarkdownCodeBlock(fence.Groups[2].Value.ToLowerInvariant(), first + 1, string.Join("\n", lines, first, end - first)));
                    i = end;
                    continue;
                }

                Match heading = s_heading.Match(lines[i]);
                if (heading.Success)
                {
                    anchors.Add(UniqueAnchor(Slug(heading.Groups[1].Value), anchorCounts));
                }

                string prose = s_codeSpan.Replace(lines[i], "");
                foreach (Regex pattern in new[] { s_inlineLink, s_referenceDefinition, s_htmlLink })
                {
                    foreach (Match link in pattern.Matches(prose))
                    {
                        links.Add(new MarkdownLink(link.Groups[1].Value, i + 1));
                    }
                }
            }

            return new MarkdownFile(path, relativePath, blocks, links, anchors);
        }

        /// <summary>GitHub's heading anchor: lower case, punctuation other than '-' and '_' dropped, spaces to '-'.</summary>
        public static string Slug(string heading)
        {
            string text = s_codeSpan.Replace(heading, m => m.Value.Trim('`'));
            var slug = new System.Text.StringBuilder(text.Length);
            foreach (char c in text.ToLowerInvariant())
            {
                if (char.IsLetterOrDigit(c) || c is '-' or '_')
                {
                    slug.Append(c);
                }
                else if (c == ' ')
                {
                    slug.Append('-');
                }
            }

            return slug.ToString();
        }

        private static string UniqueAnchor(string slug, Dictionary<string, int> counts)
        {
            // A repeated heading gets -1, -2, ... on GitHub.
            counts.TryGetValue(slug, out int seen);
            counts[slug] = seen + 1;
            return seen == 0 ? slug : slug + "-" + seen;
        }

        private static bool IsClosingFence(string line, string marker)
        {
            string trimmed = line.Trim();
            return trimmed.Length >= marker.Length && trimmed.All(c => c == marker[0]);
        }
    }
}
