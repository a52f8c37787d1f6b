using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>Runs a scenario of <see cref="Program"/> in a fresh process (the test assembly itself), with a time limit.</summary>
    public static class ChildProcess
    {
        public const string Marker = "--netzeromq-child";

        private static readonly TimeSpan Limit = TimeSpan.FromSeconds(60);

        /// <summary>Runs <paramref name="scenario"/>; returns its exit code and everything it wrote.</summary>
        public static (int ExitCode, string Output) Run(string scenario, IDictionary<string, string?>? environment = null)
        {
            string assembly = typeof(ChildProcess).Assembly.Location;
            string? host = Environment.ProcessPath;
            if (host is null || !Path.GetFileNameWithoutExtension(host).Equals("dotnet", StringComparison.OrdinalIgnoreCase))
            {
                host = "dotnet";
            }

            var start = new ProcessStartInfo(host)
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
            };
            start.ArgumentList.Add("exec");
            start.ArgumentList.Add(assembly);
            start.ArgumentList.Add(Marker);
            start.ArgumentList.Add(scenario);
            if (environment is not null)
            {
                foreach (KeyValuePair<string, string?> variable in environment)
                {
                    start.Environment[variable.Key] = variable.Value;
                }
            }

            using Process process = Process.Start(start)!;
            var output = process.StandardOutput.ReadToEndAsync();
            var error = process.StandardError.ReadToEndAsync();
            if (!process.WaitForExit((int)Limit.TotalMilliseconds))
            {
                process.Kill(entireProcessTree: true);
                throw new TimeoutException($"child scenario '{scenario}' did not finish within {Limit}");
            }

            process.WaitForExit();
            return (process.ExitCode, output.Result + error.Result);
        }
    }
}
