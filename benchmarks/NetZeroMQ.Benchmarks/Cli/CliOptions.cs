using System;
using System.Collections.Generic;
using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;
using System.Linq;

namespace NetZeroMQ.Benchmarks.Cli;

/// <summary>
/// The kinds of option this tool has, built on System.CommandLine so that every value is checked while parsing (a bad value
/// is a usage error before anything runs, never a silent fallback). Lists are comma-separated ("--sizes 64,1024"), enum values
/// are written in lower case ("--transports inproc,tcp").
/// </summary>
public static class CliOptions
{
    /// <summary>Parses one token; on failure reports why through <paramref name="error"/> and returns false.</summary>
    private delegate bool TryParse<T>(string token, Action<string> error, out T value);

    /// <summary>
    /// A diagnostic mode. It is a System.CommandLine command whose name is the mode's flag ("--native"), so the mode comes first
    /// and the parser itself rejects any option the mode does not have.
    /// </summary>
    public static Command Mode(string name, string description, Func<ParseResult, int> run, params Option[] options)
    {
        var command = new Command(name, description);
        foreach (Option option in options)
        {
            command.Options.Add(option);
        }

        command.SetAction(run);
        return command;
    }

    public static Option<bool> Flag(string name, string description) => new(name) { Description = description, Arity = ArgumentArity.Zero };

    /// <summary>An integer &gt;= <paramref name="minimum"/>, <paramref name="fallback"/> when absent.</summary>
    public static Option<int> Int(string name, int fallback, string description, int minimum = 1) => new(name)
    {
        Description = description,
        HelpName = "N",
        DefaultValueFactory = _ => fallback,
        CustomParser = result => One(result, IntParser(name, minimum)),
    };

    /// <summary>An integer &gt;= <paramref name="minimum"/>, or null when absent (the mode computes its default).</summary>
    public static Option<int?> OptionalInt(string name, string description, int minimum = 1) => new(name)
    {
        Description = description,
        HelpName = "N",
        CustomParser = result => One(result, IntParser(name, minimum)),
    };

    /// <summary>A finite number &gt; 0.</summary>
    public static Option<double> PositiveDouble(string name, double fallback, string description) => new(name)
    {
        Description = description,
        HelpName = "X",
        DefaultValueFactory = _ => fallback,
        CustomParser = result => One<double>(result, PositiveDoubleParser(name)),
    };

    /// <summary>A finite number &gt; 0, or null when absent (the mode computes its default).</summary>
    public static Option<double?> OptionalPositiveDouble(string name, string description) => new(name)
    {
        Description = description,
        HelpName = "X",
        CustomParser = result => One<double?>(result, (string token, Action<string> error, out double? value) =>
        {
            bool parsed = PositiveDoubleParser(name)(token, error, out double number);
            value = parsed ? number : null;
            return parsed;
        }),
    };

    /// <summary>One of <paramref name="values"/>.</summary>
    public static Option<string> OneOf(string name, string fallback, string description, params string[] values) => new(name)
    {
        Description = description,
        HelpName = string.Join('|', values),
        DefaultValueFactory = _ => fallback,
        CustomParser = result => One(result, ChoiceParser(name, values)),
    };

    /// <summary>One of <paramref name="values"/>, or null when absent.</summary>
    public static Option<string?> OptionalOneOf(string name, string description, string[] values, params string[] aliases) => new(name, aliases)
    {
        Description = description,
        HelpName = string.Join('|', values),
        CustomParser = result => One(result, ChoiceParser(name, values)),
    };

    /// <summary>
    /// One or more values, as separate tokens ("--filter '*A*' '*B*'", as BenchmarkDotNet takes them); each one of
    /// <paramref name="values"/> unless that is null.
    /// </summary>
    public static Option<string[]> Many(string name, string helpName, string description, string[]? values, params string[] aliases) => new(name, aliases)
    {
        Description = description,
        HelpName = helpName,
        Arity = ArgumentArity.OneOrMore,
        AllowMultipleArgumentsPerToken = true,
        CustomParser = result =>
        {
            if (values is not null)
            {
                TryParse<string> choice = ChoiceParser(name, values);
                foreach (Token token in result.Tokens)
                {
                    choice(token.Value, result.AddError, out _);
                }
            }

            return result.Tokens.Select(t => t.Value).ToArray();
        },
    };

