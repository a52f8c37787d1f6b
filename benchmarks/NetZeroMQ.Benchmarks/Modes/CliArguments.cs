using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>The "--key value" and "--flag" arguments of the diagnostic modes.</summary>
public sealed class CliArguments
{
    private readonly string[] _args;

    public CliArguments(string[] args) => _args = args;

    public bool Has(string flag) => _args.Contains(flag);

    public string? Value(string key)
    {
        int i = Array.IndexOf(_args, key);
        if (i < 0)
        {
            return null;
        }

        if (i + 1 >= _args.Length || _args[i + 1].StartsWith("--", StringComparison.Ordinal))
        {
            throw new UsageException(key + " needs a value");
        }

        return _args[i + 1];
    }

    public string String(string key, string fallback) => Value(key) ?? fallback;

    public int Int(string key, int fallback) => Value(key) is { } v ? ParseInt(key, v) : fallback;

    public double Double(string key, double fallback) =>
        Value(key) is { } v
            ? double.TryParse(v, NumberStyles.Float, CultureInfo.InvariantCulture, out double d) && d > 0 ? d : throw new UsageException(key + ": not a positive number: " + v)
            : fallback;

    public IReadOnlyList<string> List(string key, string fallback) =>
        String(key, fallback).Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    public IReadOnlyList<int> IntList(string key, string fallback) => List(key, fallback).Select(v => ParseInt(key, v)).ToList();

    public static T ParseEnum<T>(string key, string value)
        where T : struct, Enum =>
        Enum.TryParse(value, ignoreCase: true, out T parsed) && Enum.IsDefined(parsed)
            ? parsed
            : throw new UsageException($"{key}: unknown value '{value}' (one of: {string.Join(", ", Enum.GetNames<T>().Select(n => n.ToLowerInvariant()))})");

    private static int ParseInt(string key, string value) =>
        int.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out int i) && i > 0 ? i : throw new UsageException(key + ": not a positive integer: " + value);
}

public sealed class UsageException : Exception
{
    public UsageException(string message)
        : base(message)
    {
    }
}
