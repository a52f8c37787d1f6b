using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using NetZeroMQ.Benchmarks.Modes;

namespace NetZeroMQ.Benchmarks.Reporting;

/// <summary>
/// Where a run writes its files: artifacts/bench in the repository (not tracked), named as benchmarks/results/README.md names
/// recorded runs, <c>&lt;date&gt;-&lt;commit&gt;-&lt;what&gt;</c> (.md results, .json raw numbers, .png chart, .log every round), so
/// that recording a run is copying its .md into benchmarks/results/. The tool never writes into benchmarks/results itself:
/// not every run is one to record, and a run of uncommitted code (its name says "-dirty") must not be.
/// </summary>
public sealed class RunFiles
{
    private RunFiles(string stem) => Stem = stem;

    /// <summary>The path without extension: artifacts/bench/2026-11-28-1335d2a-matrix.</summary>
    public string Stem { get; }

    public string Results => Stem + ".md";

    public string Json => Stem + ".json";

    public string Chart => Stem + ".png";

    public string Log => Stem + ".log";

    /// <summary>A new set of names in <paramref name="folder"/> (default artifacts/bench), made unique with the time if needed.</summary>
    public static RunFiles Create(string what, string? folder = null)
    {
        string root = NativeProgram.FindRepositoryRoot() ?? Directory.GetCurrentDirectory();
        folder ??= Path.Combine(root, "artifacts", "bench");
        Directory.CreateDirectory(folder);
        DateTime now = DateTime.UtcNow;
        string stem = Path.Combine(folder, $"{now.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture)}-{Commit(root)}-{what}");
        if (File.Exists(stem + ".md") || File.Exists(stem + ".log"))
        {
            stem += "-" + now.ToString("HHmmss", CultureInfo.InvariantCulture);
        }

        return new RunFiles(stem);
    }

    /// <summary>A path as the user should read it: relative to the current directory when inside it.</summary>
    public static string Show(string path)
    {
        string relative = Path.GetRelativePath(Directory.GetCurrentDirectory(), path);
        return relative.StartsWith("..", StringComparison.Ordinal) ? path : relative;
    }

    /// <summary>The short commit, with "-dirty" when tracked files have changes; "nogit" without git.</summary>
    private static string Commit(string root)
    {
        string? head = Git(root, "rev-parse", "--short=7", "HEAD");
        if (string.IsNullOrEmpty(head))
        {
            return "nogit";
        }

        return string.IsNullOrEmpty(Git(root, "status", "--porcelain", "--untracked-files=no")) ? head : head + "-dirty";
    }

    private static string? Git(string root, params string[] arguments)
    {
        try
        {
            var start = new ProcessStartInfo("git") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false, WorkingDirectory = root };
            foreach (string argument in arguments)
            {
                start.ArgumentList.Add(argument);
            }

            using Process process = Process.Start(start)!;
            string output = process.StandardOutput.ReadToEnd().Trim();
            process.StandardError.ReadToEnd();
            process.WaitForExit();
            return process.ExitCode == 0 ? output : null;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return null;
        }
    }
}
