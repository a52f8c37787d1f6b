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
        [InlineData("--wake-cell", "--bogus")]
        [InlineData("--matrix", "--bogus")]
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
        [InlineData("--rounds is an option of --mode-test, --native, --netmq, --matrix, not of --test", "--test", "--rounds", "3")]
        [InlineData("--pin is an option of --native, --netmq, --matrix, not of the BenchmarkDotNet suite (no mode)", "--pin")]
        [InlineData("--with-netmq is an option of --matrix, not of --native", "--native", "--with-netmq")]
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
        [InlineData("--mode: unknown value 'fast' (one of: blocking, async)", "--rtt-cell", "--mode", "fast")]
        [InlineData("--mode: unknown value 'spin' (one of: blocking, async, observed)", "--wake-cell", "--mode", "spin")]
        [InlineData("--wake-sockets applies only with --latency", "--native", "--wake-sockets", "1,10")]
        [InlineData("--warmup-seconds: '0' is not a positive number", "--native", "--warmup-seconds", "0")]
        [InlineData("--patterns: unknown value 'reqrep' (one of: pushpull, pair, pubsub, dealerdealer, dealerrouter, routerrouter, routerrouterpoller)", "--matrix", "--patterns", "reqrep")]
        [InlineData("--api: unknown value 'frame' (one of: buf, msg, zc)", "--matrix", "--api", "frame")]
        [InlineData("--patterns: unknown value 'scatter' (one of: pushpull, pubsub, routerrouter, pair, dealerdealer, dealerrouter, routerrouterpoller, clientserver, radiodish)", "--native", "--patterns", "scatter")]
        [InlineData("--pattern radiodish needs --api msg (every RADIO message carries its group on a Message)", "--cell", "--pattern", "radiodish", "--api", "buf")]
        [InlineData("--sizes: '-64' is not a positive integer", "--matrix", "--sizes", "-64")]
        [InlineData("--rounds does not apply with --from", "--matrix", "--from", "results.json", "--rounds", "2")]
        [InlineData("--with-netmq does not apply with --from", "--matrix", "--with-netmq", "--from", "results.json")]
        public void MalformedValue_ExitsTwoNamingTheOption(string expected, params string[] args)
        {
            (int exitCode, string output, string error) = RunTool(args);

            Assert.Equal(UsageError, exitCode);
            Assert.Equal("", output);
            Assert.Contains(expected, error, StringComparison.Ordinal);
        }

        [Theory]
        [InlineData("--patterns does not apply with --latency", "--native", "--latency", "--patterns", "pushpull")]
        [InlineData("--modes does not apply with --latency", "--native", "--latency", "--modes", "blocking")]
        [InlineData("--apis does not apply with --latency", "--netmq", "--latency", "--apis", "msg")]
        public void StreamOptionWithLatency_ExitsTwoNamingTheOption(string expected, params string[] args)
        {
            (int exitCode, string output, string error) = RunTool(args);

            Assert.Equal(UsageError, exitCode);
            Assert.Equal("", output);
            Assert.Contains(expected, error, StringComparison.Ordinal);
        }

        [Theory]
        [InlineData("clientserver", "inproc")]
        [InlineData("radiodish", "tcp")]
        public void DraftCell_RunsWithTheDraftApi_ElseExitsFourNotRun(string pattern, string transport)
        {
            // The tool loads the same libzmq as this process (same environment): with the draft API the cell moves its
            // checked messages and says so, without it the cell is "not run" (exit 4), never a number.
            (int exitCode, string output, string error) = RunTool(
                "--cell", "--pattern", pattern, "--transport", transport, "--count", "2000", "--jit-warmup", "0", "--timeout-ms", "10000");

            if (NetZeroMQ.Draft.DraftApi.IsAvailable)
            {
                Assert.True(exitCode == 0, error);
                Assert.Contains($"pattern={pattern} transport={transport} size=64 count=2000 ", output, StringComparison.Ordinal);
                Assert.Contains(" draft=1 ", output, StringComparison.Ordinal);
            }
            else
            {
                Assert.Equal(4, exitCode);
                Assert.Equal("", output);
                Assert.Contains("not run: the loaded libzmq has no draft API", error, StringComparison.Ordinal);
            }
        }

        [Theory]
        [InlineData("netzeromq", "reqrep")]
        [InlineData("netzeromq", "dealerrouter")]
        [InlineData("netmq", "dealerrouter")]
        public void RttCellAsync_EchoesEveryRoundTripAndSaysItAwaited(string impl, string pattern)
        {
            (int exitCode, string output, string error) = RunTool(
                "--rtt-cell", "--impl", impl, "--mode", "async", "--pattern", pattern, "--transport", "inproc", "--count", "300", "--warmup", "0", "--timeout-ms", "10000");

            Assert.True(exitCode == 0, error);
            Assert.Contains($"pattern={pattern} transport=inproc size=64 count=300 mode=async ", output, StringComparison.Ordinal);
            Assert.Matches(@"rtt_p50_us=\d+\.\d\d rtt_p99_us=\d+\.\d\d", output);
        }

        [Theory]
        [InlineData("blocking", "1")]
        [InlineData("async", "3")]
        [InlineData("observed", "3")]
        public void WakeCell_EachMode_PrintsTheWakeUpsItMeasured(string mode, string sockets)
        {
            (int exitCode, string output, string error) = RunTool(
                "--wake-cell", "--mode", mode, "--sockets", sockets, "--count", "300", "--warmup", "0", "--timeout-ms", "10000");

            Assert.True(exitCode == 0, error);
            Assert.Contains($"pattern=wakeup transport=inproc size=64 count=300 mode={mode} sockets={sockets} ", output, StringComparison.Ordinal);
            Assert.Matches(@"wake_p50_us=\d+\.\d\d wake_p99_us=\d+\.\d\d", output);
            Assert.Contains(mode == "blocking" ? " reactor=none " : " reactor=", output, StringComparison.Ordinal);
        }

        [Fact]
        public void MatrixFrom_MissingFile_ExitsTwoNamingIt()
        {
            string missing = Path.Combine(Path.GetTempPath(), "nzmq-no-such-results-" + Guid.NewGuid().ToString("N") + ".json");

            (int exitCode, string output, string error) = RunTool("--matrix", "--from", missing);

            Assert.Equal(UsageError, exitCode);
            Assert.Equal("", output);
            Assert.Contains("error: --from " + missing, error, StringComparison.Ordinal);
        }

        /// <summary>
        /// --matrix --from prints the tables of a results file and draws its chart without measuring: the numbers come from the
        /// runs in the file (per-round ratios, their median and cv, the mean over the cells measured, the cells below 0.90), and a
        /// cell that did not run or whose rounds all failed is shown as not measured, with the reason, never with a number.
        /// </summary>
        [Fact]
        public void MatrixFrom_PrintsOnlyWhatTheResultsFileMeasured()
        {
            string folder = Path.Combine(Path.GetTempPath(), "nzmq-matrix-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(folder);
            try
            {
                string results = Path.Combine(folder, "results.json");
                string chart = Path.Combine(folder, "chart.png");
                File.WriteAllText(results, """
                    {
                      "Started": "2026-01-02 03:04:05Z", "Finished": "2026-01-02 03:05:05Z", "Command": "dotnet run -c Release -- --matrix",
                      "Api": "buf", "Rounds": 2, "Seconds": 0.2, "WarmupSeconds": 1, "Pinned": false, "Cpus": 2,
                      "LoadAtStart": "0.10 0.20 0.30", "LoadAtEnd": "0.40 0.50 0.60", "OtherCpus": 0.03,
                      "Cells": [
                        { "Pattern": "pushpull", "Transport": "inproc", "Size": 64, "Count": 1000,
                          "Native": [100, 200], "Dotnet": [90, 220], "NetMq": [10, 10], "DotnetBytesPerMessage": [0, 0], "NetMqBytesPerMessage": [200, 200] },
                        { "Pattern": "pair", "Transport": "ipc", "Size": 256, "NotRun": "the native pilot run failed (message above)",
                          "NetMqNotRun": "the NetMQ comparison has PUSH/PULL and PUB/SUB only" },
                        { "Pattern": "dealerdealer", "Transport": "tcp", "Size": 1024, "Count": 2000, "Native": [100, 100], "Dotnet": [null, null],
                          "NetMqNotRun": "the NetMQ comparison has PUSH/PULL and PUB/SUB only" },
                        { "Pattern": "pubsub", "Transport": "tcp", "Size": 65536, "Count": 3000, "Native": [100, 100], "Dotnet": [80, 84],
                          "NetMqNotRun": "not asked for (--with-netmq)", "DotnetBytesPerMessage": [0.5, 1.5] }
                      ]
                    }
                    """);

                (int exitCode, string output, string error) = RunTool("--matrix", "--from", results, "--chart", chart);

                Assert.Equal(0, exitCode);
                Assert.Equal("", error);
                // The first cell's rounds disagree (cv 14% > 10%): marked, and left out of the mean and the cells below 0.90.
                Assert.Contains("| PUSH/PULL | inproc | 1.00? (14%) |  |  |  |", output, StringComparison.Ordinal);
                Assert.Contains("| PAIR | ipc |  | not run |  |  |", output, StringComparison.Ordinal);
                Assert.Contains("| DEALER/DEALER | tcp |  |  | not run |  |", output, StringComparison.Ordinal);
                Assert.Contains("| PUB/SUB | tcp |  |  |  | 0.82 (3%) |", output, StringComparison.Ordinal);
                Assert.Contains("Mean over the 1 reliable cells: 0.820; lowest 0.82, highest 0.82 (1 unreliable cells left out).", output, StringComparison.Ordinal);
                Assert.Contains("Cells below 0.90 (1 of 1 reliable): PUB/SUB tcp 64 KiB 0.82.", output, StringComparison.Ordinal);
                Assert.Contains("Unreliable (1): PUSH/PULL inproc 64 B 1.00: cv 14% > 10%.", output, StringComparison.Ordinal);
                Assert.Contains(
                    "Not measured (2): PAIR ipc 256 B: the native pilot run failed (message above); DEALER/DEALER tcp 1 KiB: every round failed on a side (messages above).",
                    output,
                    StringComparison.Ordinal);
                Assert.Contains("| PUSH/PULL | inproc | 64 B | 1,000 | 150 | 155 | 1.00 | 14% | cv 14% > 10% | 10 | 15.50 | 0.0 | 200.0 |", output, StringComparison.Ordinal);
                Assert.Contains("| PAIR | ipc | 256 B | - | not run: the native pilot run failed (message above) |", output, StringComparison.Ordinal);

                // NetMQ's columns stay empty where it did not run; the reason is said once, not per row.
                Assert.Contains("| PUB/SUB | tcp | 64 KiB | 3,000 | 100 | 82 | 0.82 | 3% | yes |  |  | 1.0 |  |", output, StringComparison.Ordinal);
                Assert.Contains("NetMQ's columns are empty where it did not run: not asked for (--with-netmq) (1 cells).", output, StringComparison.Ordinal);
                Assert.DoesNotContain("| not run: not asked for", output, StringComparison.Ordinal);
                byte[] png = File.ReadAllBytes(chart);
                Assert.True(png.Length > 1000, $"chart of {png.Length} bytes");
                Assert.Equal(new byte[] { 0x89, (byte)'P', (byte)'N', (byte)'G' }, png.Take(4).ToArray());
            }
            finally
            {
                Directory.Delete(folder, recursive: true);
            }
        }

        /// <summary>
        /// The reliability rule: a cell measured while other work kept more than 0.20 CPUs busy, or whose rounds spread by more than 10%, is
        /// marked unreliable beside its number and left out of the mean and the cells below 0.90, which say how many were left
        /// out; the verdict says so. Read back with --from: nothing is timed.
        /// </summary>
        [Fact]
        public void MatrixFrom_HighSpreadOrLoad_MarksCellsUnreliableAndLeavesThemOutOfTheMean()
        {
            string output = MatrixFrom(
                """
                { "Pattern": "pushpull", "Transport": "inproc", "Size": 64, "Count": 1000, "OtherCpus": 0.05, "Native": [100, 100, 100], "Dotnet": [95, 95, 96] },
                { "Pattern": "pushpull", "Transport": "tcp", "Size": 64, "Count": 1000, "OtherCpus": 0.05, "Native": [100, 100, 100], "Dotnet": [30, 70, 110] },
                { "Pattern": "pushpull", "Transport": "ipc", "Size": 64, "Count": 1000, "OtherCpus": 1.7, "Native": [100, 100, 100], "Dotnet": [60, 60, 61] }
                """);

            Assert.Contains("[2/3] PUSH/PULL tcp 64 B: .NET / native 0.70 (cv 57%), unreliable: cv 57% > 10%", output, StringComparison.Ordinal);
            Assert.Contains("[3/3] PUSH/PULL ipc 64 B: .NET / native 0.60 (cv 1%), unreliable: other work 1.70 CPUs > 0.20", output, StringComparison.Ordinal);
            Assert.Contains("| PUSH/PULL | tcp | 0.70? (57%) |", output, StringComparison.Ordinal);
            Assert.Contains("| PUSH/PULL | ipc | 0.60? (1%) |", output, StringComparison.Ordinal);
            Assert.Contains("Mean over the 1 reliable cells: 0.950; lowest 0.95, highest 0.95 (2 unreliable cells left out).", output, StringComparison.Ordinal);
            Assert.Contains("Cells below 0.90: none of the 1 reliable.", output, StringComparison.Ordinal);
            Assert.Contains("Unreliable, not counted: 2 (1 by other work, 1 by spread); their mean, for reference only: 0.65, 2 of them below 0.90.", output, StringComparison.Ordinal);
            Assert.Contains("Verdict: 2 of 3 cells are unreliable", output, StringComparison.Ordinal);
        }

        [Fact]
        public void MatrixFrom_EveryCellUnreliable_NoMeanAndTheVerdictSaysTheNumbersCannotBeTrusted()
        {
            string output = MatrixFrom(
                """
                { "Pattern": "pubsub", "Transport": "tcp", "Size": 64, "Count": 1000, "OtherCpus": 1.95, "Native": [100, 100], "Dotnet": [120, 121] }
                """);

            Assert.Contains("No reliable cell: no mean (1 unreliable cells left out).", output, StringComparison.Ordinal);
            Assert.Contains("Verdict: these numbers cannot be trusted: every cell is unreliable", output, StringComparison.Ordinal);
            Assert.DoesNotContain("Mean over", output, StringComparison.Ordinal);
        }

        /// <summary>
        /// The progress lines of a run, replayed from the cells' recorded durations: elapsed time and the planned time left scaled by
        /// the pace so far. Two cells of equal plan, the first took 20 s: about 20 s left; after the second, done.
        /// </summary>
        [Fact]
        public void MatrixFrom_ReplaysProgressLinesWithElapsedTimeAndTimeLeft()
        {
            string output = MatrixFrom(
                """
                { "Pattern": "pair", "Transport": "inproc", "Size": 64, "Count": 1000, "Seconds": 20, "OtherCpus": 0.02, "Native": [100, 100, 100], "Dotnet": [99, 100, 101] },
                { "Pattern": "pair", "Transport": "inproc", "Size": 1024, "Count": 1000, "Seconds": 10, "OtherCpus": 0.02, "Native": [100, 100, 100], "Dotnet": [99, 100, 101] }
                """);

            Assert.Contains("[1/2] PAIR inproc 64 B: .NET / native 1.00 (cv 1%) | 0:20 elapsed, about 0:20 left\n", output, StringComparison.Ordinal);
            Assert.Contains("[2/2] PAIR inproc 1 KiB: .NET / native 1.00 (cv 1%) | 0:30 elapsed, done\n", output, StringComparison.Ordinal);
            Assert.Contains("Verdict: the numbers can be trusted", output, StringComparison.Ordinal);
        }

        /// <summary>
        /// The chart's y-axis keeps the band around 1.00 readable: 0.8 to 1.2 when every ratio is inside it, widened to 0.5-1.5 at
        /// most; a ratio beyond is an outlier drawn at the edge with its value, and the tool says which.
        /// </summary>
        [Theory]
        [InlineData("[85, 85, 85]", "[105, 105, 105]", "chart axis 0.8 to 1.2; no ratio beyond it")]
        [InlineData("[29, 29, 29]", "[572, 572, 572]", "chart axis 0.5 to 1.5; 2 beyond it, marked at the edge with their value: PUSH/PULL tcp 64 B 0.29; PUSH/PULL tcp 64 KiB 5.72")]
        [InlineData("[70, 70, 70]", "[572, 572, 572]", "chart axis 0.6 to 1.5; 1 beyond it, marked at the edge with their value: PUSH/PULL tcp 64 KiB 5.72")]
        public void MatrixFrom_Chart_HoldsTheAxisToTheBandAndMarksOutliers(string small, string large, string expected)
        {
            string output = MatrixFrom(
                $$"""
                { "Pattern": "pushpull", "Transport": "tcp", "Size": 64, "Count": 1000, "Native": [100, 100, 100], "Dotnet": {{small}} },
                { "Pattern": "pushpull", "Transport": "tcp", "Size": 65536, "Count": 1000, "Native": [100, 100, 100], "Dotnet": {{large}} },
                { "Pattern": "pushpull", "Transport": "tcp", "Size": 1024, "Count": 1000, "Native": [100, 100, 100], "Dotnet": [100, 100, 100] }
                """,
                chart: true);

            Assert.Contains($"({expected})", output, StringComparison.Ordinal);
        }

        [Fact]
        public void BuildScript_Bench_AnnouncesItsDurationAndTheShortForm()
        {
            string script = File.ReadAllText(Path.Combine(Repository.Root, "build.sh"));

            Assert.Contains("about 30 minutes on a quiet 2-CPU machine. For a 5-minute answer: ./build.sh bench quick.", script, StringComparison.Ordinal);
            Assert.Contains("--matrix --with-netmq --patterns pushpull,pubsub,dealerrouter --sizes 64,65536", script, StringComparison.Ordinal);
        }

        /// <summary>Runs --matrix --from on a results file of these cells (2 CPUs, quiet at start and end); returns stdout.</summary>
        private static string MatrixFrom(string cells, bool chart = false)
        {
            string folder = Path.Combine(Path.GetTempPath(), "nzmq-matrix-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(folder);
            try
            {
                string results = Path.Combine(folder, "results.json");
                File.WriteAllText(results, $$"""
                    {
                      "Started": "2026-01-02 03:04:05Z", "Finished": "2026-01-02 03:05:05Z", "Command": "dotnet run -c Release -- --matrix",
                      "Api": "buf", "Rounds": 3, "Seconds": 0.2, "WarmupSeconds": 1, "Pinned": false, "Cpus": 2,
                      "LoadAtStart": "0.10 0.20 0.30", "LoadAtEnd": "0.40 0.50 0.60", "OtherCpus": 0.03,
                      "Cells": [ {{cells}} ]
                    }
                    """);
                string[] args = chart ? new[] { "--matrix", "--from", results, "--chart", Path.Combine(folder, "chart.png") } : new[] { "--matrix", "--from", results };

                (int exitCode, string output, string error) = RunTool(args);

                Assert.Equal(0, exitCode);
                Assert.Equal("", error);
                return output;
            }
            finally
            {
                Directory.Delete(folder, recursive: true);
            }
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
                new[]
                {
                    "CallOverheadBenchmarks.PInvokeTransition()", "CallOverheadBenchmarks.UsageGuardEnterExit()",
                    "CallOverheadBenchmarks.UsageGuardEnterExitChecked()", "CallOverheadBenchmarks.ProcessWideBarrier()",
                    "CallOverheadBenchmarks.SafeHandleAddRefRelease()",
                },
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
