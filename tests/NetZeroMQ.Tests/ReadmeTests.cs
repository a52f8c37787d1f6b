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
        /// <summary>The repository README and the one the package page shows.</summary>
        public static TheoryData<string> Readmes() => new() { "README.md", Documentation.DocumentationFiles.PackageReadme.RelativePath };

        [Theory]
        [MemberData(nameof(Readmes))]
        public void QuickStart_ReadmeBlock_IsTheCompiledSample(string file)
        {
            string readme = File.ReadAllText(Path.Combine(Repository.Root, file)).Replace("\r\n", "\n");
            Match block = Regex.Match(readme, "## Quick start.*?```csharp\\n(.*?)```", RegexOptions.Singleline);
            Assert.True(block.Success, file + " has no ```csharp block under '## Quick start'");
            string sample = File.ReadAllText(Path.Combine(Repository.Root, "samples", "QuickStart", "Program.cs"));
            Assert.Equal(Normalize(sample), Normalize(block.Groups[1].Value));
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
