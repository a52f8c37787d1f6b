using System;
using System.Diagnostics;
using System.IO;
using System.Text.RegularExpressions;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>The READMEs' quick start is samples/QuickStart/Program.cs, which the build compiles; these tests keep them equal and run it.</summary>
    public class ReadmeTests
    {
        /// <summary>The repository README and the one the package page shows (made from README.md when packing).</summary>
        public static TheoryData<string> Readmes() => new() { "README.md", "package readme" };

        [Theory]
        [MemberData(nameof(Readmes))]
        public void QuickStart_ReadmeBlock_IsTheCompiledSample(string file)
        {
            string path = file == "README.md" ? Path.Combine(Repository.Root, file) : Documentation.DocumentationFiles.PackageReadme.Path;
            string readme = File.ReadAllText(path).Replace("\r\n", "\n");
            Match block = Regex.Match(readme, "## Quick start.*?```csharp\\n(.*?)```", RegexOptions.Singleline);
            Assert.True(block.Success, file + " has no ```csharp block under '## Quick start'");
            string sample = File.ReadAllText(Path.Combine(Repository.Root, "samples", "QuickStart", "Program.cs"));
            Assert.Equal(Normalize(sample), Normalize(block.Groups[1].Value));
        }

        [Fact]
        public void Readme_Length_IsAFrontDoor()
        {
            // A front door read in ten minutes: at most 250 lines, the quick start within the first 60; depth lives in docs/.
            string[] lines = File.ReadAllText(Path.Combine(Repository.Root, "README.md")).Replace("\r\n", "\n").TrimEnd('\n').Split('\n');
            int quickStart = Array.IndexOf(lines, "## Quick start") + 1;

            Assert.True(lines.Length <= 250, "README.md has " + lines.Length + " lines (at most 250: move depth to docs/)");
            Assert.InRange(quickStart, 1, 60);
        }

        [Fact]
        public void BenchmarkReadme_Length_SaysHowToRunAndRead()
        {
            // How to run and how to read; recorded runs live in benchmarks/results/, one file each.
            string path = Path.Combine(Repository.Root, "benchmarks", "NetZeroMQ.Benchmarks", "README.md");
            int lines = File.ReadAllText(path).Replace("\r\n", "\n").TrimEnd('\n').Split('\n').Length;

            Assert.True(lines <= 300, "benchmarks/NetZeroMQ.Benchmarks/README.md has " + lines + " lines (at most 300: results go to benchmarks/results/)");
        }

        [Fact(Timeout = TestTimeouts.TestMilliseconds)]
        public async System.Threading.Tasks.Task QuickStart_Run_PrintsPingThenPong()
        {
            string dll = FindSampleDll();
            var start = new ProcessStartInfo("dotnet", "\"" + dll + "\"") { RedirectStandardOutput = true, RedirectStandardError = true };
            using Process process = Process.Start(start)!;
            string output = await process.StandardOutput.ReadToEndAsync().WaitAsync(TestTimeouts.Expected * 3);
            Assert.True(process.WaitForExit((int)TestTimeouts.Expected.TotalMilliseconds), "the quick start did not end");
            Assert.Equal(0, process.ExitCode);
            Assert.Equal("ping\npong\n", output.Replace("\r\n", "\n"));
        }

        private static string FindSampleDll()
        {
            string config = AppContext.BaseDirectory.Contains("Release", StringComparison.Ordinal) ? "Release" : "Debug";
            string dll = Path.Combine(Repository.Root, "samples", "QuickStart", "bin", config, "net10.0", "QuickStart.dll");
            Assert.True(File.Exists(dll), dll + " was not built");
            return dll;
        }

        private static string Normalize(string code) => code.Replace("\r\n", "\n").Trim();
    }
}
