using System;
using System.Linq;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Running;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>
/// Printed after BenchmarkDotNet's "--list flat" (which names methods only): every case with its parameters, i.e. the names
/// results are published under.
/// </summary>
public static class CaseListing
{
    public static void Print(IConfig config)
    {
        var cases = typeof(CaseListing).Assembly.GetTypes()
            .Where(t => t.Namespace == "NetZeroMQ.Benchmarks" && t.IsClass && !t.IsAbstract && t.Name.EndsWith("Benchmarks", StringComparison.Ordinal))
            .OrderBy(t => t.Name, StringComparer.Ordinal)
            .SelectMany(t => BenchmarkConverter.TypeToBenchmarks(t, config).BenchmarksCases)
            .ToList();
        Console.WriteLine();
        Console.WriteLine($"Cases ({cases.Count}):");
        foreach (BenchmarkCase benchmarkCase in cases)
        {
            string categories = string.Join(",", benchmarkCase.Descriptor.Categories);
            Console.WriteLine($"  {benchmarkCase.Descriptor.Type.Name}.{benchmarkCase.Descriptor.WorkloadMethod.Name}({benchmarkCase.Parameters.DisplayInfo.Trim('[', ']')})  [{categories}]");
        }
    }
}
