// Benchmark classes live in the root namespace so that their published names stay short: NetZeroMQ.Benchmarks.<Class>.<Method>.
namespace NetZeroMQ.Benchmarks;

/// <summary>Category names for --filter/--anyCategories; every benchmark carries at least one suite category and a pattern.</summary>
public static class Categories
{
    public const string Throughput = "Throughput";
    public const string Transport = "Transport";
    public const string BufferStrategy = "BufferStrategy";
    public const string ReceiveMode = "ReceiveMode";
    public const string ZeroCopy = "ZeroCopy";
    public const string Overhead = "Overhead";
    public const string Async = "Async";
    public const string RoundTrip = "RoundTrip";
    public const string NetMQ = "NetMQ";
    public const string Proxy = "Proxy";
    public const string Tracing = "Tracing";

    public const string PushPull = "PushPull";
    public const string PubSub = "PubSub";
    public const string RouterRouter = "RouterRouter";
    public const string ReqRep = "ReqRep";
    public const string DealerRouter = "DealerRouter";
}
