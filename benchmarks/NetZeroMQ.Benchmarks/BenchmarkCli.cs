using System;
using System.CommandLine;
using NetZeroMQ.Benchmarks.Cli;

namespace NetZeroMQ.Benchmarks;

/// <summary>
/// Parses the command line with the tool's one parser (<see cref="BenchmarkCommandLine"/>) and runs the chosen mode, or the
/// BenchmarkDotNet suite when none is given. --help prints every option of every mode; any usage error prints what is wrong
/// and the usage on stderr and exits 2 before anything runs.
/// </summary>
public static class BenchmarkCli
{
    public const int UsageError = 2;

    public static int Run(string[] args)
    {
        ParseResult parsed = BenchmarkCommandLine.Parse(args);
        if (BenchmarkCommandLine.HelpRequested(parsed))
        {
            HelpText.Write(Console.Out);
            return 0;
        }

        if (parsed.Errors.Count > 0)
        {
            foreach (string error in BenchmarkCommandLine.Errors(parsed))
            {
                Console.Error.WriteLine("error: " + error);
            }

            Console.Error.WriteLine();
            HelpText.WriteUsage(Console.Error);
            Console.Error.WriteLine();
            Console.Error.WriteLine("Every option of every mode: --help");
            return UsageError;
        }

        // Exceptions are not caught here: a crash in a mode should show its stack trace and fail the process.
        return parsed.Invoke(new InvocationConfiguration { EnableDefaultExceptionHandler = false });
    }
}
