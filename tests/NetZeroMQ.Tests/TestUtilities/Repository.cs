using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>Locates files of this repository from the test's output folder.</summary>
    public static class Repository
    {
        /// <summary>The folder that holds NetZeroMQ.sln.</summary>
        public static string Root { get; } = FindRoot();

        /// <summary>The paths (relative to <see cref="Root"/>, '/'-separated) of the files git tracks that exist in the work tree.</summary>
        public static IReadOnlyList<string> TrackedFiles()
        {
            var start = new ProcessStartInfo("git") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
            foreach (string argument in new[] { "-C", Root, "ls-files", "-z" })
            {
                start.ArgumentList.Add(argument);
            }

            using Process git = Process.Start(start) ?? throw new InvalidOperationException("could not start git");
            var error = git.StandardError.ReadToEndAsync();
            string output = git.StandardOutput.ReadToEnd();
            if (!git.WaitForExit((int)TestTimeouts.Expected.TotalMilliseconds) || git.ExitCode != 0)
            {
                throw new InvalidOperationException("git ls-files failed in " + Root + ": " + error.Result);
            }

            string[] files = output.Split('\0', StringSplitOptions.RemoveEmptyEntries);
            if (files.Length == 0)
            {
                throw new InvalidOperationException("git ls-files listed no file in " + Root);
            }

            return files.Where(f => File.Exists(Path.Combine(Root, f))).ToList();
        }

        private static string FindRoot()
        {
            string? dir = AppContext.BaseDirectory;
            while (dir is not null && !File.Exists(Path.Combine(dir, "NetZeroMQ.sln")))
            {
                dir = Path.GetDirectoryName(dir);
            }

            return dir ?? throw new InvalidOperationException("NetZeroMQ.sln not found above " + AppContext.BaseDirectory);
        }
    }
}
