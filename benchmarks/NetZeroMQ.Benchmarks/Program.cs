namespace NetZeroMQ.Benchmarks;

public static class Program
{
    public static int Main(string[] args) => BenchmarkCli.Run(args);
}
