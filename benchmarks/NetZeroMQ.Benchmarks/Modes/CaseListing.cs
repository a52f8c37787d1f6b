using System;
using System.Collections.Generic;
using System.Linq;
using BenchmarkDotNet.Running;

namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>
/// Printed after BenchmarkDotNet's "--list flat" (which names methods only): every selected case with its parameters, i.e. the
/// names results are published under.
/// </summary>
public static class CaseListing
{
    public static void Print(IReadOnlyList<BenchmarkRunInfo> selection)
    {
        var cases = selection.SelectMany(info => info.BenchmarksCases).ToList();
        Console.WriteLine();
        Console.WriteLine($"Cases ({cases.Count}):");
        foreach (BenchmarkCase benchmarkCase in cases)
        {
            string categories = string.Join(",", benchmarkCase.Descriptor.Categories);
            Console.WriteLine($"  {benchmarkCase.Descriptor.Type.Name}.{benchmarkCase.Descriptor.WorkloadMethod.Name}({benchmarkCase.Parameters.DisplayInfo.Trim('[', ']')})  [{categories}]");
        }
    }
}
