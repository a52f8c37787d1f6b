using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>Finds the repository's benchmarks/native folder and builds nzmq_native into artifacts/native with its build.sh.</summary>
public static class NativeProgram
{
    public const string InstallHint = "the native comparison needs gcc and the libzmq headers (Debian: apt-get install gcc libzmq3-dev)";

    /// <summary>
    /// What every comparison against the C program needs first: taskset when <paramref name="pin"/>, then the built program.
    /// Its path, or null after printing why not.
    /// </summary>
    public static string? Prepare(bool pin)
    {
        if (pin && !OnPath("taskset"))
        {
            Console.Error.WriteLine("error: --pin needs taskset (Debian: util-linux)");
            return null;
        }

        return Build();
    }

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

    /// <summary>
    /// The C program run against the libzmq the .NET side loads: when NETZEROMQ_LIBZMQ names a library, it is preloaded
    /// (LD_PRELOAD) into the C program, whose libzmq.so.5 dependency it then satisfies (a draft build's file is usually called
    /// libzmq.so, which LD_LIBRARY_PATH would not find under that name). The program prints the file zmq_version came from.
    /// </summary>
    public static ChildCommand Command(string native, IReadOnlyList<string> arguments)
    {
        string? library = Environment.GetEnvironmentVariable("NETZEROMQ_LIBZMQ");
        return new ChildCommand(
            native, arguments, string.IsNullOrEmpty(library) ? null : new Dictionary<string, string> { ["LD_PRELOAD"] = Path.GetFullPath(library) });
    }

    /// <summary>How the C program finds its libzmq, for the header line.</summary>
    public static string LibraryChoice =>
        Environment.GetEnvironmentVariable("NETZEROMQ_LIBZMQ") is { Length: > 0 } library ? "LD_PRELOAD=" + Path.GetFullPath(library) : "the dynamic linker's libzmq.so.5";

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
