using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// The benchmark tool's command line (benchmarks/NetZeroMQ.Benchmarks, built with the tests): usage errors exit 2 before
    /// anything runs, and its help and its README name the same options. Only --help, errors and --list run: no benchmark.
    /// </summary>
    public class BenchmarkCliTests
    {
        private const int UsageError = 2;

        // Starting the tool and, for --list, converting 97 benchmark cases takes a few seconds; more on a loaded machine.
        private static readonly TimeSpan Limit = TimeSpan.FromSeconds(60);

        private static readonly Regex s_longOption = new(@"(?<![\w-])--[A-Za-z][A-Za-z0-9-]*", RegexOptions.Compiled);

        private static string Readme => File.ReadAllText(Path.Combine(Repository.Root, "benchmarks", "NetZeroMQ.Benchmarks", "README.md"));

        [Fact]
        public void Help_ListsEveryOptionTheReadmeDocuments()
        {
            (int exitCode, string output, string error) = RunTool("--help");

            Assert.Equal(0, exitCode);
            Assert.Equal("", error);
            var missing = LongOptions(Readme).Except(LongOptions(output)).ToList();
            Assert.True(missing.Count == 0, "documented in benchmarks/NetZeroMQ.Benchmarks/README.md but not in --help: " + string.Join(" ", missing));
        }

        [Fact]
        public void Help_EveryOptionIsDocumentedInTheReadme()
        {
            (int exitCode, string output, _) = RunTool("--help");

            Assert.Equal(0, exitCode);
            var undocumented = LongOptions(output).Except(LongOptions(Readme)).ToList();
            Assert.True(undocumented.Count == 0, "in --help but not documented in benchmarks/NetZeroMQ.Benchmarks/README.md: " + string.Join(" ", undocumented));
        }

        [Theory]
        [InlineData("--bogus")]
        [InlineData("--test", "--bogus")]
        [InlineData("--mode-test", "--bogus")]
        [InlineData("--alloc-test", "--bogus")]
        [InlineData("--native", "--bogus")]
        [InlineData("--cell", "--bogus")]
        [InlineData("--netmq", "--bogus")]
        [InlineData("--netmq-cell", "--bogus")]
        [InlineData("--rtt-cell", "--bogus")]
        [InlineData("--quick", "--bogus")]
        public void UnknownOption_ExitsTwoWithTheErrorAndUsageOnStderr(params string[] args)
        {
            (int exitCode, string output, string error) = RunTool(args);

            Assert.Equal(UsageError, exitCode);
            Assert.Equal("", output); // nothing ran
            Assert.Contains("error: Unrecognized command or argument '--bogus'", error, StringComparison.Ordinal);
            Assert.Contains("Usage", error, StringComparison.Ordinal);
            Assert.Contains("--help", error, StringComparison.Ordinal);
        }

        [Theory]
        [InlineData("--rounds is an option of --mode-test, --native, --netmq, not of --test", "--test", "--rounds", "3")]
        [InlineData("--pin is an option of --native, --netmq, not of the BenchmarkDotNet suite (no mode)", "--pin")]
        [InlineData("--quick is an option of the BenchmarkDotNet suite (no mode), not of --native", "--quick", "--native")]
        [InlineData("--quick is an option of the BenchmarkDotNet suite (no mode), not of --native", "--native", "--quick")]
        [InlineData("--mode-test is a mode: give one mode, first", "--native", "--mode-test")]
        public void OptionOfAnotherMode_ExitsTwoNamingWhereItBelongs(string expected, params string[] args)
        {
            (int exitCode, string output, string error) = RunTool(args);

            Assert.Equal(UsageError, exitCode);
            Assert.Equal("", output);
            Assert.Contains(expected, error, StringComparison.Ordinal);
        }

        [Theory]
        [InlineData("--apis: unknown value 'foo' (one of: msg, buf, zc)", "--native", "--apis", "foo")]
        [InlineData("--sizes: '0' is not a positive integer", "--native", "--sizes", "64,0")]
        [InlineData("--transports: a value is listed twice", "--mode-test", "--transports", "tcp,tcp")]
        [InlineData("--mode: unknown value 'fast'", "--cell", "--mode", "fast")]
        [InlineData("Required argument missing for option: '--rounds'", "--native", "--rounds")]
        [InlineData("--job: unknown value 'quick'", "--job", "quick")]
        [InlineData("--anyCategories: unknown value 'Pubsub'", "--anyCategories", "Pubsub")]
        [InlineData("--quick and --job both choose the job", "--quick", "--job", "dry")]
        [InlineData("--apis: unknown value 'zc' (one of: buf, msg)", "--netmq", "--apis", "zc")]
        [InlineData("--patterns: unknown value 'routerrouter' (one of: pushpull, pubsub)", "--netmq", "--patterns", "routerrouter")]
        [InlineData("--transport: unknown value 'ipc' (one of: inproc, tcp)", "--netmq-cell", "--transport", "ipc")]
        [InlineData("--impl: unknown value 'zmq' (one of: netzeromq, netmq)", "--rtt-cell", "--impl", "zmq")]
        [InlineData("--pattern: unknown value 'pushpull'", "--rtt-cell", "--pattern", "pushpull")]
        [InlineData("--warmup-seconds: '0' is not a positive number", "--native", "--warmup-seconds", "0")]
        public void MalformedValue_ExitsTwoNamingTheOption(string expected, params string[] args)
        {
            (int exitCode, string output, string error) = RunTool(args);

            Assert.Equal(UsageError, exitCode);
            Assert.Equal("", output);
            Assert.Contains(expected, error, StringComparison.Ordinal);
        }

        [Theory]
        [InlineData("--patterns does not apply with --latency", "--native", "--latency", "--patterns", "pushpull")]
        [InlineData("--unchecked does not apply with --latency", "--native", "--latency", "--unchecked")]
        [InlineData("--apis does not apply with --latency", "--netmq", "--latency", "--apis", "msg")]
        public void StreamOptionWithLatency_ExitsTwoNamingTheOption(string expected, params string[] args)
        {
            (int exitCode, string output, string error) = RunTool(args);

            Assert.Equal(UsageError, exitCode);
            Assert.Equal("", output);
            Assert.Contains(expected, error, StringComparison.Ordinal);
        }

        [Fact]
        public void Filter_MatchingNothing_ExitsTwoAndSaysHowToListTheCases()
        {
            (int exitCode, string output, string error) = RunTool("--filter", "*NoSuchBenchmark*");

            Assert.Equal(UsageError, exitCode);
            Assert.Equal("", output); // BenchmarkDotNet was not started
            Assert.Contains("error: no benchmark matches --filter *NoSuchBenchmark*", error, StringComparison.Ordinal);
            Assert.Contains("'--list flat' lists every case", error, StringComparison.Ordinal);
        }

        [Fact]
        public void ListFlat_WithFilter_ListsOnlyTheMatchingCases()
        {
            (int exitCode, string output, string error) = RunTool("--list", "flat", "--filter", "*CallOverheadBenchmarks*");

            Assert.Equal(0, exitCode);
            Assert.Equal("", error);
            string[] cases = CaseLines(output);
            Assert.Equal(
                new[] { "CallOverheadBenchmarks.PInvokeTransition()", "CallOverheadBenchmarks.UsageGuardEnterExit()", "CallOverheadBenchmarks.SafeHandleAddRefRelease()" },
                cases.Select(c => c.Split("  ")[0]).ToArray());
        }

        [Fact]
        public void ListFlat_CountsTheCasesTheReadmeAnnounces()
        {
            Match announced = Regex.Match(Readme, @"^## The suite \((\d+) cases\)", RegexOptions.Multiline);
            Assert.True(announced.Success, "README.md has no '## The suite (N cases)' heading");

            (int exitCode, string output, _) = RunTool("--list", "flat");

            Assert.Equal(0, exitCode);
            Assert.Contains($"Cases ({announced.Groups[1].Value}):", output, StringComparison.Ordinal);
            Assert.Equal(int.Parse(announced.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture), CaseLines(output).Length);
        }

        private static string[] CaseLines(string output) =>
            output.Split('\n').SkipWhile(l => !l.StartsWith("Cases (", StringComparison.Ordinal)).Skip(1)
                .Where(l => l.StartsWith("  ", StringComparison.Ordinal)).Select(l => l.Trim()).ToArray();

        private static HashSet<string> LongOptions(string text) => s_longOption.Matches(text).Select(m => m.Value).ToHashSet(StringComparer.Ordinal);

        private static (int ExitCode, string Output, string Error) RunTool(params string[] args)
        {
            var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
            start.ArgumentList.Add(ToolDll());
            foreach (string arg in args)
            {
                start.ArgumentList.Add(arg);
            }

            using Process process = Process.Start(start)!;
            var output = process.StandardOutput.ReadToEndAsync();
            var error = process.StandardError.ReadToEndAsync();
            if (!process.WaitForExit((int)Limit.TotalMilliseconds))
            {
                process.Kill(entireProcessTree: true);
                throw new TimeoutException($"the benchmark tool with '{string.Join(" ", args)}' did not finish within {Limit}");
            }

            process.WaitForExit();
            return (process.ExitCode, output.Result.Replace("\r\n", "\n"), error.Result.Replace("\r\n", "\n"));
        }

        private static string ToolDll()
        {
            string config = AppContext.BaseDirectory.Contains("Release", StringComparison.Ordinal) ? "Release" : "Debug";
            string dll = Path.Combine(Repository.Root, "benchmarks", "NetZeroMQ.Benchmarks", "bin", config, "net10.0", "NetZeroMQ.Benchmarks.dll");
            Assert.True(File.Exists(dll), dll + " was not built");
            return dll;
        }
    }
}
