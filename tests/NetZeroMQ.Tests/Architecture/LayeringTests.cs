using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Xunit;

namespace NetZeroMQ.Tests.Architecture
{
    /// <summary>The layering rule written in src/NetZeroMQ/README.md holds for every source file of the library.</summary>
    public class LayeringTests
    {
        [Fact(Timeout = TestUtilities.TestTimeouts.TestMilliseconds)]
        public async System.Threading.Tasks.Task LibrarySources_FollowTheReadmeLayerTable()
        {
            await System.Threading.Tasks.Task.Yield();
            LayerRules rules = LayerRules.Load();
            (HashSet<string> waysIn, HashSet<string> layers) = ReadWaysIn();
            List<string> violations = LayerAnalysis.FindViolations(rules, waysIn, layers);
            Assert.True(violations.Count == 0, violations.Count + " layering violations:\n" + string.Join("\n", violations));
        }

        [Fact]
        public void Rules_EveryLibraryFolderIsInTheTable()
        {
            LayerRules rules = LayerRules.Load();
            string[] folders = Directory.GetDirectories(LayerRules.LibraryRoot)
                .Select(Path.GetFileName)
                .Where(f => f is not ("bin" or "obj"))
                .Select(f => f!)
                // PublicAPI/ holds the recorded public surface (text files for the analyzer), no code.
                .Where(f => Directory.EnumerateFiles(Path.Combine(LayerRules.LibraryRoot, f), "*.cs", SearchOption.AllDirectories).Any())
                .ToArray();
            Assert.All(folders, f => Assert.True(rules.LayerOf(f) is not null, f + "/ is in no layer of the README table"));
        }

        [Fact]
        public void Rules_AFeatureCannotUseAnotherUnlessListed()
        {
            // The checker itself must be able to fail: a feature using another feature that its row does not list.
            LayerRules rules = LayerRules.Load();
            Assert.False(rules.MayUse("Core", "Async"));
            Assert.False(rules.MayUse("Interop", "Native"));
            Assert.False(rules.MayUse("Native", "Core"));
            Assert.True(rules.MayUse("Async", "Core"));
        }

        /// <summary>The "## The way in" section: backticked Type.Member names (the leases and the native hold, and in its "###"
        /// subsection the core members features call that are not ways in), and the layers they guard.</summary>
        private static (HashSet<string> Members, HashSet<string> Layers) ReadWaysIn()
        {
            string readme = File.ReadAllText(Path.Combine(LayerRules.LibraryRoot, "README.md"));
            Match section = Regex.Match(readme, @"^## The way in\s*$(.*?)(^## |\z)", RegexOptions.Multiline | RegexOptions.Singleline);
            Assert.True(section.Success, "src/NetZeroMQ/README.md has no '## The way in' section");
            var members = new HashSet<string>(Regex.Matches(section.Groups[1].Value, @"`(\w+\.\w+)`").Select(m => m.Groups[1].Value));
            Match guarded = Regex.Match(section.Groups[1].Value, @"Guarded layers?: (.*)");
            var layers = new HashSet<string>(guarded.Groups[1].Value.Split(',').Select(s => s.Trim().Trim('`', '.')).Where(s => s.Length > 0));
            return (members, layers);
        }
    }
}
