using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// The repository is self-contained: no tracked file refers to a file outside it (a sibling folder, a path on a developer's
    /// machine, a markdown link that climbs above the root). Whatever the project relies on is described in its own words.
    /// </summary>
    public class RepositoryBoundaryTests
    {
        // The patterns are written so that this file does not match them itself (a character class breaks the literal).
        private static readonly (Regex Pattern, string Why)[] s_outside =
        {
            (new Regex(@"\.\./share[d]\b"), "a folder beside the repository"),
            (new Regex(@"\bshare[d]/perf\b"), "a folder beside the repository"),
            (new Regex(@"/wor[k]/"), "an absolute path on a development machine"),
            (new Regex(@"/roo[t]/"), "an absolute path in a home directory"),
            (new Regex(@"/hom[e]/"), "an absolute path in a home directory"),
            (new Regex(@"\bfil[e]://"), "a file URL"),
        };

        private static readonly Regex s_markdownLink = new(@"\]\(\s*<?([^)\s>]+)", RegexOptions.Compiled);

        [Fact]
        public void TrackedFiles_ReferToNothingOutsideTheRepository()
        {
            var findings = new List<string>();
            foreach (string path in Repository.TrackedFiles())
            {
                string? text = ReadText(path);
                if (text is null)
                {
                    continue;
                }

                string[] lines = text.Split('\n');
                for (int i = 0; i < lines.Length; i++)
                {
                    foreach ((Regex pattern, string why) in s_outside)
                    {
                        if (pattern.IsMatch(lines[i]))
                        {
                            findings.Add($"{path}:{i + 1}: {why}: {lines[i].Trim()}");
                        }
                    }

                    if (path.EndsWith(".md", StringComparison.OrdinalIgnoreCase))
                    {
                        findings.AddRange(LinksOutside(path, lines[i]).Select(link => $"{path}:{i + 1}: a link outside the repository: {link}"));
                    }
                }
            }

            Assert.True(findings.Count == 0, "files that refer outside the repository:\n" + string.Join("\n", findings));
        }

        /// <summary>Markdown link targets that are absolute paths or climb above the repository root.</summary>
        private static IEnumerable<string> LinksOutside(string path, string line)
        {
            foreach (Match link in s_markdownLink.Matches(line))
            {
                string target = link.Groups[1].Value;
                if (Regex.IsMatch(target, @"^[A-Za-z][A-Za-z0-9+.-]*:") || target.StartsWith('#'))
                {
                    continue; // a URL (https:, mailto:) or an anchor on the same page
                }

                if (target.StartsWith('/') || target.StartsWith('\\'))
                {
                    yield return target;
                    continue;
                }

                string folder = Path.GetDirectoryName(Path.Combine(Repository.Root, path))!;
                string resolved = Path.GetFullPath(Path.Combine(folder, target.Split('#')[0]));
                if (!resolved.StartsWith(Repository.Root + Path.DirectorySeparatorChar, StringComparison.Ordinal) && resolved != Repository.Root)
                {
                    yield return target;
                }
            }
        }

        /// <summary>The file's text, or null for a binary file (one with a NUL byte near its start).</summary>
        private static string? ReadText(string path)
        {
            byte[] bytes = File.ReadAllBytes(Path.Combine(Repository.Root, path));
            return Array.IndexOf(bytes, (byte)0, 0, Math.Min(bytes.Length, 8000)) >= 0 ? null : System.Text.Encoding.UTF8.GetString(bytes);
        }
    }
}
