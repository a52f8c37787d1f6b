using System;
using System.Collections.Generic;
using System.CommandLine;
using System.CommandLine.Parsing;
using System.Linq;
using NetZeroMQ.Benchmarks.Modes;
using NetZeroMQ.Benchmarks.Modes.Matrix;

namespace NetZeroMQ.Benchmarks.Cli;

/// <summary>
/// The one parser of this tool: the root command is the BenchmarkDotNet suite (its options), and each diagnostic mode is a
/// command named by its flag with its own options. Anything else is a parse error: an unknown option, an option of another
/// mode, a second mode, a missing or malformed value.
/// </summary>
public static class BenchmarkCommandLine
{
    // "@file" is an ordinary argument here (a glob could start with it), not a response file.
    private static readonly ParserConfiguration s_configuration = new() { ResponseFileTokenReplacer = null };

    /// <summary>Accepted in every mode (it is recursive), so that "--native --help" shows the help too.</summary>
    public static Option<bool> Help { get; } = new("--help", "-h")
    {
        Description = "this text: every option of every mode",
        Arity = ArgumentArity.Zero,
        Recursive = true,
    };

    /// <summary>The diagnostic modes, in the order the help lists them.</summary>
    public static IReadOnlyList<Command> Modes { get; } = new[]
    {
        ConnectivityTestMode.Command,
        ReceiveModeTestMode.Command,
        AllocationTestMode.Command,
        NativeComparisonMode.Command,
        NetMqComparisonMode.Command,
        MatrixMode.Command,
        NativeCellMode.Command,
        NetMqCellMode.Command,
        RoundTripCellMode.Command,
        WakeUpCellMode.Command,
    };

    public static RootCommand Root { get; } = Build();

    public static ParseResult Parse(IReadOnlyList<string> args) => Root.Parse(args, s_configuration);

    public static bool HelpRequested(ParseResult result) => result.GetResult(Help) is { Implicit: false };

    /// <summary>The parse errors, each unknown token with a hint where it belongs if it is an option of another mode.</summary>
    public static IEnumerable<string> Errors(ParseResult result)
    {
        foreach (ParseError error in result.Errors)
        {
            yield return error.Message;
        }

        foreach (string token in result.UnmatchedTokens.Distinct(StringComparer.Ordinal))
        {
            if (Modes.Any(m => m.Name == token))
            {
                yield return $"{token} is a mode: give one mode, first";
                continue;
            }

            var owners = Modes.Where(m => m.Options.Any(o => Names(o).Contains(token))).Select(m => m.Name).ToList();
            if (SuiteMode.Options.Any(o => Names(o).Contains(token)))
            {
                owners.Insert(0, "the BenchmarkDotNet suite (no mode)");
            }

            if (owners.Count > 0)
            {
                yield return $"{token} is an option of {string.Join(", ", owners)}, not of {Describe(result.CommandResult.Command)}";
            }
        }
    }

    public static string Describe(Command command) => command is RootCommand ? "the BenchmarkDotNet suite (no mode)" : command.Name;

    public static IEnumerable<string> Names(Option option) => option.Aliases.Prepend(option.Name);

    private static RootCommand Build()
    {
        var root = new RootCommand("NetZeroMQ.Benchmarks: BenchmarkDotNet benchmarks of NetZeroMQ and diagnostic modes");

        // System.CommandLine's own --help and --version: this tool's help is HelpText, and it has no version of its own.
        root.Options.Clear();
        root.Options.Add(Help);
        foreach (Option option in SuiteMode.Options)
        {
            root.Options.Add(option);
        }

        foreach (Command mode in Modes)
        {
            root.Subcommands.Add(mode);
            mode.Validators.Add(RejectSuiteOptions);
        }

        root.SetAction(SuiteMode.Run);
        root.Validators.Add(SuiteMode.Validate);
        return root;
    }

    /// <summary>
    /// "--quick --native": the suite's options belong to the root command, which precedes every mode, so the parser alone
    /// would accept them and the mode would ignore them.
    /// </summary>
    private static void RejectSuiteOptions(CommandResult mode)
    {
        foreach (Option option in SuiteMode.Options)
        {
            if (mode.GetResult(option) is { Implicit: false } given)
            {
                mode.AddError($"{given.IdentifierToken?.Value ?? option.Name} is an option of the BenchmarkDotNet suite (no mode), not of {mode.Command.Name}");
            }
        }
    }
}