    /// <summary>One value of <typeparamref name="T"/>, written in lower case.</summary>
    public static Option<T> Enum<T>(string name, T fallback, string description)
        where T : struct, Enum => new(name)
        {
            Description = description,
            HelpName = string.Join('|', NamesOf<T>()),
            DefaultValueFactory = _ => fallback,
            CustomParser = result => One(result, EnumParser<T>(name)),
        };

    /// <summary>A comma-separated list of <paramref name="values"/>, each at most once.</summary>
    public static Option<IReadOnlyList<string>> ListOf(string name, string fallback, string description, params string[] values) =>
        List(name, fallback, description, ChoiceParser(name, values));

    /// <summary>A comma-separated list of values of <typeparamref name="T"/>, written in lower case, each at most once.</summary>
    public static Option<IReadOnlyList<T>> EnumList<T>(string name, string fallback, string description)
        where T : struct, Enum => List(name, fallback, description, EnumParser<T>(name));

    /// <summary>A comma-separated list of integers &gt; 0, each at most once.</summary>
    public static Option<IReadOnlyList<int>> IntList(string name, string fallback, string description) =>
        List(name, fallback, description, IntParser(name, 1));

    /// <summary>The lower-case spelling of an enum value, as options and the native program write it.</summary>
    public static string NameOf<T>(T value)
        where T : struct, Enum => value.ToString().ToLowerInvariant();

    private static Option<IReadOnlyList<T>> List<T>(string name, string fallback, string description, TryParse<T> parse) => new(name)
    {
        Description = description,
        HelpName = "list",

        // One comma-separated token: a collection type would otherwise take one or more tokens.
        Arity = ArgumentArity.ExactlyOne,
        DefaultValueFactory = _ => Split(fallback).Select(item => parse(item, message => throw new ArgumentException(message, nameof(fallback)), out T value) ? value : default!).ToList(),
        CustomParser = result =>
        {
            var values = new List<T>();
            bool parsed = true;
            foreach (string item in Split(result.Tokens.Single().Value))
            {
                parsed &= parse(item, result.AddError, out T value);
                values.Add(value);
            }

            if (parsed && values.Count == 0)
            {
                result.AddError($"{name}: the list is empty");
            }
            else if (parsed && values.Distinct().Count() != values.Count)
            {
                result.AddError($"{name}: a value is listed twice");
            }

            return values;
        },
    };

    private static T One<T>(ArgumentResult result, TryParse<T> parse)
    {
        parse(result.Tokens.Single().Value, result.AddError, out T value);
        return value;
    }

    private static TryParse<int> IntParser(string name, int minimum) => (string token, Action<string> error, out int value) =>
    {
        if (int.TryParse(token, NumberStyles.Integer, CultureInfo.InvariantCulture, out value) && value >= minimum)
        {
            return true;
        }

        error($"{name}: '{token}' is not {(minimum == 1 ? "a positive integer" : $"an integer >= {minimum}")}");
        return false;
    };

    private static TryParse<double> PositiveDoubleParser(string name) => (string token, Action<string> error, out double value) =>
    {
        if (double.TryParse(token, NumberStyles.Float, CultureInfo.InvariantCulture, out value) && value > 0 && double.IsFinite(value))
        {
            return true;
        }

        error($"{name}: '{token}' is not a positive number");
        return false;
    };

    private static TryParse<string> ChoiceParser(string name, string[] values) => (string token, Action<string> error, out string value) =>
    {
        value = token;
        if (values.Contains(token, StringComparer.Ordinal))
        {
            return true;
        }

        error($"{name}: unknown value '{token}' (one of: {string.Join(", ", values)})");
        return false;
    };

    private static TryParse<T> EnumParser<T>(string name)
        where T : struct, Enum
    {
        TryParse<string> choice = ChoiceParser(name, NamesOf<T>());
        return (string token, Action<string> error, out T value) =>
        {
            bool ok = choice(token, error, out string chosen);
            value = ok ? System.Enum.Parse<T>(chosen, ignoreCase: true) : default;
            return ok;
        };
    }

    private static string[] NamesOf<T>()
        where T : struct, Enum => System.Enum.GetValues<T>().Select(NameOf).ToArray();

    private static List<string> Split(string list) =>
        list.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).ToList();
}
