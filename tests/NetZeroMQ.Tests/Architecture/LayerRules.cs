using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using NetZeroMQ.Tests.TestUtilities;

namespace NetZeroMQ.Tests.Architecture
{
    /// <summary>
    /// The layering rule of src/NetZeroMQ, read from the table in src/NetZeroMQ/README.md so that it is written in one place:
    /// each row names a layer, the folders that belong to it, and the layers (or single folders) it may use.
    /// </summary>
    internal sealed class LayerRules
    {
        private readonly Dictionary<string, string> _layerOfFolder = new(StringComparer.Ordinal);
        private readonly Dictionary<string, HashSet<string>> _allowed = new(StringComparer.Ordinal);

        private LayerRules()
        {
        }

        internal static string LibraryRoot => Path.Combine(Repository.Root, "src", "NetZeroMQ");

        internal IReadOnlyCollection<string> Folders => _layerOfFolder.Keys;

        /// <summary>Parses the rows of the README table under the heading "## Layers".</summary>
        internal static LayerRules Load()
        {
            string readme = File.ReadAllText(Path.Combine(LibraryRoot, "README.md"));
            Match section = Regex.Match(readme, @"^## Layers\s*$(.*?)(^## |\z)", RegexOptions.Multiline | RegexOptions.Singleline);
            if (!section.Success)
            {
                throw new InvalidOperationException("src/NetZeroMQ/README.md has no '## Layers' section");
            }

            var rules = new LayerRules();
            var uses = new Dictionary<string, string[]>(StringComparer.Ordinal);
            foreach (string line in section.Groups[1].Value.Split('\n'))
            {
                string[] cells = line.Trim().Trim('|').Split('|').Select(c => c.Trim()).ToArray();
                if (cells.Length != 3 || cells[0] == "layer" || cells[0].StartsWith("-", StringComparison.Ordinal))
                {
                    continue;
                }

                string layer = cells[0];
                foreach (string folder in Names(cells[1]))
                {
                    rules._layerOfFolder[folder] = layer;
                }

                uses[layer] = Names(cells[2]).ToArray();
            }

            foreach (KeyValuePair<string, string[]> row in uses)
            {
                // A used name is a layer (all its folders) or one folder (a single exception, such as one feature using another).
                var allowed = new HashSet<string>(StringComparer.Ordinal);
                foreach (string name in row.Value)
                {
                    bool isLayer = rules._layerOfFolder.ContainsValue(name);
                    if (!isLayer && !rules._layerOfFolder.ContainsKey(name))
                    {
                        throw new InvalidOperationException("src/NetZeroMQ/README.md: layer '" + row.Key + "' may use '" + name + "', which is neither a layer nor a folder");
                    }

                    allowed.UnionWith(isLayer ? rules._layerOfFolder.Where(f => f.Value == name).Select(f => f.Key) : new[] { name });
                }

                rules._allowed[row.Key] = allowed;
            }

            return rules;
        }

        /// <summary>The folder (first directory under src/NetZeroMQ) of a source file, or null for a file at the root.</summary>
        internal static string? FolderOf(string path)
        {
            string relative = Path.GetRelativePath(LibraryRoot, path).Replace('\\', '/');
            int slash = relative.IndexOf('/');
            return slash < 0 ? null : relative.Substring(0, slash);
        }

        internal string? LayerOf(string folder) => _layerOfFolder.TryGetValue(folder, out string? layer) ? layer : null;

        /// <summary>
        /// Whether code in <paramref name="from"/> may use code in <paramref name="to"/>: a folder always uses itself; other folders
        /// of its own layer only if its row lists the layer itself (features, for example, do not use each other).
        /// </summary>
        internal bool MayUse(string from, string to)
        {
            if (from == to)
            {
                return true;
            }

            string layer = LayerOf(from) ?? throw new InvalidOperationException("folder '" + from + "' is in no layer of the README table");
            return _allowed.TryGetValue(layer, out HashSet<string>? allowed) && allowed.Contains(to);
        }

        private static IEnumerable<string> Names(string cell) =>
            cell.Split(',').Select(n => n.Trim().Trim('`').TrimEnd('/')).Where(n => n.Length > 0 && n != "—" && n != "-");
    }
}
