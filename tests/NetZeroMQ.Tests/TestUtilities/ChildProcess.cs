using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// Runs a scenario of <see cref="Program"/> in a fresh process (the test assembly itself), with a time limit: for cases
    /// that concern a process's first moments, that could abort the process (a libzmq assertion fails one test, not the run),
    /// or that measure process-wide resources without interference from other tests.
    /// </summary>
    public static class ChildProcess
    {
        public const string Marker = "--netzeromq-child";

        private static readonly TimeSpan Limit = TimeSpan.FromSeconds(60);

        /// <summary>Runs <paramref name="scenario"/>; returns its exit code and everything it wrote.</summary>
        public static (int ExitCode, string Output) Run(string scenario, IDictionary<string, string?>? environment = null) =>
            Run(scenario, Array.Empty<string>(), environment, Limit, launcher: null);

        /// <summary>
        /// Runs <paramref name="scenario"/> with arguments, killing it (and failing) after <paramref name="limit"/>.
        /// <paramref name="launcher"/> is a command prefix, such as <c>ip netns exec ns1</c>, that starts the child.
        /// </summary>
        public static (int ExitCode, string Output) Run(
            string scenario,
            IReadOnlyList<string> arguments,
            IDictionary<string, string?>? environment,
            TimeSpan limit,
            IReadOnlyList<string>? launcher)
        {
            using Process process = Process.Start(StartInfo(scenario, arguments, environment, launcher))!;
            var output = process.StandardOutput.ReadToEndAsync();
            var error = process.StandardError.ReadToEndAsync();
            if (!process.WaitForExit((int)limit.TotalMilliseconds))
            {
                process.Kill(entireProcessTree: true);
                process.WaitForExit((int)TestTimeouts.Expected.TotalMilliseconds);
                throw new TimeoutException($"child scenario '{scenario}' did not finish within {limit}; output so far:\n" + Collected(output, error));
            }

            process.WaitForExit();
            return (process.ExitCode, output.Result + error.Result);
        }

        /// <summary>The start information for a child running <paramref name="scenario"/> (for a caller that manages the process).</summary>
        public static ProcessStartInfo StartInfo(
            string scenario,
            IReadOnlyList<string> arguments,
            IDictionary<string, string?>? environment = null,
            IReadOnlyList<string>? launcher = null)
        {
            string assembly = typeof(ChildProcess).Assembly.Location;
            string? host = Environment.ProcessPath;
            if (host is null || !Path.GetFileNameWithoutExtension(host).Equals("dotnet", StringComparison.OrdinalIgnoreCase))
            {
                host = "dotnet";
            }

            ProcessStartInfo start;
            if (launcher is { Count: > 0 })
            {
                start = new ProcessStartInfo(launcher[0]);
                for (int i = 1; i < launcher.Count; i++)
                {
                    start.ArgumentList.Add(launcher[i]);
                }

                start.ArgumentList.Add(host);
            }
            else
            {
                start = new ProcessStartInfo(host);
            }

            start.RedirectStandardOutput = true;
            start.RedirectStandardError = true;
            start.UseShellExecute = false;
            start.ArgumentList.Add("exec");
            start.ArgumentList.Add(assembly);
            start.ArgumentList.Add(Marker);
            start.ArgumentList.Add(scenario);
            foreach (string argument in arguments)
            {
                start.ArgumentList.Add(argument);
            }

            if (environment is not null)
            {
                foreach (KeyValuePair<string, string?> variable in environment)
                {
                    start.Environment[variable.Key] = variable.Value;
                }
            }

            return start;
        }

        /// <summary>The <c>key=value</c> lines a child printed (its measurements), by key; the last value of a key wins.</summary>
        public static Dictionary<string, string> Values(string output)
        {
            var values = new Dictionary<string, string>(StringComparer.Ordinal);
            foreach (string line in output.Split('\n'))
            {
                int eq = line.IndexOf('=');
                if (eq > 0 && line.IndexOf(' ') < 0 || eq > 0 && line.IndexOf(' ') > eq)
                {
                    values[line.Substring(0, eq).Trim()] = line.Substring(eq + 1).Trim();
                }
            }

            return values;
        }

        /// <summary>A numeric measurement the child printed; fails with the whole output when it is missing.</summary>
        public static double Number(Dictionary<string, string> values, string key, string output) =>
            values.TryGetValue(key, out string? text)
                ? double.Parse(text, CultureInfo.InvariantCulture)
                : throw new Xunit.Sdk.XunitException($"the child did not report '{key}'; its output:\n{output}");

        private static string Collected(System.Threading.Tasks.Task<string> output, System.Threading.Tasks.Task<string> error) =>
            (output.IsCompleted ? output.Result : "(stdout still open)") + (error.IsCompleted ? error.Result : "(stderr still open)");
    }
}
