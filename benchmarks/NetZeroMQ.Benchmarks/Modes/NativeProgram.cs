using System;
using System.Diagnostics;
using System.IO;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>Finds the repository's benchmarks/native folder and builds nzmq_native into artifacts/native with its build.sh.</summary>
public static class NativeProgram
{
    public const string InstallHint = "the native comparison needs gcc and the libzmq headers (Debian: apt-get install gcc libzmq3-dev)";

    /// <summary>The built program's path, or null after printing why it could not be built.</summary>
    public static string? Build()
    {
        string? root = FindRepositoryRoot();
        if (root is null)
        {
            Console.Error.WriteLine("error: benchmarks/native/build.sh not found above " + Environment.CurrentDirectory + " or " + AppContext.BaseDirectory);
            return null;
        }

        if (!OnPath("gcc"))
        {
            Console.Error.WriteLine("error: gcc not found on PATH; " + InstallHint);
            return null;
        }

        string output = Path.Combine(root, "artifacts", "native", "nzmq_native");
        Directory.CreateDirectory(Path.GetDirectoryName(output)!);
        var start = new ProcessStartInfo("sh") { RedirectStandardOutput = true, RedirectStandardError = true };
        start.ArgumentList.Add(Path.Combine(root, "benchmarks", "native", "build.sh"));
        start.ArgumentList.Add(output);
        using var process = Process.Start(start)!;
        string stdout = process.StandardOutput.ReadToEnd();
        string stderr = process.StandardError.ReadToEnd();
        process.WaitForExit();
        if (process.ExitCode != 0 || !File.Exists(output))
        {
            Console.Error.WriteLine("error: building the native program failed (exit " + process.ExitCode + "):");
            Console.Error.WriteLine(stderr.Trim());
            Console.Error.WriteLine(InstallHint);
            return null;
        }

        Console.WriteLine(stdout.Trim());
        return output;
    }

    public static bool OnPath(string command)
    {
        foreach (string dir in (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            if (File.Exists(Path.Combine(dir, command)))
            {
                return true;
            }
        }

        return false;
    }

    public static string? FindRepositoryRoot()
    {
        foreach (string start in new[] { Environment.CurrentDirectory, AppContext.BaseDirectory })
        {
            for (var dir = new DirectoryInfo(start); dir is not null; dir = dir.Parent)
            {
                if (File.Exists(Path.Combine(dir.FullName, "benchmarks", "native", "build.sh")))
                {
                    return dir.FullName;
                }
            }
        }

        return null;
    }
}
